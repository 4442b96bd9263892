import { useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';

import { isApiError } from '../../../api/client';
import { forgotPassword } from '../api';
import { Emphasized } from '../components/Emphasized';
import { FormAlert } from '../components/FormAlert';
import { SubmitButton } from '../components/SubmitButton';
import { type Message } from '../errors';
import { useMessageText } from '../hooks/useMessageText';
import { checkForgotEmail } from '../validation';
import '../auth.css';
import { EmailField } from '../components/EmailField';

/** docs/product.md §8 reactions of the forgot-password form to a failed call. */
export function forgotPasswordError(error: unknown): { field?: Message; form?: Message } {
  if (!isApiError(error)) return { form: { key: 'errors.NETWORK_ERROR' } };
  if (error.hasCode('NOT_VERIFIED')) return { form: { key: 'forgot.notVerified' } };
  if (error.hasCode('INVALID_PARAMS')) return { field: { key: 'validation.invalidParams' } };
  // Being throttled or unreachable is not "no such user": say what happened.
  if (error.hasCode('TOO_MANY_REQUESTS') || error.hasCode('NETWORK_ERROR') || error.hasCode('TIMEOUT'))
    return { form: { api: error.errors[0] } };
  return { form: { key: 'forgot.notExist' } };
}

/** /forgot-password (docs/product.md §2, §4): the e-mail, then a "check your inbox" state with a way back to log in. */
export default function ForgotPasswordPage() {
  const { t } = useTranslation('auth');
  const text = useMessageText();
  const input = useRef<HTMLInputElement>(null);
  const [email, setEmail] = useState('');
  const [fieldError, setFieldError] = useState<Message | null>(null);
  const [formError, setFormError] = useState<Message | null>(null);
  const [busy, setBusy] = useState(false);
  const [sentTo, setSentTo] = useState<string | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setFormError(null);
    const key = checkForgotEmail(email);
    setFieldError(key ? { key } : null);
    if (key) {
      input.current?.focus();
      return;
    }
    setBusy(true);
    try {
      await forgotPassword(email.trim());
      setSentTo(email.trim());
    } catch (error) {
      const reaction = forgotPasswordError(error);
      setFieldError(reaction.field ?? null);
      setFormError(reaction.form ?? null);
      if (reaction.field) input.current?.focus();
    } finally {
      setBusy(false);
    }
  }

  if (sentTo) {
    return (
      <div className="auth-page">
        <div className="auth-page__icon" aria-hidden="true">
          <svg viewBox="0 0 24 24" width="28" height="28" fill="none" stroke="currentColor" strokeWidth="1.8">
            <rect x="3" y="5" width="18" height="14" rx="2.5" />
            <path d="m4 7 8 6 8-6" strokeLinecap="round" strokeLinejoin="round" />
          </svg>
        </div>
        <header className="auth-page__header">
          <h1 className="auth-page__title">{t('forgot.sentTitle')}</h1>
        </header>
        <p className="auth-page__subtitle" role="status">
          <Emphasized render={(slot) => t('forgot.sentBody', { email: slot })} value={sentTo} />
        </p>
        <Link className="button button--primary button--block" to="/auth#login">
          {t('forgot.backToLogin')}
        </Link>
      </div>
    );
  }

  return (
    <div className="auth-page">
      <header className="auth-page__header">
        <h1 className="auth-page__title">{t('forgot.title')}</h1>
        <p className="auth-page__subtitle">{t('forgot.subtitle')}</p>
      </header>
      <form className="auth-form" noValidate onSubmit={(event) => void submit(event)}>
        {formError && <FormAlert>{text(formError)}</FormAlert>}
        <EmailField
          ref={input}
          autoComplete="username"
          required
          value={email}
          onChange={(event) => {
            setEmail(event.target.value);
            setFieldError(null);
          }}
          error={text(fieldError)}
        />
        <SubmitButton busy={busy}>{t('forgot.submit')}</SubmitButton>
      </form>
      <Link className="auth-page__back" to="/auth#login">
        <span aria-hidden="true">← </span>
        {t('forgot.backToLogin')}
      </Link>
    </div>
  );
}
