import { useEffect } from 'react';

import { CloseIcon } from '../../../ui/icons';
import { useTestsT } from '../i18n';

export interface ToastProps {
  message: string | null;
  tone?: 'success' | 'error';
  onDismiss: () => void;
  /** How long it stays (ms). */
  duration?: number;
}

/** A short notice at the bottom of the screen ("Thanks, we recorded it"), announced politely, gone after 4 s. */
export function Toast({ message, tone = 'success', onDismiss, duration = 4000 }: ToastProps) {
  const t = useTestsT();
  useEffect(() => {
    if (!message) return;
    const timer = setTimeout(onDismiss, duration);
    return () => clearTimeout(timer);
  }, [message, duration, onDismiss]);

  return (
    <div className="test-toast-region" role="status" aria-live="polite">
      {message && (
        <div className={`test-toast test-toast--${tone}`}>
          <span className="test-toast__text">{message}</span>
          <button type="button" className="test-toast__close" aria-label={t('toast.close')} onClick={onDismiss}>
            <CloseIcon size={16} />
          </button>
        </div>
      )}
    </div>
  );
}
