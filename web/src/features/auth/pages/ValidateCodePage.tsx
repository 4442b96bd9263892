import { RESEND_COOLDOWN_SECONDS } from '@sparks/contracts/rules';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';

import { isApiError } from '../../../api/client';
import { useNavigate, useSearchParams } from '../../../lib/router';
import { sendCode, verifyCode } from '../api';
import { CodeField } from '../components/CodeField';
import { FormAlert } from '../components/FormAlert';
import { PasswordField } from '../components/PasswordField';
import { ResendCode } from '../components/ResendCode';
import { SubmitButton } from '../components/SubmitButton';
import { mapApiError, secondsIn, editing, withoutField, type FieldMessages, type Message } from '../errors';
import { useCooldown } from '../hooks/useCooldown';
import { useFieldFocus } from '../hooks/useFieldFocus';
import { useMessageText } from '../hooks/useMessageText';
import { startSession } from '../session';
import { checkCode, checkEmail } from '../validation';
import '../auth.css';
import { FormErrors } from '../components/FormErrors';
import { EmailField } from '../components/EmailField';

type CodeFieldName = 'email' | 'code' | 'password';
const ORDER = ['email', 'code', 'password'] as const;
const SERVER_FIELDS = { username: 'email', email: 'email', code: 'code', password: 'password' } as const;

/**
 * /validate-code?username=&valid= (docs/product.md §2): e-mail and code, both required ("invalid parameters"
 * otherwise), resend with the 30 s cooldown; a verified code opens /onBoarding. `username` prefills the
 * e-mail; a six-digit `valid` prefills the code.
 */
export default function ValidateCodePage() {
  const { t } = useTranslation('auth');
  const text = useMessageText();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const { ref, focusFirstInvalid } = useFieldFocus<CodeFieldName>(ORDER);

  const [email, setEmail] = useState(() => params.get('username') ?? '');
  const [code, setCode] = useState(() => (/^\d{6}$/.test(params.get('valid') ?? '') ? params.get('valid')! : ''));
  /** Optional: the password chosen at sign-up. Without it the e-mail is confirmed and no password is kept. */
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<FieldMessages<CodeFieldName>>({});
  const [formErrors, setFormErrors] = useState<Message[]>([]);
  const [resent, setResent] = useState(false);
  const [busy, setBusy] = useState(false);
  const [remaining, startCooldown] = useCooldown(0);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setResent(false);
    const emailKey = checkEmail(email);
    const codeKey = checkCode(code);
    const found: FieldMessages<CodeFieldName> = {
      ...(emailKey ? { email: { key: emailKey } } : {}),
      ...(codeKey ? { code: { key: codeKey } } : {}),
    };
    setErrors(found);
    // docs/product.md §5: both fields are required, else "invalid parameters".
    setFormErrors(!email.trim() || !code.trim() ? [{ key: 'validation.invalidParams' }] : []);
    if (focusFirstInvalid(found)) return;

    setBusy(true);
    try {
      startSession(await verifyCode(email.trim(), code, password || undefined));
      void navigate('/onBoarding');
    } catch (error) {
      setBusy(false);
      const mapped = mapApiError(error, SERVER_FIELDS);
      setErrors(mapped.fields);
      setFormErrors(mapped.form);
      focusFirstInvalid(mapped.fields);
    }
  }

  async function resend() {
    setResent(false);
    setFormErrors([]);
    const emailKey = checkEmail(email);
    if (emailKey) {
      setErrors({ email: { key: emailKey } });
      focusFirstInvalid({ email: { key: emailKey } });
      return;
    }
    setErrors({});
    try {
      const answer = await sendCode(email.trim());
      startCooldown(answer.cooldownSeconds || RESEND_COOLDOWN_SECONDS);
      setResent(true);
    } catch (error) {
      if (isApiError(error) && error.hasCode('RESEND_TOO_SOON')) {
        startCooldown(secondsIn(error.message) ?? RESEND_COOLDOWN_SECONDS);
        return;
      }
      const mapped = mapApiError(error, SERVER_FIELDS);
      setErrors(mapped.fields);
      setFormErrors(mapped.form);
      focusFirstInvalid(mapped.fields);
    }
  }

  return (
    <div className="auth-page">
      <header className="auth-page__header">
        <h1 className="auth-page__title">{t('validateCode.title')}</h1>
        <p className="auth-page__subtitle">{t('validateCode.subtitle')}</p>
      </header>
      <form className="auth-form" noValidate onSubmit={(event) => void submit(event)}>
        <FormErrors messages={formErrors} />
        {resent && <FormAlert tone="success">{t('verify.resent')}</FormAlert>}
        <EmailField
          ref={ref('email')}
          autoComplete="username"
          required
          value={email}
          onChange={editing(setEmail, setErrors, 'email')}
          error={text(errors.email)}
        />
        <CodeField
          ref={ref('code')}
          name="code"
          required
          value={code}
          onValueChange={(value) => {
            setCode(value);
            setErrors((current) => withoutField(current, 'code'));
          }}
          error={text(errors.code)}
        />
        <PasswordField
          ref={ref('password')}
          label={t('verify.passwordLabel')}
          hint={t('verify.passwordHint')}
          name="password"
          autoComplete="current-password"
          value={password}
          onChange={editing(setPassword, setErrors, 'password')}
          error={text(errors.password)}
        />
        <SubmitButton busy={busy}>{t('validateCode.submit')}</SubmitButton>
        <ResendCode remaining={remaining} onResend={resend} />
      </form>
      <Link className="auth-page__back" to="/auth#login">
        <span aria-hidden="true">← </span>
        {t('validateCode.backToLogin')}
      </Link>
    </div>
  );
}
