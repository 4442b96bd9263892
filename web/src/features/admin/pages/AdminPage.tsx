import type { AdminAccountView, AdminAuditEntry } from '@sparks/contracts';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useSWRConfig } from 'swr';

import { isApiError } from '../../../api/client';
import { ConfirmDialog } from '../../../ui/ConfirmDialog';
import { PageLoading } from '../../../ui/PageLoading';
import { ADMIN_AUDIT_KEY, findAccount, openQueuesBoard, setAccountEnabled, useAdminAudit, useIsAdmin } from '../api';
import '../admin.css';

function useDateTime() {
  const { i18n } = useTranslation();
  const format = new Intl.DateTimeFormat(i18n.resolvedLanguage ?? i18n.language, {
    dateStyle: 'medium',
    timeStyle: 'short',
  });
  return (iso: string) => format.format(new Date(iso));
}

function AuditTable({ entries, caption }: { entries: AdminAuditEntry[]; caption: string }) {
  const { t } = useTranslation('admin');
  const when = useDateTime();
  return (
    <table className="admin-table">
      <caption className="visually-hidden">{caption}</caption>
      <thead>
        <tr>
          <th scope="col">{t('audit.when')}</th>
          <th scope="col">{t('audit.action')}</th>
          <th scope="col">{t('audit.target')}</th>
          <th scope="col">{t('audit.who')}</th>
        </tr>
      </thead>
      <tbody>
        {entries.map((entry) => (
          <tr key={entry._id}>
            <td>
              <time dateTime={entry.createdAt}>{when(entry.createdAt)}</time>
            </td>
            <td>{t(`actions.${entry.action}`)}</td>
            <td className="admin-table__email">{entry.targetUsername}</td>
            <td className="admin-table__email">{entry.actor}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function AccountCard({ view, onChanged }: { view: AdminAccountView; onChanged: (view: AdminAccountView) => void }) {
  const { t } = useTranslation('admin');
  const when = useDateTime();
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const { account } = view;
  const disabled = account.status === 'inactive';
  const name = [account.firstname, account.lastname].filter(Boolean).join(' ');
  const headingId = useId();

  async function confirm() {
    setError(null);
    try {
      onChanged(await setAccountEnabled(account._id, disabled));
      setConfirming(false);
    } catch (failure) {
      setError(isApiError(failure) && failure.message ? failure.message : t('account.failed'));
      throw failure;
    }
  }

  return (
    <section className="admin-card" aria-labelledby={headingId}>
      <h3 id={headingId} className="admin-card__title">
        {account.username}
      </h3>
      <dl className="admin-card__facts">
        {name && (
          <>
            <dt>{t('account.name')}</dt>
            <dd>{name}</dd>
          </>
        )}
        <dt>{t('account.created')}</dt>
        <dd>
          <time dateTime={account.createdAt}>{when(account.createdAt)}</time>
        </dd>
        <dt>{t('account.status')}</dt>
        <dd>
          <span className={`admin-badge admin-badge--${account.status}`} data-testid="account-status">
            {t(disabled ? 'account.inactive' : 'account.active')}
          </span>
          {account.admin && <span className="admin-badge admin-badge--admin">{t('account.admin')}</span>}
        </dd>
      </dl>
      <div className="admin-card__actions">
        <button
          type="button"
          className={disabled ? 'button button--primary' : 'button button--danger'}
          onClick={() => {
            setError(null);
            setConfirming(true);
          }}
        >
          {t(disabled ? 'account.enable' : 'account.disable')}
        </button>
      </div>
      <h4 className="admin-card__subtitle">{t('account.history')}</h4>
      {view.audit.length === 0 ? (
        <p className="page__subtitle">{t('account.noHistory')}</p>
      ) : (
        <AuditTable entries={view.audit} caption={t('account.history')} />
      )}
      <ConfirmDialog
        open={confirming}
        onClose={() => setConfirming(false)}
        onConfirm={confirm}
        title={t(disabled ? 'confirm.enableTitle' : 'confirm.disableTitle', { email: account.username })}
        description={t(disabled ? 'confirm.enableBody' : 'confirm.disableBody')}
        confirmLabel={t(disabled ? 'confirm.enable' : 'confirm.disable')}
        cancelLabel={t('confirm.cancel')}
        error={error}
        tone={disabled ? 'default' : 'danger'}
      />
    </section>
  );
}

function FindAccount() {
  const { t } = useTranslation('admin');
  const { mutate } = useSWRConfig();
  const inputId = useId();
  const errorId = useId();
  const [email, setEmail] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [view, setView] = useState<AdminAccountView | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setNotice(null);
    if (!email.trim()) {
      setError(t('find.required'));
      return;
    }
    setBusy(true);
    setError(null);
    try {
      setView(await findAccount(email.trim()));
    } catch (failure) {
      setView(null);
      setError(isApiError(failure) ? failure.message : String(failure));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="admin-section" aria-labelledby={`${inputId}-heading`}>
      <h2 id={`${inputId}-heading`} className="admin-section__title">
        {t('find.heading')}
      </h2>
      <form role="search" className="admin-find" onSubmit={(event) => void submit(event)} noValidate>
        <label htmlFor={inputId} className="admin-find__label">
          {t('find.label')}
        </label>
        <input
          id={inputId}
          type="email"
          className="text-input admin-find__input"
          value={email}
          maxLength={320}
          autoComplete="off"
          spellCheck={false}
          placeholder={t('find.placeholder')}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          onChange={(event) => setEmail(event.target.value)}
        />
        <button type="submit" className="button button--primary" disabled={busy} aria-busy={busy || undefined}>
          {busy && <span className="spinner spinner--button" aria-hidden="true" />}
          {t('find.submit')}
        </button>
      </form>
      {error && (
        <p id={errorId} className="admin-error" role="alert">
          {error}
        </p>
      )}
      {notice && (
        <p className="admin-notice" role="status">
          {notice}
        </p>
      )}
      {view && (
        <AccountCard
          view={view}
          onChanged={(next) => {
            setView(next);
            setNotice(
              t(next.account.status === 'inactive' ? 'done.disabled' : 'done.enabled', {
                email: next.account.username,
              }),
            );
            void mutate(ADMIN_AUDIT_KEY);
          }}
        />
      )}
    </section>
  );
}

function AuditLog() {
  const { t } = useTranslation('admin');
  const { data, error } = useAdminAudit(true);
  return (
    <section className="admin-section" aria-labelledby="admin-audit-heading">
      <h2 id="admin-audit-heading" className="admin-section__title">
        {t('audit.heading')}
      </h2>
      {error ? (
        <p className="admin-error" role="alert">
          {t('audit.loadFailed')}
        </p>
      ) : !data ? (
        <PageLoading />
      ) : data.length === 0 ? (
        <p className="page__subtitle">{t('audit.empty')}</p>
      ) : (
        <AuditTable entries={data} caption={t('audit.heading')} />
      )}
    </section>
  );
}

function QueuesLink() {
  const { t } = useTranslation('admin');
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  return (
    <section className="admin-section" aria-labelledby="admin-queues-heading">
      <h2 id="admin-queues-heading" className="admin-section__title">
        {t('queues.heading')}
      </h2>
      <p className="page__subtitle">{t('queues.body')}</p>
      <button
        type="button"
        className="button button--ghost"
        disabled={busy}
        aria-busy={busy || undefined}
        onClick={() => {
          setBusy(true);
          setFailed(false);
          openQueuesBoard().catch(() => {
            setBusy(false);
            setFailed(true);
          });
        }}
      >
        {busy && <span className="spinner spinner--button" aria-hidden="true" />}
        {t('queues.open')}
      </button>
      {failed && (
        <p className="admin-error" role="alert">
          {t('queues.failed')}
        </p>
      )}
    </section>
  );
}

/**
 * /admin, for admins only (GET /admin/me): find an account by e-mail and disable or enable it after a confirmation
 * (docs/product.md §4 "Disable user"), the audit log of admin actions, and the way into the queues dashboard
 * (Bull Board). Everyone else sees that the page is for admins; the api refuses them anyway.
 */
export default function AdminPage() {
  const { t } = useTranslation('admin');
  const { admin, loading } = useIsAdmin();
  if (loading) return <PageLoading />;
  if (!admin)
    return (
      <section className="page page--centered">
        <h1 className="page__title">{t('forbidden.title')}</h1>
        <p className="page__subtitle">{t('forbidden.body')}</p>
        <Link className="button button--primary" to="/">
          {t('forbidden.backHome')}
        </Link>
      </section>
    );
  return (
    <div className="admin-page">
      <header>
        <h1 className="page__title">{t('title')}</h1>
        <p className="page__subtitle">{t('intro')}</p>
      </header>
      <FindAccount />
      <AuditLog />
      <QueuesLink />
    </div>
  );
}
