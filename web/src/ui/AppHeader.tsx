import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';

import type { Language } from '../i18n';
import { LanguageSwitcher } from './LanguageSwitcher';
import { Logo } from './Logo';

/**
 * The shell header shared by the public pages and the main layout: logo (home link), language switcher and,
 * on signed-in screens, the actions passed in (log out). `start` goes before the logo (the mobile menu button).
 * `onLanguageChange` replaces the switch's own change (signed in: the account's language).
 */
export function AppHeader({
  children,
  start,
  onLanguageChange,
}: {
  children?: ReactNode;
  start?: ReactNode;
  onLanguageChange?: (language: Language) => void;
}) {
  const { t } = useTranslation();
  return (
    <header className="app-header">
      {start}
      <Link to="/" className="app-header__brand" aria-label={t('app.home')}>
        <Logo />
      </Link>
      <div className="app-header__actions">
        <LanguageSwitcher onChange={onLanguageChange} />
        {children}
      </div>
    </header>
  );
}
