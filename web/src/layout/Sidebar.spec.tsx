import type { SparkView } from '@sparks/contracts';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { i18n as I18n } from 'i18next';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { SWRConfig } from 'swr';

import { api } from '../api/client';
import { setActiveSparkId, clearActiveSparkId } from '../features/sparks/activeSpark';
import { initTestI18n } from '../testing/i18n';
import { Sidebar } from './Sidebar';

jest.mock('../api/client', () => ({
  api: { axios: { get: jest.fn() }, get: jest.fn(), post: jest.fn(), patch: jest.fn(), delete: jest.fn() },
  isApiError: () => false,
}));
const client = jest.mocked(api);
jest.mock('../features/billing/leave', () => ({ leaveTo: jest.fn() }));
const leaveTo = jest.mocked(
  jest.requireMock<typeof import('../features/billing/leave')>('../features/billing/leave').leaveTo,
);

const spark = (n: number, pin = false): SparkView =>
  ({ _id: `s${n}`, sparkId: `s${n}`, name: `Spark ${n}`, pin, type: 'DOC' }) as SparkView;

let sparks: SparkView[] = [];
let profile = {
  username: 'someone.with.a.long.name@example.com',
  firstname: '',
  lastname: '',
  tenants: [
    {
      status: 'active',
      subscription: { productName: 'Free Plan', limits: { deployments: { value: 0 }, interactions: { value: 50 } } },
      trial: { daysLeft: 15, active: true },
    },
  ],
};

const freeProfile = profile;
/** Ruby, paid through `provider`: what GET /billing/subscriptions answers for the customer. */
function paidProfile(provider: 'local' | 'stripe') {
  client.get.mockImplementation((url: string) => {
    if (url === '/account/profile') return Promise.resolve(profile);
    if (url === '/billing/subscriptions/cus_1')
      return Promise.resolve([{ subscriptionId: 'sub_1', customerId: 'cus_1', productName: 'Ruby', provider }]);
    return Promise.reject(new Error(`unexpected GET ${url}`));
  });
  profile = {
    ...freeProfile,
    tenants: [
      {
        ...freeProfile.tenants[0],
        customerId: 'cus_1',
        subscription: {
          productName: 'Ruby',
          subscriptionId: 'sub_1',
          limits: { deployments: { value: 1 }, interactions: { value: 600 } },
        },
      } as (typeof freeProfile.tenants)[number],
    ],
  };
}

function Where() {
  const location = useLocation();
  return <p data-testid="where">{location.pathname + location.search}</p>;
}

function renderSidebar(path = '/') {
  return render(
    <SWRConfig value={{ provider: () => new Map(), dedupingInterval: 0 }}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path="*" element={<Sidebar id="sb" mobile={false} open={false} onClose={jest.fn()} />} />
        </Routes>
        <Where />
      </MemoryRouter>
    </SWRConfig>,
  );
}

let i18n: I18n;

beforeAll(async () => {
  i18n = await initTestI18n('en');
});

beforeEach(async () => {
  jest.clearAllMocks();
  await i18n.changeLanguage('en');
  Object.defineProperty(window, 'innerHeight', { configurable: true, value: 900 });
  clearActiveSparkId();
  sparks = [1, 2, 3, 4, 5, 6].map((n) => spark(n)).reverse();
  profile = freeProfile;
  client.get.mockImplementation((url: string) => {
    if (url === '/account/profile') return Promise.resolve(profile);
    if (url === '/sparks/s6/tests') return Promise.resolve([{ _id: 't1', name: 'First test' }]);
    return Promise.reject(new Error(`unexpected GET ${url}`));
  });
  client.axios.get.mockImplementation((_url, config) => {
    const { page, limit, pinned } = config!.params as { page: number; limit: number; pinned: string };
    const list = sparks.filter((s) => String(s.pin) === pinned);
    return Promise.resolve({
      data: { data: list.slice((page - 1) * limit, page * limit), meta: { total: list.length, page, limit } },
    });
  });
  client.patch.mockImplementation((url, body) => {
    const id = url.split('/').pop()!;
    sparks = sparks.map((s) => (s._id === id ? { ...s, ...(body as Partial<SparkView>) } : s));
    return Promise.resolve(sparks.find((s) => s._id === id));
  });
  client.delete.mockImplementation((url: string) => {
    const id = url.split('/').pop()!;
    sparks = sparks.filter((s) => s._id !== id);
    return Promise.resolve({});
  });
});

