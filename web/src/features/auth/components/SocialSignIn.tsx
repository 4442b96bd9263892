import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { providerLoginUrl, providers } from '../api';
import { mapApiError, type Message } from '../errors';

function GoogleIcon() {
  return (
    <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
      <path
        fill="#4285F4"
        d="M22.56 12.25c0-.78-.07-1.53-.2-2.25H12v4.26h5.92a5.06 5.06 0 0 1-2.2 3.32v2.77h3.57c2.08-1.92 3.27-4.74 3.27-8.1Z"
      />
      <path
        fill="#34A853"
        d="M12 23c2.97 0 5.46-.98 7.28-2.66l-3.57-2.77c-.98.66-2.23 1.06-3.71 1.06-2.86 0-5.29-1.93-6.16-4.53H2.18v2.84A11 11 0 0 0 12 23Z"
      />
      <path fill="#FBBC05" d="M5.84 14.1a6.6 6.6 0 0 1 0-4.2V7.06H2.18a11 11 0 0 0 0 9.88l3.66-2.84Z" />
      <path
        fill="#EA4335"
        d="M12 5.38c1.62 0 3.06.56 4.21 1.64l3.15-3.15A10.6 10.6 0 0 0 12 1 11 11 0 0 0 2.18 7.06l3.66 2.84c.87-2.6 3.3-4.52 6.16-4.52Z"
      />
    </svg>
  );
}

function MicrosoftIcon() {
  return (
    <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
      <path fill="#F25022" d="M2 2h9.5v9.5H2z" />
      <path fill="#7FBA00" d="M12.5 2H22v9.5h-9.5z" />
      <path fill="#00A4EF" d="M2 12.5h9.5V22H2z" />
      <path fill="#FFB900" d="M12.5 12.5H22V22h-9.5z" />
    </svg>
  );
}

/**
 * External sign-in (docs/product.md §2): Google when the server has it configured (asked through GET /auth/providers),
 * otherwise a disabled button saying so; a second provider shown as coming soon. Disabled buttons use
 * aria-disabled so keyboard and screen-reader users can still reach them and hear why.
 */
export function SocialSignIn({ onError }: { onError: (message: Message) => void }) {
  const { t } = useTranslation('auth');
  const googleNoteId = useId();
  const microsoftNoteId = useId();
  const [google, setGoogle] = useState<boolean | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let live = true;
    providers()
      .then((answer) => live && setGoogle(answer.google === true))
      .catch(() => live && setGoogle(false));
    return () => {
      live = false;
    };
  }, []);

  const googleReady = google === true && !busy;

  async function startGoogle() {
    if (!googleReady) return;
    setBusy(true);
    try {
      const { url } = await providerLoginUrl('google');
      window.location.assign(url);
    } catch (error) {
      setBusy(false);
      const [message] = mapApiError(error, {}).form;
      if (message) onError(message);
    }
  }

  return (
    <div className="social">
      <p className="divider">
        <span>{t('social.or')}</span>
      </p>
      <button
        type="button"
        className="button button--social"
        aria-disabled={!googleReady}
        aria-busy={busy || google === null || undefined}
        aria-describedby={google === false ? googleNoteId : undefined}
        onClick={() => void startGoogle()}
      >
        {busy || google === null ? <span className="spinner spinner--button" aria-hidden="true" /> : <GoogleIcon />}
        <span className="button__stack">
          <span>{t('social.google')}</span>
          {google === false && (
            <span id={googleNoteId} className="button__note">
              {t('social.googleNotConfigured')}
            </span>
          )}
        </span>
      </button>
      <button type="button" className="button button--social" aria-disabled="true" aria-describedby={microsoftNoteId}>
        <MicrosoftIcon />
        <span className="button__stack">
          <span>{t('social.microsoft')}</span>
        </span>
        <span id={microsoftNoteId} className="badge">
          {t('social.comingSoon')}
        </span>
      </button>
    </div>
  );
}
