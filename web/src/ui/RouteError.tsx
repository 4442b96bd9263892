import { isRouteErrorResponse, useRouteError } from 'react-router-dom';
import { useTranslation } from 'react-i18next';

import { LogoMark } from './Logo';

/** The text to show for whatever a loader, action or render threw. */
export function describeRouteError(error: unknown): string {
  if (isRouteErrorResponse(error)) return error.statusText || String(error.status);
  if (error instanceof Error) return error.message;
  if (typeof error === 'string') return error;
  return '';
}

/** The router's error page (docs/product.md §8): "Unexpected Application Error!" plus the status text or message. */
export function RouteError() {
  const error = useRouteError();
  const { t } = useTranslation();
  const detail = describeRouteError(error);
  return (
    <main className="route-error" role="alert">
      <LogoMark size={48} />
      <h1 className="route-error__title">Unexpected Application Error!</h1>
      {detail && <p className="route-error__detail">{detail}</p>}
      <a className="button button--primary" href="/">
        {t('error.backHome')}
      </a>
    </main>
  );
}
