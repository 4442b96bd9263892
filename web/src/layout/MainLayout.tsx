import { Suspense, lazy, useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation } from 'react-router-dom';
import { SWRConfig, type SWRConfiguration } from 'swr';

import { useAccountInactiveReported } from '../api/accountInactive';
import { isApiError } from '../api/client';
import { planUsedUp, trialEnded } from '../features/billing/billing';
import { CheckoutNotice } from '../features/billing/components/CheckoutNotice';
import { useBillingDialogs } from '../features/account/billingDialogs';
import { useOpenPlans } from '../features/account/useOpenPlans';
import { chatModeForPath, setChatMode } from '../features/sparks/chatMode';
import { opensDrawer, useTourPanel } from '../features/onboarding/tour/tourPanels';
import { useTour } from '../features/onboarding/tour/useTour';
import { isInactive } from '../features/account/profile';
import { useAccountLanguage } from '../features/account/useAccountLanguage';
import { useAccountTimeZone } from '../features/account/useAccountTimeZone';
import { useProfile } from '../features/account/useProfile';
import { useNavigate } from '../lib/router';
import { useQueryFlags } from '../lib/useQueryFlags';
import { AppFooter } from '../ui/AppFooter';
import { AppHeader } from '../ui/AppHeader';
import { MenuIcon } from '../ui/icons';
import { PageLoading } from '../ui/PageLoading';
import { MOBILE_QUERY, useMediaQuery } from '../ui/useMediaQuery';
import { FloatingButtons } from './FloatingButtons';
import { Sidebar } from './Sidebar';
import { useStoreReset } from './useStoreReset';
import '../ui/ui.css';
import './layout.css';

const InactiveTenantDialog = lazy(() => import('./InactiveTenantDialog'));
const BillingDialogs = lazy(() => import('../features/billing/components/BillingDialogs'));
const Tour = lazy(() => import('../features/onboarding/tour/Tour'));

/** Client errors (a 404, a refused request) are not retried; server and network failures are, a few times. */
const SWR_OPTIONS: SWRConfiguration = {
  onErrorRetry(error, _key, _config, revalidate, { retryCount }) {
    if (isApiError(error) && error.status !== undefined && error.status < 500) return;
    if (retryCount >= 3) return;
    setTimeout(() => void revalidate({ retryCount }), 2000 * 2 ** retryCount);
  },
};

/**
 * The account-wide dialogs: the inactive-tenant modal (the profile's first tenant is inactive, or a call of this
 * page answered 403 ACCOUNT_INACTIVE because the account was disabled since), then the billing ones (the plans view
 * of `?showPlans=true`, the trial-ended popup, the credit packs, the out-of-interactions modal), whose code loads
 * only when one may show.
 */
function AccountDialogs() {
  const { data: profile } = useProfile();
  const inactiveReported = useAccountInactiveReported();
  const { showPlans, showCredits, clear } = useQueryFlags();
  const billing = useBillingDialogs();
  const openPlans = useOpenPlans();
  if (isInactive(profile) || inactiveReported)
    return (
      <Suspense fallback={null}>
        <InactiveTenantDialog />
      </Suspense>
    );
  if (showPlans || showCredits || billing.open !== null || trialEnded(profile) || planUsedUp(profile))
    return (
      <Suspense fallback={null}>
        <BillingDialogs
          showPlans={showPlans}
          showCredits={showCredits}
          openPlans={openPlans}
          closePlans={() => clear('showPlans')}
          closeCredits={() => clear('showCredits')}
        />
      </Suspense>
    );
  return null;
}

/** Opening a page sets the chat mode of docs/product.md §4 (system page → Menu, Spark → Normal, test → Test). */
function useChatModeOfPage(pathname: string) {
  useEffect(() => {
    const mode = chatModeForPath(pathname);
    if (mode) setChatMode(mode);
  }, [pathname]);
}

/**
 * The signed-in layout (the spec's catch-all): the header with the logo and the language switcher, the left
 * sidebar (Menu and Profile dropdowns, pinned and recent Sparks) and the page. Below 1140 px the sidebar is a
 * drawer opened from the header, the page's chat fills the screen and floating buttons lead to the main chat and
 * to a new Spark; `mainChat=true` closes whatever covers the main chat and opens it.
 */
export default function MainLayout() {
  const { t } = useTranslation('layout');
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const mobile = useMediaQuery(MOBILE_QUERY);
  const [drawerOpen, setDrawerOpen] = useState(false);
  const toggleRef = useRef<HTMLButtonElement>(null);
  const tourPanel = useTourPanel();
  const flags = useQueryFlags();
  const { mainChat, clear } = flags;
  const tour = useTour(mobile, flags);
  useChatModeOfPage(pathname);
  useStoreReset();
  const chooseLanguage = useAccountLanguage();
  useAccountTimeZone();

  // A page opened from the drawer closes it.
  useEffect(() => setDrawerOpen(false), [pathname]);

  // `mainChat=true`: the main chat, with the drawer closed.
  useEffect(() => {
    if (!mainChat) return;
    setDrawerOpen(false);
    if (pathname === '/') clear('mainChat');
    else void navigate('/', { replace: true });
  }, [mainChat, pathname, clear, navigate]);

  const closeDrawer = useCallback(() => {
    setDrawerOpen(false);
    toggleRef.current?.focus();
  }, []);

  // The mobile tutorial panels of the tour hold the drawer open (or closed) whatever the user pressed.
  const drawerShown = mobile && (tourPanel ? opensDrawer(tourPanel) : drawerOpen);

  return (
    <SWRConfig value={SWR_OPTIONS}>
      <div className="shell shell--main">
        <AppHeader
          onLanguageChange={chooseLanguage}
          start={
            mobile && (
              // The tour highlights this wrapper, not the button (driver.js rewrites the ARIA of what it highlights).
              <span className="header-menu-toggle-slot">
                <button
                  ref={toggleRef}
                  type="button"
                  className="icon-button header-menu-toggle"
                  aria-label={t(drawerShown ? 'sidebar.close' : 'sidebar.open')}
                  title={t(drawerShown ? 'sidebar.close' : 'sidebar.open')}
                  aria-expanded={drawerShown}
                  aria-controls="app-sidebar"
                  onClick={() => setDrawerOpen((open) => !open)}
                >
                  <MenuIcon />
                </button>
              </span>
            )
          }
        />
        <div className="main-layout">
          <Sidebar id="app-sidebar" mobile={mobile} open={drawerShown} onClose={closeDrawer} />
          {drawerShown && <div className="sidebar-backdrop" aria-hidden="true" onClick={closeDrawer} />}
          <main className="main-content" id="main">
            <CheckoutNotice />
            <Suspense fallback={<PageLoading />}>
              <Outlet />
            </Suspense>
          </main>
          {mobile && !drawerShown && <FloatingButtons forced={tour.step?.floatingButtons ?? false} />}
        </div>
        <AppFooter />
        <AccountDialogs />
        {tour.kind && (
          <Suspense fallback={null}>
            <Tour kind={tour.kind} onEnd={tour.end} onStep={tour.setStep} />
          </Suspense>
        )}
      </div>
    </SWRConfig>
  );
}
