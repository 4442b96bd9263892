import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';

import { LanguageSwitcher } from './LanguageSwitcher';
import { Logo } from './Logo';

/** The shell header shared by the public pages and the main layout: logo (home link) and language switcher. */
export function AppHeader() {
  const { t } = useTranslation();
  return (
    <header className="app-header">
      <Link to="/" className="app-header__brand" aria-label={t('app.home')}>
        <Logo />
      </Link>
      <div className="app-header__actions">
        <LanguageSwitcher />
      </div>
    </header>
  );
}
