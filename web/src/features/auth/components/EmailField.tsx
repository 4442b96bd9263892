import { useTranslation } from 'react-i18next';

import { Field, type FieldProps } from './Field';

export type EmailFieldProps = Omit<FieldProps, 'label' | 'type' | 'name' | 'inputMode' | 'placeholder'> & {
  /** 'username' where an existing account signs in, 'email' where one is created. */
  autoComplete: 'username' | 'email';
};

/** The e-mail input of the auth screens: its label, placeholder and keyboard, no autocapitalisation. */
export function EmailField(props: EmailFieldProps) {
  const { t } = useTranslation('auth');
  return (
    <Field
      label={t('fields.email')}
      type="email"
      name="email"
      inputMode="email"
      autoCapitalize="none"
      spellCheck={false}
      placeholder={t('fields.emailPlaceholder')}
      {...props}
    />
  );
}
