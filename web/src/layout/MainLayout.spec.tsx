import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import i18next from 'i18next';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { SWRConfig, useSWRConfig, type ScopedMutator } from 'swr';

import { reportAccountInactive, resetAccountInactiveReport } from '../api/accountInactive';
import { api } from '../api/client';
import { getChatMode, setChatMode } from '../features/sparks/chatMode';
import { initTestI18n } from '../testing/i18n';
import MainLayout from './MainLayout';
import { RESET_FLAG_KEY, isResetKey } from './useStoreReset';

jest.mock('../api/client', () => ({
  api: { axios: { get: jest.fn() }, get: jest.fn(), post: jest.fn(), patch: jest.fn(), delete: jest.fn() },
  isApiError: () => false,
}));
const client = jest.mocked(api);

let status: 'active' | 'inactive' = 'active';

const plan = (slug: string, productName: string, unit_amount: number, interactions: number) => ({
  priceId: `price_${slug}`,
  productId: `prod_${slug}`,
  unit_amount,
  currency: 'eur',
  interval: 'month',
  slug,
  productName,
  limits: {
    interactions: { value: interactions },
    deployments: { value: 1 },
    sparks: { value: 5 },
    documents: { value: 10 },
  },
  documentSharing: false,
  overage_unit_amount: 10,
});
const pack = (interactions: number, unit_amount: number) => ({
  _id: `prod_${interactions}`,
  productId: `prod_${interactions}`,
  priceId: `price_${interactions}`,
  name: `${interactions} ITx`,
  unit_amount,
  currency: 'usd',
  limits: { interactions: { value: interactions } },
});
const PACKS = [pack(500, 4000), pack(100, 1000), pack(250, 2250)];
const PRICES = [plan('ruby', 'Ruby', 4500, 600), plan('emeral', 'Emerald', 9000, 1500)];
let accountLanguage: 'en' | 'es' | undefined;

function Where() {
  const location = useLocation();
  return <p data-testid="where">{location.pathname + location.search}</p>;
}

/** The mutate of the test's SWR cache, as a chat reply uses it (useAfterReply reads the profile again). */
let cacheMutate: ScopedMutator;
function CacheHandle() {
  cacheMutate = useSWRConfig().mutate;
  return null;
}

function renderAt(path: string) {
  return render(
    <SWRConfig value={{ provider: () => new Map(), dedupingInterval: 0 }}>
      <CacheHandle />
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route element={<MainLayout />}>
            <Route path="*" element={<p>page</p>} />
          </Route>
        </Routes>
        <Where />
      </MemoryRouter>
    </SWRConfig>,
  );
}

let i18n: typeof i18next;
beforeAll(async () => {
  i18n = await initTestI18n('en');
});
beforeEach(async () => {
  resetAccountInactiveReport();
  status = 'active';
  accountLanguage = undefined;
  await i18n.changeLanguage('en');
  client.get.mockImplementation((url: string) =>
    Promise.resolve(
      url === '/prices'
        ? PRICES
        : url === '/billing/catalog/credits'
          ? { items: PACKS }
          : {
              username: 'ana@example.com',
              ...(accountLanguage ? { config: { language: accountLanguage } } : {}),
              firstname: 'Ana',
              lastname: '',
              tenants: [
                {
                  customerId: 'cus_1',
                  status,
                  subscription: {
                    productName: 'Ruby',
                    subscriptionId: 'sub_1',
                    limits: { deployments: { value: 1 }, interactions: { value: 600 } },
                  },
                  usage: { interactions: 0 },
                  trial: { daysLeft: 0, active: false },
                },
              ],
            },
    ),
  );
  client.axios.get.mockResolvedValue({ data: { data: [], meta: { total: 0, page: 1, limit: 4 } } });
});

