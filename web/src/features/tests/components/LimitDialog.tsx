import { useRef } from 'react';

import { Dialog } from '../../../ui/Dialog';
import { useTestsT } from '../i18n';

/** docs/product.md §5/§8: the alert of a sixth test, "You can't add more than 5 tests". */
export function LimitDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const t = useTestsT();
  const okRef = useRef<HTMLButtonElement>(null);
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={t('limit.title')}
      description={t('limit.message')}
      initialFocus={okRef}
    >
      <div className="dialog__actions">
        <button ref={okRef} type="button" className="button button--primary" onClick={onClose}>
          {t('limit.ok')}
        </button>
      </div>
    </Dialog>
  );
}
