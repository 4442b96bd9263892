import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { Dialog } from '../../../ui/Dialog';
import { startLogout } from '../../auth/startLogout';

/** docs/product.md §2/§4: the trial ended without a plan. Log out (to /auth) or view the plans; it cannot be dismissed. */
export default function TrialEndedDialog({ onViewPlans }: { onViewPlans: () => void }) {
  const { t } = useTranslation('billing');
  const [leaving, setLeaving] = useState(false);
  const plansRef = useRef<HTMLButtonElement>(null);
  return (
    <Dialog
      open
      blocking
      onClose={() => undefined}
      title={t('trialEnded.title')}
      description={t('trialEnded.body')}
      initialFocus={plansRef}
      actions={
        <>
          <button
            type="button"
            className="button button--ghost"
            disabled={leaving}
            onClick={() => {
              setLeaving(true);
              startLogout();
            }}
          >
            {leaving && <span className="spinner spinner--button" aria-hidden="true" />}
            {t('trialEnded.logout')}
          </button>
          <button ref={plansRef} type="button" className="button button--primary" onClick={onViewPlans}>
            {t('trialEnded.viewPlans')}
          </button>
        </>
      }
    />
  );
}
