import { RESEND_COOLDOWN_SECONDS } from '@sparks/contracts/rules';
import { useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';

import { isApiError } from '../../../api/client';
import { useNavigate } from '../../../lib/router';
import { sendCode, verifyCode } from '../api';
import { mapApiError, secondsIn, type Message } from '../errors';
import { useCooldown } from '../hooks/useCooldown';
import { useMessageText } from '../hooks/useMessageText';
import { startSession } from '../session';
import { checkCode } from '../validation';
import { CodeField } from './CodeField';
import { Emphasized } from './Emphasized';
import { FormAlert } from './FormAlert';
import { PasswordField } from './PasswordField';
import { ResendCode } from './ResendCode';
import { SubmitButton } from './SubmitButton';
import { FormErrors } from './FormErrors';

interface ConfirmCodeStepProps {
  email: string;
  /** The password chosen at sign-up, when this page has it (kept in memory only): the server keeps it only then. */
  password?: string;
  /** Seconds before a new code may be asked for (a code was usually just sent). */
  cooldown: number;
  /** A message from sending the first code, shown on arrival. */
  notice?: Message | null;
  /** "Change e-mail": back to the form the user came from. */
  onBack: () => void;
  /** "Log in", offered once the server says the e-mail is already verified: the login tab with this e-mail. */
  onLogIn: () => void;
}

/**
 * The confirm-code step inside /auth (docs/product.md §2, §4): the 6-digit code, resend with a 30 s countdown, a way
 * back to change the e-mail. A verified code stores the tokens and opens /onBoarding.
 */
export function ConfirmCodeStep({ email, password, cooldown, notice = null, onBack, onLogIn }: ConfirmCodeStepProps) {
  const { t } = useTranslation('auth');
  const text = useMessageText();
  const navigate = useNavigate();
  const codeInput = useRef<HTMLInputElement>(null);
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<Message | null>(null);
  // Without the sign-up password in memory (the page was reloaded), it may be typed here; without it, none is kept.
  const [typedPassword, setTypedPassword] = useState('');
  const [passwordError, setPasswordError] = useState<Message | null>(null);
  const [formErrors, setFormErrors] = useState<Message[]>(notice ? [notice] : []);
  const [resent, setResent] = useState(false);
  // The account is verified already (in another tab, or an earlier code): there is nothing to confirm, only to log in.
  const [verified, setVerified] = useState(false);
  const [busy, setBusy] = useState(false);
  const [remaining, startCooldown] = useCooldown(cooldown);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setFormErrors([]);
    setResent(false);
    const key = checkCode(code);
    setCodeError(key ? { key } : null);
    if (key) {
      codeInput.current?.focus();
      return;
    }
    setBusy(true);
    try {
      startSession(await verifyCode(email, code, password ?? (typedPassword || undefined)));
      void navigate('/onBoarding');
    } catch (error) {
      setBusy(false);
      const mapped = mapApiError(error, { code: 'code', password: 'password' });
      setCodeError(mapped.fields.code ?? null);
      setPasswordError(mapped.fields.password ?? null);
      setFormErrors(mapped.form);
      setVerified(mapped.codes.includes('ALREADY_VERIFIED'));
      if (mapped.fields.code) codeInput.current?.focus();
    }
  }

  async function resend() {
    setFormErrors([]);
    setResent(false);
    try {
      const answer = await sendCode(email);
      startCooldown(answer.cooldownSeconds || RESEND_COOLDOWN_SECONDS);
      setResent(true);
    } catch (error) {
      if (isApiError(error) && error.hasCode('RESEND_TOO_SOON')) {
        startCooldown(secondsIn(error.message) ?? RESEND_COOLDOWN_SECONDS);
        return;
      }
      const mapped = mapApiError(error, {});
      setFormErrors(mapped.form);
      setVerified(mapped.codes.includes('ALREADY_VERIFIED'));
    }
  }

  return (
    <section className="auth-step" aria-labelledby="confirm-code-title">
      <h2 id="confirm-code-title" className="auth-step__title">
        {t('verify.title')}
      </h2>
      <p className="auth-step__body">
        <Emphasized render={(slot) => t('verify.body', { email: slot })} value={email} />
      </p>
      <form className="auth-form" noValidate onSubmit={(event) => void submit(event)}>
        <FormErrors messages={formErrors} />
        {verified && (
          <button type="button" className="button button--primary button--block" onClick={onLogIn}>
            {t('verify.logIn')}
          </button>
        )}
        {resent && <FormAlert tone="success">{t('verify.resent')}</FormAlert>}
        <CodeField
          ref={codeInput}
          name="code"
          autoFocus
          required
          value={code}
          onValueChange={(value) => {
            setCode(value);
            setCodeError(null);
          }}
          error={text(codeError)}
        />
        {password === undefined && (
          <PasswordField
            label={t('verify.passwordLabel')}
            hint={t('verify.passwordHint')}
            name="password"
            autoComplete="current-password"
            value={typedPassword}
            onChange={(event) => {
              setTypedPassword(event.target.value);
              setPasswordError(null);
            }}
            error={text(passwordError)}
          />
        )}
        <SubmitButton busy={busy}>{t('verify.submit')}</SubmitButton>
        <ResendCode remaining={remaining} onResend={resend} />
      </form>
      <button type="button" className="link-button auth-step__back" onClick={onBack}>
        <span aria-hidden="true">← </span>
        {t('verify.changeEmail')}
      </button>
    </section>
  );
}
