import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { SWRConfig } from 'swr';

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

function Where() {
  const location = useLocation();
  return <p data-testid="where">{location.pathname + location.search}</p>;
}

function renderAt(path: string) {
  return render(
    <SWRConfig value={{ provider: () => new Map(), dedupingInterval: 0 }}>
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

beforeAll(() => initTestI18n('en'));
beforeEach(() => {
  status = 'active';
  client.get.mockImplementation(() =>
    Promise.resolve({
      username: 'ana@example.com',
      firstname: 'Ana',
      lastname: '',
      tenants: [
        {
          status,
          subscription: { productName: 'Ruby', limits: { deployments: { value: 1 } } },
          trial: { daysLeft: 0, active: false },
        },
      ],
    }),
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

  it('shows the plans notice for ?showPlans=true and drops the flag on close', async () => {
    renderAt('/billing?showPlans=true');
    const dialog = await screen.findByRole('dialog', { name: 'Plans' });
    expect(dialog).toHaveAccessibleDescription(/Plans are coming with billing/);
    fireEvent.click(screen.getByRole('button', { name: 'Understood' }));
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
    globalThis.ResizeObserver ??= class {
      observe() {}
      unobserve() {}
      disconnect() {}
    } as unknown as typeof ResizeObserver;
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
});
