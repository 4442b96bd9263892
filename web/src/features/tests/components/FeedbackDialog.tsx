import { useRef } from 'react';

import { Dialog } from '../../../ui/Dialog';
import { useTestsT } from '../i18n';

export interface FeedbackDialogProps {
  open: boolean;
  onClose: () => void;
  /** Yes (true) or No (false). */
  onAnswer: (satisfactory: boolean) => void;
  /** An answer is being processed: the buttons wait. */
  busy?: boolean;
  failed?: boolean;
}

/** docs/product.md §2/§4 test-satisfaction prompt: "Was the test OK?" with Yes and No (and a way back to the test). */
export function FeedbackDialog({ open, onClose, onAnswer, busy = false, failed = false }: FeedbackDialogProps) {
  const t = useTestsT();
  const yesRef = useRef<HTMLButtonElement>(null);
  return (
    <Dialog
      open={open}
      onClose={() => {
        if (!busy) onClose();
      }}
      title={t('feedback.title')}
      description={t('feedback.body')}
      initialFocus={yesRef}
    >
      {failed && (
        <p className="dialog__error" role="alert">
          {t('feedback.failed')}
        </p>
      )}
      <div className="dialog__actions test-feedback__actions">
        <button type="button" className="button button--ghost" onClick={onClose} disabled={busy}>
          {t('feedback.cancel')}
        </button>
        <button type="button" className="button button--secondary" onClick={() => onAnswer(false)} disabled={busy}>
          {t('feedback.no')}
        </button>
        <button
          ref={yesRef}
          type="button"
          className="button button--primary"
          onClick={() => onAnswer(true)}
          disabled={busy}
          aria-busy={busy || undefined}
        >
          {busy && <span className="spinner spinner--button" aria-hidden="true" />}
          {t('feedback.yes')}
        </button>
      </div>
    </Dialog>
  );
}
