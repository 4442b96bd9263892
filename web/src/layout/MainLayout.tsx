import { Suspense, lazy, useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation } from 'react-router-dom';
import { SWRConfig, type SWRConfiguration } from 'swr';

import { isApiError } from '../api/client';
import { chatModeForPath, setChatMode } from '../features/sparks/chatMode';
import { isInactive } from '../features/profile/profile';
import { useProfile } from '../features/profile/useProfile';
import { AppFooter } from '../ui/AppFooter';
import { AppHeader } from '../ui/AppHeader';
import { MenuIcon } from '../ui/icons';
import { PageLoading } from '../ui/PageLoading';
import { Sidebar } from './Sidebar';
import { useQueryFlags } from './useQueryFlags';
import { MOBILE_QUERY, useMediaQuery } from './useMediaQuery';
import '../ui/ui.css';
import './layout.css';

const InactiveTenantDialog = lazy(() => import('./InactiveTenantDialog'));
const PlansNoticeDialog = lazy(() => import('../features/billing/components/PlansNoticeDialog'));

/** Client errors (a 404, a refused request) are not retried; server and network failures are, a few times. */
export const SWR_OPTIONS: SWRConfiguration = {
  onErrorRetry(error, _key, _config, revalidate, { retryCount }) {
    if (isApiError(error) && error.status !== undefined && error.status < 500) return;
    if (retryCount >= 3) return;
    setTimeout(() => void revalidate({ retryCount }), 2000 * 2 ** retryCount);
  },
};

/** The account-wide dialogs: the inactive-tenant modal and the plans view of `?showPlans=true`. */
function AccountDialogs() {
  const { data: profile } = useProfile();
  const { showPlans, clear } = useQueryFlags();
  if (isInactive(profile))
    return (
      <Suspense fallback={null}>
        <InactiveTenantDialog />
      </Suspense>
    );
  if (showPlans)
    return (
      <Suspense fallback={null}>
        <PlansNoticeDialog onClose={() => clear('showPlans')} />
      </Suspense>
    );
  return null;
}

/** Opening a page sets the chat mode of spec §4 (system page → Menu, Spark → Normal, test → Test). */
function useChatModeOfPage(pathname: string) {
  useEffect(() => {
    const mode = chatModeForPath(pathname);
    if (mode) setChatMode(mode);
  }, [pathname]);
}

/**
 * The signed-in layout (the spec's catch-all): the header with the logo and the language switcher, the left
 * sidebar (Menu and Profile dropdowns, pinned and recent Sparks) and the page. Below 1140 px the sidebar is a
 * drawer opened from the header.
 */
export default function MainLayout() {
  const { t } = useTranslation('layout');
  const { pathname } = useLocation();
  const mobile = useMediaQuery(MOBILE_QUERY);
  const [drawerOpen, setDrawerOpen] = useState(false);
  const toggleRef = useRef<HTMLButtonElement>(null);
  useChatModeOfPage(pathname);

  // A page opened from the drawer closes it.
  useEffect(() => setDrawerOpen(false), [pathname]);

  const closeDrawer = useCallback(() => {
    setDrawerOpen(false);
    toggleRef.current?.focus();
  }, []);

  return (
    <SWRConfig value={SWR_OPTIONS}>
      <div className="shell shell--main">
        <AppHeader
          start={
            mobile && (
              <button
                ref={toggleRef}
                type="button"
                className="icon-button header-menu-toggle"
                aria-label={t(drawerOpen ? 'sidebar.close' : 'sidebar.open')}
                title={t(drawerOpen ? 'sidebar.close' : 'sidebar.open')}
                aria-expanded={drawerOpen}
                aria-controls="app-sidebar"
                onClick={() => setDrawerOpen((open) => !open)}
              >
                <MenuIcon />
              </button>
            )
          }
        />
        <div className="main-layout">
          <Sidebar id="app-sidebar" mobile={mobile} open={drawerOpen} onClose={closeDrawer} />
          {mobile && drawerOpen && <div className="sidebar-backdrop" aria-hidden="true" onClick={closeDrawer} />}
          <main className="main-content" id="main">
            <Suspense fallback={<PageLoading />}>
              <Outlet />
            </Suspense>
          </main>
        </div>
        <AppFooter />
        <AccountDialogs />
      </div>
    </SWRConfig>
  );
}
