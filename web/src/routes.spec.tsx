import { act, fireEvent, render, screen, within } from '@testing-library/react';
import i18next from 'i18next';
import { Suspense } from 'react';
import { MemoryRouter, useLocation, useRoutes } from 'react-router-dom';

import * as authApi from './features/auth/api';
import { ACCESS_TOKEN_KEY } from './features/auth/tokens';
import { routes } from './routes';
import { initTestI18n } from './testing/i18n';

// The auth screens ask the server which providers exist; no network in jsdom.
jest.mock('./features/auth/api');

let i18n: typeof i18next;

function CurrentPath() {
  return <p data-testid="path">{useLocation().pathname}</p>;
}

function App() {
  return useRoutes(routes);
}

function renderAt(path: string) {
  return render(
    <Suspense fallback={<p>booting</p>}>
      <MemoryRouter initialEntries={[path]}>
        <App />
        <CurrentPath />
      </MemoryRouter>
    </Suspense>,
  );
}

beforeAll(async () => {
  i18n = await initTestI18n('en');
});

beforeEach(async () => {
  jest.mocked(authApi).providers.mockResolvedValue({ google: false });
  localStorage.clear();
  await i18n.changeLanguage('en');
});

describe('routes', () => {
  it('sends a visitor without a token from / to /auth', async () => {
    renderAt('/');
    expect(await screen.findByRole('heading', { name: 'Welcome to Sparks' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Log out' })).not.toBeInTheDocument();
    expect(screen.getByTestId('path')).toHaveTextContent('/auth');
    expect(screen.getByText('v1.0.12')).toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Main menu' })).not.toBeInTheDocument();
  });

  it.each([
    ['/validate-code', 'Confirm your e-mail'],
    ['/forgot-password', 'Forgot your password?'],
    ['/reset-password?token=abc', 'Choose a new password'],
    ['/reset-password', 'This link is not complete'],
  ])('serves the public page %s without a token', async (path, title) => {
    renderAt(path);
    expect(await screen.findByRole('heading', { name: title })).toBeInTheDocument();
    expect(screen.getByTestId('path')).toHaveTextContent(path.split('?')[0]);
  });

  it('protects the onboarding tour', async () => {
    renderAt('/onboarding');
    expect(await screen.findByRole('heading', { name: 'Welcome to Sparks' })).toBeInTheDocument();
  });

  describe('signed in', () => {
    beforeEach(() => localStorage.setItem(ACCESS_TOKEN_KEY, 'token'));

    it('shows the chat home inside the main layout on /', async () => {
      renderAt('/');
      expect(await screen.findByRole('heading', { name: 'Chat' })).toBeInTheDocument();
      const nav = screen.getByRole('navigation', { name: 'Main menu' });
      expect(within(nav).getByRole('link', { name: 'Chat' })).toHaveAttribute('aria-current', 'page');
      expect(screen.getByText('v1.0.12')).toBeInTheDocument();
    });

    it.each([
      ['/onBoarding', 'Welcome tour'],
      ['/onboarding', 'Welcome tour'],
      ['/spark/onboarding', 'Spark tutorial'],
      ['/spark/s1', 'Spark chat'],
      ['/spark/s1/test/t9', 'Spark test'],
      ['/mobile-test/s1/t9', 'Mobile test'],
      ['/settings', 'Settings'],
      ['/billing', 'Billing'],
      ['/deploy', 'Deploy'],
      ['/profile', 'Profile'],
      ['/new-spark', 'New Spark'],
    ])('%s shows "%s"', async (path, title) => {
      renderAt(path);
      expect(await screen.findByRole('heading', { name: title })).toBeInTheDocument();
      expect(screen.getByTestId('path')).toHaveTextContent(path);
    });

    it.each(['/', '/onBoarding'])('offers "Log out" in the header of %s', async (path) => {
      renderAt(path);
      await screen.findByRole('heading', { level: 1 });
      expect(screen.getByRole('button', { name: 'Log out' })).toBeInTheDocument();
    });

    it('passes the route parameters to the page', async () => {
      renderAt('/spark/s1/test/t9');
      expect(await screen.findByText('Test t9 of Spark s1')).toBeInTheDocument();
    });

    it('shows "page not found" inside the layout for an unknown path', async () => {
      renderAt('/nope/deeper');
      expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
      expect(screen.getByRole('navigation', { name: 'Main menu' })).toBeInTheDocument();
      expect(screen.getByTestId('path')).toHaveTextContent('/nope/deeper');
    });
  });

  it('switches the language from the header', async () => {
    renderAt('/auth');
    await screen.findByRole('heading', { name: 'Welcome to Sparks' });
    const group = screen.getByRole('group', { name: 'Language' });
    const spanish = within(group).getByRole('button', { name: 'Español' });
    expect(spanish).toHaveAttribute('aria-pressed', 'false');

    await act(async () => {
      fireEvent.click(spanish);
      await new Promise((resolve) => setTimeout(resolve, 0));
    });

    expect(await screen.findByRole('heading', { name: 'Te damos la bienvenida a Sparks' })).toBeInTheDocument();
    expect(screen.getByRole('group', { name: 'Idioma' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Español' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByRole('button', { name: 'English' })).toHaveAttribute('aria-pressed', 'false');
    expect(document.documentElement.lang).toBe('es');
  });
});
