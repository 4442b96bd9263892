import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { Field, type FieldProps } from './Field';

/** A password input with a show/hide toggle (a pressed/unpressed button inside the box). */
export function PasswordField({ id, ...props }: Omit<FieldProps, 'type' | 'trailing'>) {
  const { t } = useTranslation('auth');
  const autoId = useId();
  const inputId = id ?? autoId;
  const [visible, setVisible] = useState(false);
  return (
    <Field
      {...props}
      id={inputId}
      type={visible ? 'text' : 'password'}
      autoCapitalize="none"
      autoCorrect="off"
      spellCheck={false}
      trailing={
        <button
          type="button"
          className="field__toggle"
          aria-label={t('password.show')}
          aria-pressed={visible}
          aria-controls={inputId}
          title={visible ? t('password.hide') : t('password.show')}
          onClick={() => setVisible((v) => !v)}
        >
          <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" fill="none" stroke="currentColor">
            <path
              strokeWidth="1.8"
              strokeLinecap="round"
              strokeLinejoin="round"
              d="M2.5 12s3.5-6.5 9.5-6.5 9.5 6.5 9.5 6.5-3.5 6.5-9.5 6.5S2.5 12 2.5 12Z"
            />
            <circle cx="12" cy="12" r="3" strokeWidth="1.8" />
            {visible && <path strokeWidth="1.8" strokeLinecap="round" d="M4 4l16 16" />}
          </svg>
        </button>
      }
    />
  );
}
