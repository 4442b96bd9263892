import { StrictMode, Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router-dom';

import { initI18n } from './i18n';
import { routes } from './routes';
import { BootScreen } from './ui/PageLoading';
import './styles.css';

void initI18n();

const router = createBrowserRouter(routes);

const container = document.getElementById('root');
if (!container) throw new Error('#root is missing from index.html');

createRoot(container).render(
  <StrictMode>
    <Suspense fallback={<BootScreen />}>
      <RouterProvider router={router} />
    </Suspense>
  </StrictMode>,
);
