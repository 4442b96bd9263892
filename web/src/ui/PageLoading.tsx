import { useTranslation } from 'react-i18next';

/** Suspense fallback while a page's chunk loads. */
export function PageLoading() {
  const { t } = useTranslation();
  return (
    <div className="page-loading" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      <span>{t('app.loading')}</span>
    </div>
  );
}

/**
 * Shown before the translations have arrived (so it has no words): the brand mark, pulsing.
 * Rendered by the outermost Suspense boundary in main.tsx.
 */
export function BootScreen() {
  return (
    <div className="boot-screen" aria-busy="true">
      <span className="boot-screen__mark spinner" aria-hidden="true" />
    </div>
  );
}
