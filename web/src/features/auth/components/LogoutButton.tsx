import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { startLogout } from '../startLogout';

/**
 * "Log out" in the header of the signed-in screens: ends the session on the server (best effort), clears
 * the storage and goes to /auth.
 */
export function LogoutButton() {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  return (
    <button
      type="button"
      className="button button--ghost button--small header-logout"
      title={t('nav.logout')}
      disabled={busy}
      aria-busy={busy || undefined}
      onClick={() => {
        setBusy(true);
        startLogout();
      }}
    >
      {busy ? (
        <span className="spinner spinner--button" aria-hidden="true" />
      ) : (
        <svg viewBox="0 0 24 24" width="18" height="18" fill="none" stroke="currentColor" aria-hidden="true">
          <path
            d="M9 20H6a2 2 0 0 1-2-2V6a2 2 0 0 1 2-2h3M16 17l5-5-5-5M21 12H9"
            strokeWidth="1.8"
            strokeLinecap="round"
            strokeLinejoin="round"
          />
        </svg>
      )}
      <span className="header-logout__label">{t('nav.logout')}</span>
    </button>
  );
}
