import type { SupportContact } from '@sparks/contracts';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import useSWR from 'swr';

import { supportContact } from '../features/auth/api';
import { startLogout } from '../features/auth/startLogout';
import { Dialog } from '../ui/Dialog';

const SLOT = '\u0000';

/**
 * Who reactivates the account (issue 18: "contact support" named no contact): the server's SUPPORT_EMAIL as a
 * mailto link, else its administrator.
 */
function SupportContactNote() {
  const { t } = useTranslation('layout');
  const { data, error } = useSWR<SupportContact, Error>('/auth/support', supportContact);
  if (!data && !error) return null;
  const email = data?.email;
  if (!email) return <p className="dialog__description">{t('inactive.contactAdmin')}</p>;
  const [before, after = ''] = t('inactive.contactEmail', { email: SLOT }).split(SLOT);
  return (
    <p className="dialog__description">
      {before}
      <a href={`mailto:${email}`}>{email}</a>
      {after}
    </p>
  );
}

/** docs/product.md §4 inactive-tenant modal: a disabled account can only log out. It cannot be dismissed. */
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
    >
      <SupportContactNote />
    </Dialog>
  );
}
