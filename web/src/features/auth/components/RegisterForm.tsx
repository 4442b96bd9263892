import type { Language } from '@sparks/contracts';
import { useState, type FormEvent } from 'react';
import { Trans, useTranslation } from 'react-i18next';

import { register } from '../api';
import { mapApiError, editing, withoutField, type FieldMessages, type Message } from '../errors';
import { useFieldFocus } from '../hooks/useFieldFocus';
import { useMessageText } from '../hooks/useMessageText';
import { checkEmail, checkRegisterPassword } from '../validation';
import { Checkbox } from './Checkbox';
import { PasswordField } from './PasswordField';
import { PasswordHints } from './PasswordHints';
import { SubmitButton } from './SubmitButton';
import { FormErrors } from './FormErrors';
import { EmailField } from './EmailField';

export type RegisterField = 'email' | 'password' | 'privacy';
const ORDER = ['email', 'password', 'privacy'] as const;
/** The server names the e-mail `username` (and `email`); both go under the e-mail input. */
export const REGISTER_SERVER_FIELDS = { username: 'email', email: 'email', password: 'password' } as const;

interface RegisterFormProps {
  /** The UI language, sent as the account's language. */
  language: Language;
  /** After a 201: the e-mail to confirm with the code just sent. */
  onRegistered: (email: string, password: string) => void;
}

/**
 * Register (docs/product.md §2, §5): e-mail, password with the hint list, privacy policy (must be ticked) and the
 * cookies notice; the account takes the current UI language.
 */
export function RegisterForm({ language, onRegistered }: RegisterFormProps) {
  const { t } = useTranslation('auth');
  const text = useMessageText();
  const { ref, focusFirstInvalid } = useFieldFocus<RegisterField>(ORDER);

  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [privacy, setPrivacy] = useState(false);
  const [errors, setErrors] = useState<FieldMessages<RegisterField>>({});
  const [formErrors, setFormErrors] = useState<Message[]>([]);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const emailKey = checkEmail(email);
    const passwordKey = checkRegisterPassword(password);
    const found: FieldMessages<RegisterField> = {
      ...(emailKey ? { email: { key: emailKey } } : {}),
      ...(passwordKey ? { password: { key: passwordKey } } : {}),
      ...(privacy ? {} : { privacy: { key: 'validation.privacy' } }),
    };
    setErrors(found);
    setFormErrors([]);
    if (focusFirstInvalid(found)) return;

    setBusy(true);
    const username = email.trim().toLowerCase();
    try {
      await register(username, password, language);
      setBusy(false);
      onRegistered(username, password);
    } catch (error) {
      setBusy(false);
      const mapped = mapApiError(error, REGISTER_SERVER_FIELDS);
      setErrors(mapped.fields);
      setFormErrors(mapped.form);
      focusFirstInvalid(mapped.fields);
    }
  }

  return (
    <form className="auth-form" noValidate onSubmit={(event) => void submit(event)} aria-label={t('tabs.register')}>
      <FormErrors messages={formErrors} />
      <EmailField
        ref={ref('email')}
        autoComplete="email"
        required
        value={email}
        onChange={editing(setEmail, setErrors, 'email')}
        error={text(errors.email)}
      />
      <PasswordField
        ref={ref('password')}
        label={t('fields.password')}
        name="new-password"
        autoComplete="new-password"
        required
        value={password}
        onChange={editing(setPassword, setErrors, 'password')}
        error={text(errors.password)}
        hint={<PasswordHints password={password} />}
      />
      <Checkbox
        ref={ref('privacy')}
        name="privacy"
        label={
          // The policy opens in a new tab, so what was typed here stays; /privacy is the operator's page when set.
          <Trans
            t={t}
            i18nKey="register.privacy"
            components={{ policy: <a href="/privacy" target="_blank" rel="noopener noreferrer" /> }}
          />
        }
        details={t('register.privacyDetails')}
        required
        checked={privacy}
        onChange={(event) => {
          setPrivacy(event.target.checked);
          setErrors((current) => withoutField(current, 'privacy'));
        }}
        error={text(errors.privacy)}
      />
      <p className="auth-form__note">{t('register.cookies')}</p>
      <p className="auth-form__note">{t('register.language', { language: t(`register.languageNames.${language}`) })}</p>
      <SubmitButton busy={busy}>{t('register.submit')}</SubmitButton>
    </form>
  );
}
