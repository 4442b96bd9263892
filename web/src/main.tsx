import { StrictMode, Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter, useRoutes } from 'react-router-dom';

import { initI18n } from './i18n';
import { routes } from './routes';
import { BootScreen } from './ui/PageLoading';
import { RouteErrorBoundary } from './ui/RouteError';
import './styles.css';

void initI18n();

/**
 * The routes, rendered by the declarative router: the app has no loader, action or fetcher, so the data router
 * (`createBrowserRouter`, about 16 kB gzip of every first load) is left out. Its two observable rules are kept:
 * the error page for whatever a page throws while rendering (RouteErrorBoundary, once the root route's
 * `errorElement`) and a `navigate` that keeps its identity (src/lib/router.ts).
 */
function AppRoutes() {
  return useRoutes(routes);
}

const container = document.getElementById('root');
if (!container) throw new Error('#root is missing from index.html');

createRoot(container).render(
  <StrictMode>
    <Suspense fallback={<BootScreen />}>
      <BrowserRouter>
        <RouteErrorBoundary>
          <AppRoutes />
        </RouteErrorBoundary>
      </BrowserRouter>
    </Suspense>
  </StrictMode>,
);
