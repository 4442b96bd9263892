import { Suspense } from 'react';
import { NavLink, Outlet } from 'react-router-dom';
import { useTranslation } from 'react-i18next';

import { AppFooter } from '../ui/AppFooter';
import { AppHeader } from '../ui/AppHeader';
import { LogoutButton } from '../ui/LogoutButton';
import { PageLoading } from '../ui/PageLoading';
import { SIDEBAR_LINKS } from './navigation';

/**
 * The signed-in layout (the spec's catch-all): header, a sidebar with the main menu and the page.
 * Below 1140 px the sidebar turns into a scrollable strip above the page.
 */
export function MainLayout() {
  const { t } = useTranslation();
  return (
    <div className="shell shell--main">
      <AppHeader>
        <LogoutButton />
      </AppHeader>
      <div className="main-layout">
        <nav className="sidebar" aria-label={t('nav.label')}>
          <ul className="sidebar__list">
            {SIDEBAR_LINKS.map((link) => (
              <li key={link.path}>
                <NavLink
                  to={link.path}
                  end={link.end}
                  className={({ isActive }) => (isActive ? 'sidebar__link sidebar__link--active' : 'sidebar__link')}
                >
                  {t(link.labelKey)}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <main className="main-content" id="main">
          <Suspense fallback={<PageLoading />}>
            <Outlet />
          </Suspense>
        </main>
      </div>
      <AppFooter />
    </div>
  );
}