const recent = () => screen.getByRole('region', { name: 'Recent' });
const rowNames = (region: HTMLElement) =>
  within(region)
    .queryAllByRole('link')
    .map((link) => link.textContent);

async function openRowMenu(name: string) {
  fireEvent.click(screen.getByRole('button', { name: `Actions for ${name}` }));
  return screen.findByRole('menu');
}

describe('Sidebar', () => {
  it('pages the recent Sparks by the window height with an "N of M" pager', async () => {
    renderSidebar();
    await waitFor(() => expect(rowNames(recent())).toEqual(['Spark 6', 'Spark 5', 'Spark 4', 'Spark 3']));
    expect(screen.getByTestId('sparks-pager')).toHaveTextContent('1 of 2');
    expect(screen.getByRole('button', { name: 'Previous page' })).toBeDisabled();
    fireEvent.click(screen.getByRole('button', { name: 'Next page' }));
    await waitFor(() => expect(rowNames(recent())).toEqual(['Spark 2', 'Spark 1']));
    expect(screen.getByTestId('sparks-pager')).toHaveTextContent('2 of 2');
    expect(screen.getByRole('button', { name: 'Next page' })).toBeDisabled();
    expect(screen.queryByRole('region', { name: 'Pinned' })).not.toBeInTheDocument();

    // A shorter window: 2 per page (650–774).
    act(() => {
      Object.defineProperty(window, 'innerHeight', { configurable: true, value: 700 });
      window.dispatchEvent(new Event('resize'));
    });
    await waitFor(() => expect(screen.getByTestId('sparks-pager')).toHaveTextContent('2 of 3'));
  });

  it('pins and unpins from the row dropdown', async () => {
    renderSidebar();
    await waitFor(() => expect(rowNames(recent())).toHaveLength(4));
    const menu = await openRowMenu('Spark 5');
    fireEvent.click(within(menu).getByRole('menuitem', { name: 'Pin' }));
    expect(client.patch).toHaveBeenCalledWith('/sparks/s5', { pin: true });
    const pinned = await screen.findByRole('region', { name: 'Pinned' });
    await waitFor(() => expect(rowNames(pinned)).toEqual(['Spark 5']));
    await waitFor(() => expect(rowNames(recent())).not.toContain('Spark 5'));
    expect(screen.getByTestId('sparks-pager')).toHaveTextContent('1 of 2');

    const again = await openRowMenu('Spark 5');
    fireEvent.click(within(again).getByRole('menuitem', { name: 'Unpin' }));
    expect(client.patch).toHaveBeenLastCalledWith('/sparks/s5', { pin: false });
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Pinned' })).not.toBeInTheDocument());
  });

  it('deletes a Spark after "Borrar" is typed; the row disappears and the active Spark is forgotten', async () => {
    setActiveSparkId('s6');
    renderSidebar('/spark/s6');
    await waitFor(() => expect(rowNames(recent())).toContain('Spark 6'));
    // The active Spark has a test row.
    expect(await screen.findByRole('link', { name: 'Test: First test' })).toHaveAttribute('href', '/spark/s6/test/t1');

    const menu = await openRowMenu('Spark 6');
    fireEvent.click(within(menu).getByRole('menuitem', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete “Spark 6”?' });
    const confirm = within(dialog).getByRole('button', { name: 'Delete Spark' });
    expect(confirm).toBeDisabled();
    fireEvent.change(within(dialog).getByLabelText('Type Borrar to confirm'), { target: { value: 'Borrar' } });
    await act(async () => {
      fireEvent.click(confirm);
      await Promise.resolve();
    });
    expect(client.delete).toHaveBeenCalledWith('/sparks/s6');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() => expect(rowNames(recent())).toEqual(['Spark 5', 'Spark 4', 'Spark 3', 'Spark 2']));
    expect(localStorage.getItem('activeSparkId')).toBeNull();
    // It was the open Spark: the user is taken home before its page could ask for it again.
    expect(screen.getByTestId('where')).toHaveTextContent(/^\/$/);
  });

  it.each([
    ['en', 'Pinned', 'Recent', 'No Sparks yet. Create one from the menu.'],
    ['es', 'Fijados', 'Recientes', 'Todavía no tienes Sparks. Crea uno desde el menú.'],
  ] as const)(
    'with every Spark pinned there is no "Recent" section and no "no Sparks yet" (%s)',
    async (lang, pinnedName, recentName, empty) => {
      await i18n.changeLanguage(lang);
      sparks = [spark(1, true)];
      renderSidebar();
      const pinned = await screen.findByRole('region', { name: pinnedName });
      expect(rowNames(pinned)).toEqual(['Spark 1']);
      await waitFor(() => expect(screen.queryByRole('status')).not.toBeInTheDocument());
      expect(screen.queryByRole('region', { name: recentName })).not.toBeInTheDocument();
      expect(screen.queryByText(empty)).not.toBeInTheDocument();
      expect(screen.queryByTestId('sparks-pager')).not.toBeInTheDocument();

      // Unpinned again, it is a recent Spark.
      fireEvent.click(screen.getByRole('button', { name: `${lang === 'en' ? 'Actions for' : 'Acciones de'} Spark 1` }));
      const menu = await screen.findByRole('menu');
      fireEvent.click(within(menu).getByRole('menuitem', { name: lang === 'en' ? 'Unpin' : 'Desfijar' }));
      await waitFor(() => expect(rowNames(screen.getByRole('region', { name: recentName }))).toEqual(['Spark 1']));
      expect(screen.queryByRole('region', { name: pinnedName })).not.toBeInTheDocument();
      expect(screen.queryByText(empty)).not.toBeInTheDocument();
    },
  );

  it.each([
    ['en', 'Recent', 'No Sparks yet. Create one from the menu.'],
    ['es', 'Recientes', 'Todavía no tienes Sparks. Crea uno desde el menú.'],
  ] as const)('says "no Sparks yet" only when there are none at all (%s)', async (lang, recentName, empty) => {
    await i18n.changeLanguage(lang);
    sparks = [];
    renderSidebar();
    const region = await screen.findByRole('region', { name: recentName });
    expect(await within(region).findByText(empty)).toBeInTheDocument();
  });

  it.each([
    ['en', '/spark/s6/test/t4', 'Tests (4): Test 4', 't4'],
    ['en', '/mobile-test/s6/t2', 'Tests (4): Test 2', 't2'],
    ['es', '/spark/s6/test/t3', 'Pruebas (4): Prueba 3', 't3'],
    // No test of this Spark open: the first one (the tab bar's first tab).
    ['en', '/spark/s6', 'Tests (4): Test 1', 't1'],
    ['en', '/spark/s6/test/gone', 'Tests (4): Test 1', 't1'],
  ] as const)('the test row names the test that is open (%s at %s)', async (lang, path, name, testId) => {
    await i18n.changeLanguage(lang);
    const word = lang === 'en' ? 'Test' : 'Prueba';
    client.get.mockImplementation((url: string) => {
      if (url === '/account/profile') return Promise.resolve(profile);
      if (url === '/sparks/s6/tests')
        return Promise.resolve([1, 2, 3, 4].map((n) => ({ _id: `t${n}`, sparkId: 's6', name: `${word} ${n}` })));
      return Promise.reject(new Error(`unexpected GET ${url}`));
    });
    setActiveSparkId('s6');
    renderSidebar(path);
    const row = await screen.findByRole('link', { name });
    expect(row).toHaveAttribute('href', `/spark/s6/test/${testId}`);
    if (path.startsWith('/spark/s6/test/t')) expect(row).toHaveClass('spark-test-row--active');
  });

  it('offers the main menu with deploy greyed out when the plan has no deployments', async () => {
    renderSidebar();
    fireEvent.click(await screen.findByRole('button', { name: 'Menu' }));
    const menu = await screen.findByRole('menu');
    const items = within(menu).getAllByRole('menuitem');
    expect(items.map((item) => item.textContent)).toEqual([
      'Settings',
      'Billing',
      expect.stringContaining('Deploy'),
      'New Spark',
      'Tutorial',
      'Analytics',
    ]);
    await waitFor(() =>
      expect(within(menu).getByRole('menuitem', { name: 'Deploy' })).toHaveAttribute('aria-disabled', 'true'),
    );
    expect(within(menu).getByRole('menuitem', { name: 'Deploy' })).toHaveAccessibleDescription(
      'Your plan does not include deployments',
    );
    fireEvent.click(within(menu).getByRole('menuitem', { name: 'Billing' }));
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/billing'));
  });

  it('shows the profile dropdown with the free-trial label and the start-plan button', async () => {
    renderSidebar();
    const button = await screen.findByRole('button', { name: 'Profile and account: someone.with.a.…' });
    fireEvent.click(button);
    const menu = await screen.findByRole('menu');
    expect(within(menu).getByText('Free trial · 15 days left')).toBeInTheDocument();
    expect(within(menu).getByRole('menuitem', { name: 'Modify profile' })).toHaveAttribute('href', '/profile');
    expect(within(menu).getByRole('menuitem', { name: 'Log out' })).toBeInTheDocument();
    fireEvent.click(within(menu).getByRole('menuitem', { name: 'Start plan' }));
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/billing?showPlans=true'));
  });

  it('a paid plan managed by Stripe: "Manage subscription" opens the Customer Portal; no start-plan button', async () => {
    paidProfile('stripe');
    client.post.mockResolvedValue({ sessionUrl: 'https://billing.stripe.com/p/session/test_1' });
    renderSidebar();
    fireEvent.click(await screen.findByRole('button', { name: /^Profile and account/ }));
    const menu = await screen.findByRole('menu');
    expect(within(menu).getByText('Ruby')).toBeInTheDocument();
    expect(within(menu).queryByRole('menuitem', { name: 'Start plan' })).toBeNull();
    fireEvent.click(await within(menu).findByRole('menuitem', { name: 'Manage subscription' }));
    await waitFor(() => expect(leaveTo).toHaveBeenCalledWith('https://billing.stripe.com/p/session/test_1'));
    expect(client.post).toHaveBeenCalledWith('/billing/customers/cus_1/portal', {});
  });

  it('a paid plan on the embedded test provider: "Change plan" opens the plans popup (there is no portal)', async () => {
    paidProfile('local');
    renderSidebar('/spark/s1');
    fireEvent.click(await screen.findByRole('button', { name: /^Profile and account/ }));
    const menu = await screen.findByRole('menu');
    expect(within(menu).queryByRole('menuitem', { name: 'Manage subscription' })).toBeNull();
    fireEvent.click(await within(menu).findByRole('menuitem', { name: 'Change plan' }));
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/billing?showPlans=true'));
    expect(client.post).not.toHaveBeenCalled();
    expect(leaveTo).not.toHaveBeenCalled();
  });

  it('the Free Plan has no subscription to manage', async () => {
    renderSidebar();
    fireEvent.click(await screen.findByRole('button', { name: /^Profile and account/ }));
    const menu = await screen.findByRole('menu');
    expect(within(menu).getByRole('menuitem', { name: 'Start plan' })).toBeInTheDocument();
    expect(within(menu).queryByRole('menuitem', { name: 'Manage subscription' })).toBeNull();
    expect(within(menu).queryByRole('menuitem', { name: 'Change plan' })).toBeNull();
  });
});
