import { useTranslation } from 'react-i18next';

import { APP_VERSION, BRAND_NAME } from '../version';

/** The footer with the tagline and the version line ("v1.0.12"). */
export function AppFooter() {
  const { t } = useTranslation();
  return (
    <footer className="app-footer">
      <span className="app-footer__tagline">
        {BRAND_NAME} · {t('app.tagline')}
      </span>
      <span className="app-footer__version" title={`${t('footer.version')} ${APP_VERSION}`}>
        v{APP_VERSION}
      </span>
    </footer>
  );
}
