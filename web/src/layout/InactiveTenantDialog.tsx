import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { startLogout } from '../features/auth/startLogout';
import { Dialog } from '../ui/Dialog';

/** Spec §4 inactive-tenant modal: a disabled account can only log out. It cannot be dismissed. */
export default function InactiveTenantDialog() {
  const { t } = useTranslation('layout');
  const [busy, setBusy] = useState(false);
  const logoutRef = useRef<HTMLButtonElement>(null);
  return (
    <Dialog
      open
      blocking
      onClose={() => undefined}
      title={t('inactive.title')}
      description={t('inactive.body')}
      initialFocus={logoutRef}
      actions={
        <button
          ref={logoutRef}
          type="button"
          className="button button--primary"
          disabled={busy}
          aria-busy={busy || undefined}
          onClick={() => {
            setBusy(true);
            startLogout();
          }}
        >
          {busy && <span className="spinner spinner--button" aria-hidden="true" />}
          {t('inactive.logout')}
        </button>
      }
    />
  );
}
