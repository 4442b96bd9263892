import { confirmsDeletion } from '@sparks/contracts/rules';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';

import { isApiError } from '../../api/client';
import { clearSession, EMAIL_FOR_LOGIN_KEY, REMEMBER_ME_KEY } from '../auth/tokens';
import { serverMessage } from '../../api/serverMessage';
import { deleteAccount, deletionMethod, sendDeletionCode } from './api';

type Method = 'password' | 'code';
type Field = 'password' | 'code' | 'confirmation';

/** The browser forgets the deleted account too: the session, and the e-mail remembered for the login form. */
function forgetAccount(): void {
  clearSession();
  try {
    localStorage.removeItem(REMEMBER_ME_KEY);
    localStorage.removeItem(EMAIL_FOR_LOGIN_KEY);
  } catch {
    // storage blocked: nothing was remembered there
  }
}

/**
 * Deleting the account (DELETE /account): what goes, the password (or, for an account that signs in only with
 * Google, a code the server e-mails), and the e-mail address typed as confirmation — the button stays disabled until
 * it matches (the server checks it too). The server's refusals show under their field, in the user's language.
 */
export function DeleteAccountForm({
  email,
  onCancel,
  onDeleted = () => window.location.replace('/account-deleted'),
}: {
  email: string;
  onCancel: () => void;
  /** After the deletion and the browser forgot the account: a full load of /account-deleted (no state survives). */
  onDeleted?: () => void;
}) {
  const { t } = useTranslation('privacy');
  const ids = useId();
  const [method, setMethod] = useState<Method | null>(null);
  const [secret, setSecret] = useState('');
  const [typed, setTyped] = useState('');
  const [codeSent, setCodeSent] = useState(false);
  const [errors, setErrors] = useState<Partial<Record<Field | 'form', string>>>({});
  const [busy, setBusy] = useState(false);
  const secretRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    let live = true;
    deletionMethod()
      .then((found) => live && setMethod(found.method))
      .catch(() => live && setMethod('password'));
    return () => {
      live = false;
    };
  }, []);

  const confirmed = confirmsDeletion(typed, email);

  async function requestCode() {
    setErrors({});
    try {
      await sendDeletionCode();
      setCodeSent(true);
      secretRef.current?.focus();
    } catch (error) {
      setErrors({ form: serverMessage(error) ?? t('delete.failed') });
    }
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!confirmed || busy || !method) return;
    setBusy(true);
    setErrors({});
    try {
      await deleteAccount({
        confirmation: typed,
        ...(method === 'password' ? { password: secret } : { code: secret }),
      });
      forgetAccount();
      onDeleted();
    } catch (error) {
      setBusy(false);
      const item = isApiError(error) ? error.errors[0] : undefined;
      const field = item?.field as Field | undefined;
      const message = serverMessage(error) ?? t('delete.failed');
      setErrors(
        field === 'password' || field === 'code' || field === 'confirmation' ? { [field]: message } : { form: message },
      );
    }
  }

  const secretId = `${ids}-secret`;
  const confirmId = `${ids}-confirm`;
  const describe = (field: Field, hint?: string) =>
    [errors[field] ? `${ids}-${field}-error` : null, hint ?? null].filter(Boolean).join(' ') || undefined;

  return (
    <form className="delete-account" onSubmit={(event) => void submit(event)} noValidate>
      <p className="delete-account__goes">{t('delete.goes')}</p>
      <ul className="delete-account__list">
        {(['account', 'sparks', 'visitors', 'billing'] as const).map((item) => (
          <li key={item}>{t(`delete.items.${item}`)}</li>
        ))}
      </ul>
      {method === 'code' && (
        <div className="delete-account__code">
          <p>{t('delete.codeIntro')}</p>
          <button type="button" className="button button--secondary button--small" onClick={() => void requestCode()}>
            {t('delete.sendCode')}
          </button>
          {codeSent && (
            <p role="status" className="delete-account__sent">
              {t('delete.codeSent', { email })}
            </p>
          )}
        </div>
      )}
      {method && (
        <div className="confirm-dialog__field">
          <label htmlFor={secretId} className="confirm-dialog__label">
            {method === 'password' ? t('delete.password') : t('delete.code')}
          </label>
          <input
            ref={secretRef}
            id={secretId}
            className="text-input"
            type={method === 'password' ? 'password' : 'text'}
            autoComplete={method === 'password' ? 'current-password' : 'one-time-code'}
            inputMode={method === 'code' ? 'numeric' : undefined}
            value={secret}
            aria-invalid={errors[method] ? true : undefined}
            aria-describedby={describe(method)}
            onChange={(event) => {
              setSecret(event.target.value);
              setErrors((current) => ({ ...current, [method]: undefined }));
            }}
          />
          {errors[method] && (
            <p id={`${ids}-${method}-error`} className="delete-account__error">
              {errors[method]}
            </p>
          )}
        </div>
      )}
      <div className="confirm-dialog__field">
        <label htmlFor={confirmId} className="confirm-dialog__label">
          {t('delete.confirm', { email })}
        </label>
        <input
          id={confirmId}
          className="text-input"
          type="email"
          value={typed}
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          placeholder={email}
          aria-invalid={errors.confirmation ? true : undefined}
          aria-describedby={describe('confirmation', `${ids}-hint`)}
          data-testid="account-delete-confirm"
          onChange={(event) => {
            setTyped(event.target.value);
            setErrors((current) => ({ ...current, confirmation: undefined }));
          }}
        />
        <p id={`${ids}-hint`} className="delete-account__hint">
          {t('delete.confirmHint')}
        </p>
        {errors.confirmation && (
          <p id={`${ids}-confirmation-error`} className="delete-account__error">
            {errors.confirmation}
          </p>
        )}
      </div>
      {errors.form && (
        <p className="dialog__error" role="alert">
          {errors.form}
        </p>
      )}
      <div className="dialog__actions">
        <button type="button" className="button button--ghost" onClick={onCancel} disabled={busy}>
          {t('delete.cancel')}
        </button>
        <button
          type="submit"
          className="button button--danger"
          data-testid="account-delete-submit"
          disabled={!confirmed || busy || !method}
          aria-busy={busy || undefined}
        >
          {busy && <span className="spinner spinner--button" aria-hidden="true" />}
          {t('delete.submit')}
        </button>
      </div>
    </form>
  );
}
