import { isValidResetPassword } from '@sparks/contracts/rules';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';

import { isApiError } from '../../../api/client';
import { useNavigate, useSearchParams } from '../../../lib/router';
import { login, resetPassword } from '../api';
import { FormAlert } from '../components/FormAlert';
import { PasswordField } from '../components/PasswordField';
import { StrengthMeter } from '../components/StrengthMeter';
import { SubmitButton } from '../components/SubmitButton';
import { mapApiError, editing, type FieldMessages, type Message } from '../errors';
import { useFieldFocus } from '../hooks/useFieldFocus';
import { useMessageText } from '../hooks/useMessageText';
import { startSession } from '../session';
import '../auth.css';
import { FormErrors } from '../components/FormErrors';

type ResetField = 'password' | 'repeat';
const ORDER = ['password', 'repeat'] as const;

function LinkProblem({ kind }: { kind: 'missing' | 'invalid' }) {
  const { t } = useTranslation('auth');
  return (
    <div className="auth-page" role="alert">
      <header className="auth-page__header">
        <h1 className="auth-page__title">{t(kind === 'missing' ? 'reset.missingTitle' : 'reset.invalidTitle')}</h1>
        <p className="auth-page__subtitle">{t(kind === 'missing' ? 'reset.missingBody' : 'reset.invalidBody')}</p>
      </header>
      <Link className="button button--primary button--block" to="/forgot-password">
        {t('reset.requestNew')}
      </Link>
    </div>
  );
}

/**
 * /reset-password?token= (docs/product.md §2, §4, §5): the new password twice, with the strength meter and its
 * criteria; the reset is followed by a login with the new password and a visit to `/`.
 */
export default function ResetPasswordPage() {
  const { t } = useTranslation('auth');
  const text = useMessageText();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const token = params.get('token')?.trim() ?? '';
  const { ref, focusFirstInvalid } = useFieldFocus<ResetField>(ORDER);

  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [errors, setErrors] = useState<FieldMessages<ResetField>>({});
  const [formErrors, setFormErrors] = useState<Message[]>([]);
  const [busy, setBusy] = useState(false);
  const [invalidLink, setInvalidLink] = useState(false);
  const [changedFor, setChangedFor] = useState<string | null>(null);

  if (!token) return <LinkProblem kind="missing" />;
  if (invalidLink) return <LinkProblem kind="invalid" />;

  const same = repeat.length > 0 && repeat === password;

  async function submit(event: FormEvent) {
    event.preventDefault();
    setFormErrors([]);
    const found: FieldMessages<ResetField> = {};
    if (!password) found.password = { key: 'validation.required' };
    else if (!isValidResetPassword(password)) found.password = { key: 'validation.resetRules' };
    if (!repeat) found.repeat = { key: 'validation.required' };
    else if (repeat !== password) found.repeat = { key: 'validation.same' };
    setErrors(found);
    if (focusFirstInvalid(found)) return;

    setBusy(true);
    let username: string;
    try {
      ({ username } = await resetPassword(token, password));
    } catch (error) {
      setBusy(false);
      if (isApiError(error) && error.hasCode('INVALID_TOKEN')) {
        setInvalidLink(true);
        return;
      }
      const mapped = mapApiError(error, { newPassword: 'password' });
      setErrors(mapped.fields);
      setFormErrors(mapped.form);
      focusFirstInvalid(mapped.fields);
      return;
    }
    // docs/product.md §4: the new password signs the user in straight away.
    try {
      startSession(await login(username, password));
      void navigate('/', { replace: true });
    } catch {
      setBusy(false);
      setChangedFor(username);
    }
  }

  if (changedFor) {
    return (
      <div className="auth-page">
        <FormAlert tone="info">{t('reset.signInFailed')}</FormAlert>
        <Link className="button button--primary button--block" to="/auth#login">
          {t('forgot.backToLogin')}
        </Link>
      </div>
    );
  }

  return (
    <div className="auth-page">
      <header className="auth-page__header">
        <h1 className="auth-page__title">{t('reset.title')}</h1>
        <p className="auth-page__subtitle">{t('reset.subtitle')}</p>
      </header>
      <form className="auth-form" noValidate onSubmit={(event) => void submit(event)}>
        <FormErrors messages={formErrors} />
        <PasswordField
          ref={ref('password')}
          label={t('fields.newPassword')}
          name="new-password"
          autoComplete="new-password"
          required
          value={password}
          onChange={editing(setPassword, setErrors, 'password')}
          error={text(errors.password)}
          hint={<StrengthMeter password={password} />}
        />
        <PasswordField
          ref={ref('repeat')}
          label={t('fields.repeatPassword')}
          name="repeat-password"
          autoComplete="new-password"
          required
          value={repeat}
          onChange={editing(setRepeat, setErrors, 'repeat')}
          error={text(errors.repeat)}
          hint={
            repeat.length > 0 && !errors.repeat ? (
              <p className={same ? 'match match--ok' : 'match match--no'} aria-live="polite">
                {t(same ? 'reset.same' : 'reset.notSame')}
              </p>
            ) : undefined
          }
        />
        <SubmitButton busy={busy}>{t('reset.submit')}</SubmitButton>
      </form>
    </div>
  );
}
