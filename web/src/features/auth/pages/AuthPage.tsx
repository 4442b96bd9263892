import { RESEND_COOLDOWN_SECONDS } from '@sparks/contracts/rules';
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router-dom';

import { isApiError } from '../../../api/client';
import { toLanguage } from '../../../i18n';
import { useNavigate, useSearchParams } from '../../../lib/router';
import { exchangeToken, sendCode } from '../api';
import { ConfirmCodeStep } from '../components/ConfirmCodeStep';
import { FormAlert } from '../components/FormAlert';
import { LoginForm } from '../components/LoginForm';
import { RegisterForm } from '../components/RegisterForm';
import { SocialSignIn } from '../components/SocialSignIn';
import { mapApiError, secondsIn, type Message } from '../errors';
import { useMessageText } from '../hooks/useMessageText';
import { startSession } from '../session';
import '../auth.css';

type Tab = 'login' | 'register';
const TABS: readonly Tab[] = ['login', 'register'];

interface Verification {
  email: string;
  /** The password typed at sign-up or login, in memory only (never in the history entry). */
  password?: string;
  from: Tab;
  cooldown: number;
  notice: Message | null;
}

/**
 * The code step is kept in the page's history entry, so that a reload (or Back onto it) still asks for the code: the
 * account exists by then, and the register form could only answer "already registered". The countdown starts over;
 * the server still refuses a code sent too soon.
 */
const VERIFICATION_STATE = 'sparksVerification';

function storedVerification(state: unknown): Verification | null {
  const stored = (state as Record<string, unknown> | null)?.[VERIFICATION_STATE] as
    { email?: unknown; from?: unknown; cooldown?: unknown } | undefined;
  if (!stored || typeof stored.email !== 'string' || !TABS.includes(stored.from as Tab)) return null;
  const cooldown = typeof stored.cooldown === 'number' ? stored.cooldown : RESEND_COOLDOWN_SECONDS;
  return { email: stored.email, from: stored.from as Tab, cooldown, notice: null };
}

/**
 * /auth (docs/product.md §2, §4): login and register tabs chosen by the hash (#login, default, or #register), the
 * confirm-code step inside the same screen, Google sign-in and its return (`?token=` or `?error=google`).
 */
