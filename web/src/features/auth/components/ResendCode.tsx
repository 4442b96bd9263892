import { useState } from 'react';
import { useTranslation } from 'react-i18next';

interface ResendCodeProps {
  /** Seconds left before a new code may be asked for. */
  remaining: number;
  /** Sends a new code; the caller restarts the countdown and reports errors. */
  onResend: () => Promise<void>;
}

/** "Resend code", disabled with the seconds left while the 30 s cooldown runs. */
export function ResendCode({ remaining, onResend }: ResendCodeProps) {
  const { t } = useTranslation('auth');
  const [busy, setBusy] = useState(false);
  const waiting = remaining > 0;
  return (
    <button
      type="button"
      className="button button--ghost button--block"
      disabled={waiting || busy}
      aria-busy={busy || undefined}
      onClick={() => {
        setBusy(true);
        void onResend().finally(() => setBusy(false));
      }}
    >
      {busy && <span className="spinner spinner--button" aria-hidden="true" />}
      <span>{waiting ? t('verify.resendIn', { seconds: remaining }) : t('verify.resend')}</span>
    </button>
  );
}
