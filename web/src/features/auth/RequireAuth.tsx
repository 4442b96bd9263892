import type { ReactNode } from 'react';
import { Navigate, Outlet } from 'react-router-dom';

import { readAccessToken } from './tokens';

interface RequireAuthProps {
  /** Where to send visitors without a token (docs/product.md §2: `/auth`; overridable). */
  redirectTo?: string;
  /** What to protect; without children the matched child route (`<Outlet />`) is rendered. */
  children?: ReactNode;
}

/**
 * The access guard of docs/product.md §2: with a stored access token the content is shown, otherwise the visitor is
 * redirected, replacing the history entry.
 */
export function RequireAuth({ redirectTo = '/auth', children }: RequireAuthProps) {
  if (!readAccessToken()) return <Navigate to={redirectTo} replace />;
  return children ?? <Outlet />;
}