export default function AuthPage() {
  const { t, i18n } = useTranslation('auth');
  const text = useMessageText();
  const location = useLocation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const tab: Tab = location.hash === '#register' ? 'register' : 'login';
  const tabRefs = useRef<Partial<Record<Tab, HTMLButtonElement | null>>>({});

  const googleToken = params.get('token');
  const [exchanging, setExchanging] = useState(Boolean(googleToken));
  const [alert, setAlert] = useState<Message | null>(() =>
    params.get('error') === 'google' ? { key: 'errors.GOOGLE_FAILED' } : null,
  );
  const [verification, setVerificationState] = useState<Verification | null>(() => storedVerification(location.state));
  const exchangeStarted = useRef(false);
  /** An e-mail for the login form, from the code step's "Log in" (a new object each time, so it is applied again). */
  const [loginEmail, setLoginEmail] = useState<{ email: string } | null>(null);

  // Back from Google: trade the one-time token for the session (once, even under StrictMode's double effects).
  useEffect(() => {
    if (!googleToken || exchangeStarted.current) return;
    exchangeStarted.current = true;
    exchangeToken(googleToken)
      .then((tokens) => {
        startSession(tokens);
        void navigate('/', { replace: true });
      })
      .catch(() => {
        // docs/product.md §8: a failed token exchange shows the not-verified message.
        setAlert({ key: 'errors.GOOGLE_EXCHANGE_FAILED' });
        setExchanging(false);
        void navigate({ pathname: '/auth', hash: location.hash }, { replace: true });
      });
  }, [googleToken, navigate, location.hash]);

  /** Opens (or, with null, leaves) the code step, and keeps it in the history entry. */
  function setVerification(next: Verification | null) {
    setVerificationState(next);
    if (next) {
      const state = { [VERIFICATION_STATE]: { email: next.email, from: next.from, cooldown: next.cooldown } };
      void navigate(
        { pathname: location.pathname, search: location.search, hash: location.hash },
        { replace: true, state },
      );
    }
  }

  function selectTab(next: Tab, focus = false) {
    setAlert(null);
    void navigate({ pathname: location.pathname, search: location.search, hash: next }, { replace: true });
    if (focus) tabRefs.current[next]?.focus();
  }

  function onTabKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const index = TABS.indexOf(tab);
    const next =
      event.key === 'ArrowRight'
        ? TABS[(index + 1) % TABS.length]
        : event.key === 'ArrowLeft'
          ? TABS[(index + TABS.length - 1) % TABS.length]
          : event.key === 'Home'
            ? TABS[0]
            : event.key === 'End'
              ? TABS[TABS.length - 1]
              : null;
    if (!next) return;
    event.preventDefault();
    selectTab(next, true);
  }

  /** Login's "verify now": send a code (a recent one keeps its countdown) and open the confirm step. */
  async function verifyLater(email: string, password: string) {
    let cooldown = RESEND_COOLDOWN_SECONDS;
    let notice: Message | null = null;
    try {
      cooldown = (await sendCode(email)).cooldownSeconds || RESEND_COOLDOWN_SECONDS;
    } catch (error) {
      if (isApiError(error) && error.hasCode('RESEND_TOO_SOON')) {
        cooldown = secondsIn(error.message) ?? RESEND_COOLDOWN_SECONDS;
      } else {
        cooldown = 0;
        notice = mapApiError(error, {}).form[0] ?? null;
      }
    }
    setAlert(null);
    setVerification({ email, password, from: 'login', cooldown, notice });
  }

  if (exchanging) {
    return (
      <div className="auth-page">
        <div className="page-loading" role="status" aria-live="polite">
          <span className="spinner" aria-hidden="true" />
          <span>{t('social.exchanging')}</span>
        </div>
      </div>
    );
  }

  return (
    <div className="auth-page">
      <header className="auth-page__header">
        <h1 className="auth-page__title">{t('title')}</h1>
        <p className="auth-page__subtitle">{t('subtitle')}</p>
      </header>

      {alert && <FormAlert>{text(alert)}</FormAlert>}

      {verification ? (
        <ConfirmCodeStep
          key={verification.email}
          email={verification.email}
          password={verification.password}
          cooldown={verification.cooldown}
          notice={verification.notice}
          onBack={() => {
            const from = verification.from;
            setVerification(null);
            selectTab(from);
            // The tabs are visible again on the next render; put the keyboard back on the chosen one.
            window.setTimeout(() => tabRefs.current[from]?.focus());
          }}
          onLogIn={() => {
            setLoginEmail({ email: verification.email });
            setVerification(null);
            selectTab('login');
          }}
        />
      ) : null}

      <div hidden={verification !== null}>
        <div className="tabs" role="tablist" aria-label={t('tabs.label')} onKeyDown={onTabKeyDown}>
          {TABS.map((name) => (
            <button
              key={name}
              ref={(element) => {
                tabRefs.current[name] = element;
              }}
              type="button"
              role="tab"
              id={`auth-tab-${name}`}
              className="tabs__tab"
              aria-selected={tab === name}
              aria-controls={`auth-panel-${name}`}
              tabIndex={tab === name ? 0 : -1}
              onClick={() => selectTab(name)}
            >
              {t(`tabs.${name}`)}
            </button>
          ))}
        </div>
        {/* Both panels stay mounted, so switching tabs (or coming back from the code step) keeps what was typed. */}
        <div role="tabpanel" id="auth-panel-login" aria-labelledby="auth-tab-login" hidden={tab !== 'login'}>
          <LoginForm onVerify={verifyLater} prefill={loginEmail} shown={tab === 'login' && verification === null} />
        </div>
        <div role="tabpanel" id="auth-panel-register" aria-labelledby="auth-tab-register" hidden={tab !== 'register'}>
          <RegisterForm
            language={toLanguage(i18n.resolvedLanguage ?? i18n.language)}
            onRegistered={(email, password) =>
              setVerification({ email, password, from: 'register', cooldown: RESEND_COOLDOWN_SECONDS, notice: null })
            }
          />
        </div>
        <SocialSignIn onError={setAlert} />
      </div>
    </div>
  );
}
