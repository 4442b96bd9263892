import { Component, type ErrorInfo, type ReactNode } from 'react';
import { isRouteErrorResponse, useLocation, type Location } from 'react-router-dom';
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
function RouteError({ error }: { error: unknown }) {
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

interface BoundaryProps {
  location: Location;
  children: ReactNode;
}

interface BoundaryState {
  location: Location;
  /** What a page threw while rendering (a page's chunk that failed to load, a bug); undefined while none. */
  error: unknown;
}

/**
 * What the data router's `errorElement` on the root route did, for the routes rendered with `useRoutes`
 * (src/main.tsx): whatever a page throws while rendering shows the error page instead of the app, and the next
 * navigation renders the routes again. Same rules and the same console line as react-router's boundary.
 */
class Boundary extends Component<BoundaryProps, BoundaryState> {
  constructor(props: BoundaryProps) {
    super(props);
    this.state = { location: props.location, error: undefined };
  }

  static getDerivedStateFromError(error: unknown): Partial<BoundaryState> {
    return { error };
  }

  static getDerivedStateFromProps(props: BoundaryProps, state: BoundaryState): Partial<BoundaryState> | null {
    return state.location !== props.location ? { location: props.location, error: undefined } : null;
  }

  override componentDidCatch(error: unknown, _info: ErrorInfo) {
    console.error('React Router caught the following error during render', error);
  }

  override render() {
    return this.state.error !== undefined ? <RouteError error={this.state.error} /> : this.props.children;
  }
}

/** The error boundary of the routes (see Boundary); reset by a change of location. */
export function RouteErrorBoundary({ children }: { children: ReactNode }) {
  return <Boundary location={useLocation()}>{children}</Boundary>;
}
