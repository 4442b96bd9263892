import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { serverMessage } from '../../api/serverMessage';
import { Dialog } from '../../ui/Dialog';
import { exportAccount, type ExportOutcome } from './api';
import { DeleteAccountForm } from './DeleteAccountForm';
import './privacy.css';

type ExportState = { kind: 'idle' } | { kind: 'busy' } | { kind: 'failed'; message: string } | ExportOutcome;

/**
 * The profile's "Your data" (issue 30): a dialog to download everything of the account as a zip (at once, or by an
 * e-mailed link for a large account) and to delete the account, which asks for the password (or an e-mailed code)
 * and the typed e-mail address (DeleteAccountForm).
 */
export function AccountDataButton({ email }: { email: string | undefined }) {
  const { t } = useTranslation('privacy');
  const [open, setOpen] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [exported, setExported] = useState<ExportState>({ kind: 'idle' });

  function close() {
    setOpen(false);
    setDeleting(false);
    setExported((current) => (current.kind === 'busy' ? current : { kind: 'idle' }));
  }

  async function download() {
    setExported({ kind: 'busy' });
    try {
      setExported(await exportAccount());
    } catch (error) {
      setExported({ kind: 'failed', message: serverMessage(error) ?? t('data.exportFailed') });
    }
  }

  return (
    <>
      <button type="button" className="chip-button" data-testid="account-data-open" onClick={() => setOpen(true)}>
        <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true">
          <path
            fill="currentColor"
            d="M12 2 4 5v6c0 5 3.4 9.7 8 11 4.6-1.3 8-6 8-11V5l-8-3Zm0 2.2 6 2.2V11c0 4-2.6 7.8-6 8.9-3.4-1.1-6-4.9-6-8.9V6.4l6-2.2Z"
          />
        </svg>
        <span>{t('data.open')}</span>
      </button>
      <Dialog
        open={open && !deleting}
        onClose={close}
        title={t('data.title')}
        description={t('data.description')}
        actions={
          <button type="button" className="button button--ghost" onClick={close}>
            {t('data.close')}
          </button>
        }
      >
        <section className="data-rights__section" aria-labelledby="data-export-title">
          <h3 id="data-export-title" className="data-rights__heading">
            {t('data.exportTitle')}
          </h3>
          <p className="data-rights__text">{t('data.exportText')}</p>
          <button
            type="button"
            className="button button--primary"
            disabled={exported.kind === 'busy'}
            aria-busy={exported.kind === 'busy' || undefined}
            onClick={() => void download()}
          >
            {exported.kind === 'busy' && <span className="spinner spinner--button" aria-hidden="true" />}
            {exported.kind === 'busy' ? t('data.exporting') : t('data.exportButton')}
          </button>
          <div role="status" aria-live="polite" className="data-rights__status">
            {exported.kind === 'downloaded' && <p>{t('data.exported', { file: exported.file })}</p>}
            {exported.kind === 'queued' && (
              <p>{t('data.queued', { email: exported.email, days: exported.linkDays })}</p>
            )}
          </div>
          {exported.kind === 'failed' && (
            <p className="dialog__error" role="alert">
              {exported.message}
            </p>
          )}
        </section>
        <section className="data-rights__section data-rights__section--danger" aria-labelledby="data-delete-title">
          <h3 id="data-delete-title" className="data-rights__heading">
            {t('data.deleteTitle')}
          </h3>
          <p className="data-rights__text">{t('data.deleteText')}</p>
          <button
            type="button"
            className="button button--danger"
            data-testid="account-delete-open"
            disabled={!email}
            onClick={() => setDeleting(true)}
          >
            {t('data.deleteButton')}
          </button>
        </section>
      </Dialog>
      {email && (
        <Dialog
          open={open && deleting}
          onClose={() => setDeleting(false)}
          title={t('delete.title')}
          description={t('delete.description')}
          tone="danger"
        >
          <DeleteAccountForm email={email} onCancel={() => setDeleting(false)} />
        </Dialog>
      )}
    </>
  );
}
