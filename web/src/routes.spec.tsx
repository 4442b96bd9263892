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
// The chats are tested on their own.
jest.mock('./features/chat/components/ChatPanel', () => ({
  ChatPanel: ({ target }: { target: { kind: string } }) => <div data-testid={`chat-${target.kind}`} />,
}));
// The signed-in layout reads the profile and the Sparks; the Spark page reads its Spark.
jest.mock('./api/client', () => ({
  api: {
    get: jest.fn((url: string) =>
      url === '/account/profile'
        ? Promise.resolve({
            username: 'ana@example.com',
            firstname: 'Ana',
            lastname: 'García',
            tenants: [
              {
                status: 'active',
                subscription: { productName: 'Free Plan', limits: { deployments: { value: 0 } } },
                trial: { daysLeft: 15, active: true },
              },
            ],
          })
        : url === '/sparks/s1'
          ? Promise.resolve({ _id: 's1', sparkId: 's1', name: 'Bakery bot', pin: false, type: 'DOC' })
          : url === '/sparks/s1/documents/d1/pages'
            ? Promise.resolve({
                document: { _id: 'd1', name: 'menu.pdf', title: 'Menu', status: 'completed', pages: 1, source: null },
                emptyPages: [],
                total: 1,
                pages: [{ page: 1, text: 'Bread 2 euros', noText: false, littleText: false }],
              })
            : Promise.resolve([]),
    ),
    axios: {
      get: jest.fn(() => Promise.resolve({ data: { data: [], meta: { total: 0, page: 1, limit: 4 }, progress: 0 } })),
    },
    post: jest.fn(() => Promise.resolve({})),
    patch: jest.fn(() => Promise.resolve({})),
    delete: jest.fn(() => Promise.resolve({})),
    fetch: jest.fn(() => Promise.reject(new Error('no network in jsdom'))),
    endSession: jest.fn(),
  },
  isApiError: () => false,
}));

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
      const nav = await screen.findByRole('navigation', { name: 'Main menu' });
      expect(within(nav).getByRole('button', { name: 'Menu' })).toBeInTheDocument();
      expect(await within(nav).findByRole('button', { name: 'Profile and account: Ana García' })).toBeInTheDocument();
      expect(screen.getByRole('navigation', { name: 'Your Sparks' })).toBeInTheDocument();
      expect(screen.getByText('v1.0.12')).toBeInTheDocument();
      expect(screen.getByTestId('path')).toHaveTextContent(/^\/$/);
    });

    it.each([
      ['/onBoarding', /^Welcome to Sparks/],
      ['/onboarding', /^Welcome to Sparks/],
      ['/spark/s1', 'Bakery bot'],
      ['/settings', 'Settings'],
      ['/billing', 'Billing'],
      ['/deploy', 'Deploy'],
      ['/profile', 'Profile'],
      ['/spark/s1/documents/d1?page=1', 'Menu'],
    ])('%s shows "%s"', async (path, title) => {
      renderAt(path);
      expect(await screen.findByRole('heading', { level: 1, name: title })).toBeInTheDocument();
      expect(screen.getByTestId('path')).toHaveTextContent(path.split('?')[0]);
    });

    it.each(['/spark/onboarding', '/spark/s1/test/t9', '/mobile-test/s1/t9', '/new-spark'])(
      '%s opens inside the main layout',
      async (path) => {
        renderAt(path);
        expect(await screen.findByRole('navigation', { name: 'Main menu' })).toBeInTheDocument();
        expect(screen.getByTestId('path')).toHaveTextContent(path);
        expect(screen.queryByRole('heading', { name: 'Page not found' })).not.toBeInTheDocument();
      },
    );

    it('offers "Log out" in the header of /onBoarding and in the profile dropdown of the main layout', async () => {
      renderAt('/onBoarding');
      await screen.findByRole('heading', { level: 1 });
      expect(screen.getByRole('button', { name: 'Log out' })).toBeInTheDocument();
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
    const spanish = within(group).getByRole('button', { name: 'ES (Español)' });
    expect(spanish).toHaveAttribute('aria-pressed', 'false');

    await act(async () => {
      fireEvent.click(spanish);
      await new Promise((resolve) => setTimeout(resolve, 0));
    });

    expect(await screen.findByRole('heading', { name: 'Te damos la bienvenida a Sparks' })).toBeInTheDocument();
    expect(screen.getByRole('group', { name: 'Idioma' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'ES (Español)' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByRole('button', { name: 'EN (English)' })).toHaveAttribute('aria-pressed', 'false');
    expect(document.documentElement.lang).toBe('es');
  });
});
