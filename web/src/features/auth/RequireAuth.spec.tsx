import { fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation, useNavigate } from 'react-router-dom';

import { RequireAuth } from './RequireAuth';
import { ACCESS_TOKEN_KEY } from './tokens';

function CurrentPath() {
  return <p data-testid="path">{useLocation().pathname}</p>;
}

function renderAt(path: string, redirectTo?: string) {
  return render(
    <MemoryRouter initialEntries={['/start', path]} initialIndex={1}>
      <Routes>
        <Route
          path="/private"
          element={
            <RequireAuth redirectTo={redirectTo}>
              <p>secret content</p>
            </RequireAuth>
          }
        />
        <Route path="/guarded" element={<RequireAuth />}>
          <Route index element={<p>outlet content</p>} />
        </Route>
        <Route path="/auth" element={<p>auth page</p>} />
        <Route path="/login" element={<p>login page</p>} />
        <Route path="*" element={<p>other page</p>} />
      </Routes>
      <CurrentPath />
    </MemoryRouter>,
  );
}

describe('RequireAuth', () => {
  afterEach(() => localStorage.clear());

  it('renders its children when an access token is stored', () => {
    localStorage.setItem(ACCESS_TOKEN_KEY, 'token-123');
    renderAt('/private');
    expect(screen.getByText('secret content')).toBeInTheDocument();
    expect(screen.getByTestId('path')).toHaveTextContent('/private');
  });

  it('renders the matched child route when used as a layout route', () => {
    localStorage.setItem(ACCESS_TOKEN_KEY, 'token-123');
    renderAt('/guarded');
    expect(screen.getByText('outlet content')).toBeInTheDocument();
  });

  it('redirects to /auth without a token', () => {
    renderAt('/private');
    expect(screen.queryByText('secret content')).not.toBeInTheDocument();
    expect(screen.getByText('auth page')).toBeInTheDocument();
    expect(screen.getByTestId('path')).toHaveTextContent('/auth');
  });

  it('treats an empty token as no token', () => {
    localStorage.setItem(ACCESS_TOKEN_KEY, '');
    renderAt('/guarded');
    expect(screen.queryByText('outlet content')).not.toBeInTheDocument();
    expect(screen.getByText('auth page')).toBeInTheDocument();
  });

  it('redirects to the path given in redirectTo', () => {
    renderAt('/private', '/login');
    expect(screen.getByText('login page')).toBeInTheDocument();
    expect(screen.getByTestId('path')).toHaveTextContent('/login');
  });

  it('replaces the history entry, so "back" skips the protected page', () => {
    function BackButton() {
      const navigate = useNavigate();
      return (
        <button type="button" onClick={() => void navigate(-1)}>
          back
        </button>
      );
    }
    render(
      <MemoryRouter initialEntries={['/start', '/private']} initialIndex={1}>
        <Routes>
          <Route path="/private" element={<RequireAuth />} />
          <Route path="/auth" element={<BackButton />} />
          <Route path="*" element={<p>other page</p>} />
        </Routes>
        <CurrentPath />
      </MemoryRouter>,
    );
    expect(screen.getByTestId('path')).toHaveTextContent('/auth');
    fireEvent.click(screen.getByRole('button', { name: 'back' }));
    expect(screen.getByTestId('path')).toHaveTextContent('/start');
  });
});
