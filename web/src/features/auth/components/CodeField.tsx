import { CODE_LENGTH } from '@sparks/contracts/rules';
import { useTranslation } from 'react-i18next';

import { Field, type FieldProps } from './Field';

/** The 6-digit confirmation code: one numeric input, filled by the phone's one-time-code suggestion. */
export function CodeField({
  onValueChange,
  label,
  hint,
  ...props
}: Omit<FieldProps, 'label'> & { onValueChange: (code: string) => void; label?: string }) {
  const { t } = useTranslation('auth');
  return (
    <Field
      label={label ?? t('fields.code')}
      hint={hint ?? t('verify.codeHint')}
      className="field--code"
      inputMode="numeric"
      autoComplete="one-time-code"
      pattern="[0-9]*"
      maxLength={CODE_LENGTH}
      placeholder={'•'.repeat(CODE_LENGTH)}
      {...props}
      onChange={(event) => onValueChange(event.target.value.replace(/\D/g, '').slice(0, CODE_LENGTH))}
    />
  );
}
