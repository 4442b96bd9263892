import { useRef } from 'react';
import { useTranslation } from 'react-i18next';

import { Dialog } from '../../../ui/Dialog';

/**
 * `?showPlans=true` (docs/product.md §2) opens the plans view on the current path. Until billing lands this is a plain
 * notice saying so: nothing is offered for sale.
 */
export default function PlansNoticeDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation('layout');
  const closeRef = useRef<HTMLButtonElement>(null);
  return (
    <Dialog
      open
      onClose={onClose}
      title={t('plans.title')}
      description={t('plans.body')}
      initialFocus={closeRef}
      actions={
        <button ref={closeRef} type="button" className="button button--primary" onClick={onClose}>
          {t('plans.close')}
        </button>
      }
    />
  );
}
