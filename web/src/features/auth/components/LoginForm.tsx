import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';

import { isApiError } from '../../../api/client';
import { useNavigate } from '../../../lib/router';
import { login } from '../api';
import { mapApiError, editing, withoutField, type FieldMessages, type Message } from '../errors';
import { useFieldFocus } from '../hooks/useFieldFocus';
import { useMessageText } from '../hooks/useMessageText';
import { startSession } from '../session';
import { EMAIL_FOR_LOGIN_KEY, readItem, removeItem, REMEMBER_ME_KEY, writeItem } from '../tokens';
import { checkCode, checkEmail, checkLoginPassword } from '../validation';
import { Checkbox } from './Checkbox';
import { CodeField } from './CodeField';
import { FormAlert } from './FormAlert';
import { PasswordField } from './PasswordField';
import { SubmitButton } from './SubmitButton';
import { FormErrors } from './FormErrors';
import { EmailField } from './EmailField';

type LoginField = 'email' | 'password' | 'code';
const ORDER = ['email', 'password', 'code'] as const;
const SERVER_FIELDS = { username: 'email', email: 'email', password: 'password', code: 'code' } as const;

interface LoginFormProps {
  /** "Verify now" after a NOT_VERIFIED answer: sends a code and opens the confirm-code step. */
  onVerify: (email: string, password: string) => Promise<void>;
  /** An e-mail to log in with (the code step's "Log in" after ALREADY_VERIFIED): filled in, the password focused. */
  prefill?: { email: string } | null;
  /** Whether the login panel is on screen. */
  shown?: boolean;
}

/**
 * Login (docs/product.md §2, §4): e-mail, password, remember me; success stores the tokens and goes to `/`. When the
 * account has had too many failed logins (LOGIN_CODE_REQUIRED), the server has e-mailed a code: the form asks for it
 * and sends it with the password.
 */
export function LoginForm({ onVerify, prefill = null, shown = true }: LoginFormProps) {
  const { t } = useTranslation('auth');
  const text = useMessageText();
  const navigate = useNavigate();
  const { ref, focusFirstInvalid, focus } = useFieldFocus<LoginField>(ORDER);

  const [remember, setRemember] = useState(() => readItem(REMEMBER_ME_KEY) === 'true');
  const [email, setEmail] = useState(() =>
    readItem(REMEMBER_ME_KEY) === 'true' ? (readItem(EMAIL_FOR_LOGIN_KEY) ?? '') : '',
  );
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<FieldMessages<LoginField>>({});
  const [formErrors, setFormErrors] = useState<Message[]>([]);
  const [unverified, setUnverified] = useState<string | null>(null);
  /** The e-mail a login code was sent to (LOGIN_CODE_REQUIRED); the code field shows while it is the one typed. */
  const [codeFor, setCodeFor] = useState<string | null>(null);
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [verifying, setVerifying] = useState(false);

  // After a prefill, the password gets the keyboard once the panel is on screen (the tab changes with a navigation,
  // which renders after this form's update).
  const focusPassword = useRef(false);
  useEffect(() => {
    if (!prefill) return;
    setEmail(prefill.email);
    setErrors({});
    setFormErrors([]);
    setUnverified(null);
    focusPassword.current = true;
  }, [prefill]);
  useEffect(() => {
    if (!shown || !focusPassword.current) return;
    focusPassword.current = false;
    focus('password');
  }, [shown, prefill, focus]);

  // The code field appears with LOGIN_CODE_REQUIRED; once it is on screen it gets the keyboard.
  const focusCode = useRef(false);
  useEffect(() => {
    if (!focusCode.current || codeFor === null) return;
    focusCode.current = false;
    focus('code');
  }, [codeFor, busy, focus]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const emailKey = checkEmail(email);
    const passwordKey = checkLoginPassword(password);
    const username = email.trim();
    const askingCode = codeFor !== null && codeFor === username;
    const codeKey = askingCode ? checkCode(code) : null;
    const found: FieldMessages<LoginField> = {
      ...(emailKey ? { email: { key: emailKey } } : {}),
      ...(passwordKey ? { password: { key: passwordKey } } : {}),
      ...(codeKey ? { code: { key: codeKey } } : {}),
    };
    setErrors(found);
    setFormErrors([]);
    setUnverified(null);
    if (focusFirstInvalid(found)) return;

    setBusy(true);
    try {
      const tokens = askingCode ? await login(username, password, code.trim()) : await login(username, password);
      startSession(tokens);
      if (remember) {
        writeItem(REMEMBER_ME_KEY, 'true');
        writeItem(EMAIL_FOR_LOGIN_KEY, username);
      } else {
        removeItem(REMEMBER_ME_KEY);
        removeItem(EMAIL_FOR_LOGIN_KEY);
      }
      void navigate('/');
    } catch (error) {
      setBusy(false);
      if (isApiError(error) && error.hasCode('NOT_VERIFIED')) {
        setUnverified(username);
        return;
      }
      if (isApiError(error) && error.hasCode('LOGIN_CODE_REQUIRED')) {
        setCodeFor(username);
        setCode('');
        focusCode.current = true;
        return;
      }
      const mapped = mapApiError(error, SERVER_FIELDS);
      setErrors(mapped.fields);
      setFormErrors(mapped.form);
      focusFirstInvalid(mapped.fields);
    }
  }

  return (
    <form className="auth-form" noValidate onSubmit={(event) => void submit(event)} aria-label={t('tabs.login')}>
      <FormErrors messages={formErrors} />
      {unverified && (
        <FormAlert>
          <p>{text({ key: 'errors.NOT_VERIFIED' })}</p>
          <button
            type="button"
            className="button button--secondary button--small"
            disabled={verifying}
            aria-busy={verifying || undefined}
            onClick={() => {
              setVerifying(true);
              void onVerify(unverified, password).finally(() => setVerifying(false));
            }}
          >
            {verifying && <span className="spinner spinner--button" aria-hidden="true" />}
            <span>{t('login.verifyNow')}</span>
          </button>
        </FormAlert>
      )}
      <EmailField
        ref={ref('email')}
        autoComplete="username"
        required
        value={email}
        onChange={editing(setEmail, setErrors, 'email')}
        error={text(errors.email)}
      />
      <PasswordField
        ref={ref('password')}
        label={t('fields.password')}
        name="password"
        autoComplete="current-password"
        required
        value={password}
        onChange={editing(setPassword, setErrors, 'password')}
        error={text(errors.password)}
      />
      {codeFor !== null && codeFor === email.trim() && (
        <>
          <FormAlert tone="info">
            <p>{t('login.codeSent', { email: codeFor })}</p>
          </FormAlert>
          <CodeField
            ref={ref('code')}
            name="login-code"
            label={t('login.codeLabel')}
            hint={t('login.codeHint')}
            required
            value={code}
            onValueChange={(value) => {
              setCode(value);
              setErrors((current) => withoutField(current, 'code'));
            }}
            error={text(errors.code)}
          />
        </>
      )}
      <div className="auth-form__row">
        <Checkbox
          label={t('login.rememberMe')}
          checked={remember}
          onChange={(event) => setRemember(event.target.checked)}
        />
        <Link className="auth-form__link" to="/forgot-password">
          {t('login.forgot')}
        </Link>
      </div>
      <SubmitButton busy={busy}>{t('login.submit')}</SubmitButton>
    </form>
  );
}
