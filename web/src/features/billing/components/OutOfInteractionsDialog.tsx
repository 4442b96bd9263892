import { useRef } from 'react';
import { useTranslation } from 'react-i18next';

import { Dialog } from '../../../ui/Dialog';

export interface OutOfInteractionsDialogProps {
  /** The plan and its monthly interactions, when known (the modal of docs/product.md §4); absent for the prompt after a 402. */
  plan?: { name: string; limit: number };
  onBuyMore: () => void;
  onViewPlans: () => void;
  onClose: () => void;
}

/**
 * The out-of-interactions modal of docs/product.md §4 and the upgrade prompt a 402 OUT_OF_INTERACTIONS opens in a chat: the
 * plan's interactions and the purchased ones are spent; buy more (the credit-pack popup) or change plan.
 */
export default function OutOfInteractionsDialog({
  plan,
  onBuyMore,
  onViewPlans,
  onClose,
}: OutOfInteractionsDialogProps) {
  const { t } = useTranslation('billing');
  const buyRef = useRef<HTMLButtonElement>(null);
  return (
    <Dialog
      open
      onClose={onClose}
      title={t('outOfInteractions.title')}
      description={
        plan ? t('outOfInteractions.bodyPlan', { plan: plan.name, count: plan.limit }) : t('outOfInteractions.body')
      }
      initialFocus={buyRef}
      actions={
        <>
          <button type="button" className="button button--ghost" onClick={onClose}>
            {t('outOfInteractions.notNow')}
          </button>
          <button type="button" className="button button--secondary" onClick={onViewPlans}>
            {t('outOfInteractions.viewPlans')}
          </button>
          <button ref={buyRef} type="button" className="button button--primary" onClick={onBuyMore}>
            {t('outOfInteractions.buyMore')}
          </button>
        </>
      }
    />
  );
}