describe('MainLayout', () => {
  it('blocks a disabled account with a dialog that only logs out', async () => {
    status = 'inactive';
    renderAt('/');
    const dialog = await screen.findByRole('alertdialog', { name: 'Your account is disabled' });
    expect(dialog).toHaveAccessibleDescription(/deactivated/);
    await waitFor(() => expect(screen.getByRole('button', { name: 'Log out' })).toHaveFocus());
    fireEvent.keyDown(dialog, { key: 'Escape' });
    expect(screen.getByRole('alertdialog')).toBeInTheDocument();
  });

  it('shows the same dialog when a call answers ACCOUNT_INACTIVE while the loaded profile still says active', async () => {
    renderAt('/');
    await screen.findByText('page');
    await waitFor(() => expect(client.get).toHaveBeenCalled());
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    act(() => reportAccountInactive());
    expect(await screen.findByRole('alertdialog', { name: 'Your account is disabled' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Log out' })).toBeInTheDocument();
  });

  it('shows the plans popup for ?showPlans=true without the plan held, and drops the flag on close', async () => {
    renderAt('/billing?showPlans=true');
    const dialog = await screen.findByRole('dialog', { name: 'Choose your plan' });
    expect(await screen.findByRole('button', { name: 'Choose Emerald' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Choose Ruby' })).not.toBeInTheDocument();
    expect(dialog).toHaveTextContent('1,500 interactions per month');
    fireEvent.click(screen.getByRole('button', { name: 'Not now' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.getByTestId('where')).toHaveTextContent(/^\/billing$/);
  });

  it('opens the credit packs for ?showCredits=true, sorted, one page without a pager, and drops the flag on close', async () => {
    renderAt('/billing?showCredits=true');
    const dialog = await screen.findByRole('dialog', { name: 'Your chatbot needs help! Add more interactions' });
    await waitFor(() =>
      expect(screen.getAllByRole('button', { name: /^Buy / }).map((b) => b.textContent)).toEqual([
        'Buy 100 ITx',
        'Buy 250 ITx',
        'Buy 500 ITx',
      ]),
    );
    expect(dialog).toHaveTextContent('$22.50');
    expect(screen.queryByRole('navigation', { name: 'Pages of packs' })).not.toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.getByTestId('where')).toHaveTextContent(/^\/billing$/);
  });

  it('sets the chat mode of the page it opens', async () => {
    setChatMode('Normal');
    renderAt('/settings');
    await screen.findByText('page');
    expect(getChatMode()).toBe('Menu');
    act(() => setChatMode('Normal'));
  });

  it('shows the paid plan in the profile dropdown, without a start-plan button', async () => {
    renderAt('/');
    fireEvent.click(await screen.findByRole('button', { name: 'Profile and account: Ana' }));
    const plan = await screen.findByTestId('profile-plan');
    await waitFor(() => expect(plan).toHaveTextContent('Ruby'));
    expect(screen.queryByRole('menuitem', { name: 'Start plan' })).not.toBeInTheDocument();
  });

  it('opens the main chat for ?mainChat=true from another page, and drops the flag on it', async () => {
    renderAt('/settings?mainChat=true');
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent(/^\/$/));
  });

  it('runs the reset when the flag is in local storage, and removes the flag', async () => {
    localStorage.setItem(RESET_FLAG_KEY, '1');
    renderAt('/');
    await screen.findByText('page');
    await waitFor(() => expect(localStorage.getItem(RESET_FLAG_KEY)).toBeNull());
    expect(isResetKey(['sparks', { page: 1, limit: 4 }])).toBe(true);
    expect(isResetKey(['tests', 'spark-1'])).toBe(true);
    expect(isResetKey('/account/profile')).toBe(false);
  });

  describe('one language setting (issue 18 item 12)', () => {
    it("opens in the account's language, whatever this browser last used", async () => {
      accountLanguage = 'es';
      renderAt('/');
      await waitFor(() => expect(i18n.resolvedLanguage).toBe('es'));
      expect(await screen.findByRole('button', { name: 'EN (English)', pressed: false })).toBeInTheDocument();
    });

    it('the header switch changes the interface at once and saves the language in the account', async () => {
      accountLanguage = 'es';
      client.patch.mockImplementation((_url: string, body: unknown) => {
        accountLanguage = (body as { config: { language: 'en' | 'es' } }).config.language;
        return Promise.resolve({ username: 'ana@example.com', config: { language: accountLanguage }, tenants: [] });
      });
      renderAt('/');
      await waitFor(() => expect(i18n.resolvedLanguage).toBe('es'));
      fireEvent.click(await screen.findByRole('button', { name: 'EN (English)' }));
      await waitFor(() => expect(i18n.resolvedLanguage).toBe('en'));
      expect(client.patch).toHaveBeenCalledWith('/account/profile', { config: { language: 'en' } });
      // It stays English (the account says so now).
      await act(() => cacheMutate(() => true));
      expect(i18n.resolvedLanguage).toBe('en');
    });

    it('follows a change made by an assistant (settings or profile) as soon as the profile is read again', async () => {
      accountLanguage = 'es';
      renderAt('/settings');
      await waitFor(() => expect(i18n.resolvedLanguage).toBe('es'));
      accountLanguage = 'en'; // the settings assistant: "Language changed to English"
      await act(() => cacheMutate(['profile']));
      await waitFor(() => expect(i18n.resolvedLanguage).toBe('en'));
    });
  });
});
