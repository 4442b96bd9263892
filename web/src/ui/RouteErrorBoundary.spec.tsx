import { act, render, screen } from '@testing-library/react';
import { Link, MemoryRouter, useRoutes } from 'react-router-dom';

import { initTestI18n } from '../testing/i18n';
import { RouteErrorBoundary } from './RouteError';

function Broken(): never {
  throw new Error('Failed to fetch dynamically imported module');
}

function App() {
  return useRoutes([
    { path: '/broken', element: <Broken /> },
    { path: '/fine', element: <p>fine page</p> },
  ]);
}

beforeAll(async () => {
  await initTestI18n('en');
});

describe('RouteErrorBoundary (the root route errorElement of the data router)', () => {
  it('shows the error page for what a page throws, and the routes again after a navigation', () => {
    const logged = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    render(
      <MemoryRouter initialEntries={['/broken']}>
        <nav>
          <Link to="/fine">to the fine page</Link>
        </nav>
        <RouteErrorBoundary>
          <App />
        </RouteErrorBoundary>
      </MemoryRouter>,
    );
    expect(screen.getByRole('alert')).toHaveTextContent('Unexpected Application Error!');
    expect(screen.getByRole('alert')).toHaveTextContent('Failed to fetch dynamically imported module');
    expect(logged).toHaveBeenCalledWith('React Router caught the following error during render', expect.any(Error));

    act(() => screen.getByRole('link', { name: 'to the fine page' }).click());
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.getByText('fine page')).toBeInTheDocument();
    logged.mockRestore();
  });
});
