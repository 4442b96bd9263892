import type { UserProfile } from '@sparks/contracts';
import { render, screen, waitFor } from '@testing-library/react';
import { SWRConfig } from 'swr';

import { api } from '../../api/client';
import { useAccountTimeZone } from './useAccountTimeZone';
import { useProfile } from './useProfile';

jest.mock('../../api/client', () => ({ api: { get: jest.fn(), patch: jest.fn() } }));
const client = jest.mocked(api);

const profile = (timeZone: string | null): Partial<UserProfile> => ({
  username: 'ana@example.com',
  config: { language: 'en' },
  timeZone,
  weeklyDigest: true,
});

/** The signed-in shell's use of the hook, with the zone the cached profile holds. */
function Shell() {
  useAccountTimeZone();
  const { data } = useProfile();
  return <p data-testid="zone">{data ? String(data.timeZone) : 'loading'}</p>;
}

function renderIt() {
  return render(
    <SWRConfig value={{ provider: () => new Map(), dedupingInterval: 0 }}>
      <Shell />
    </SWRConfig>,
  );
}

const browser = Intl.DateTimeFormat().resolvedOptions().timeZone;

beforeEach(() => {
  client.get.mockReset();
  client.patch.mockReset();
  jest.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(() => jest.restoreAllMocks());

describe('useAccountTimeZone', () => {
  it("sends the browser's zone once when the account has none, and takes only the zone from the answer", async () => {
    client.get.mockResolvedValue(profile(null));
    client.patch.mockResolvedValue({ ...profile(browser), username: 'not-taken@example.com' });
    const { rerender } = renderIt();
    await waitFor(() => expect(screen.getByTestId('zone')).toHaveTextContent(browser));
    expect(client.patch).toHaveBeenCalledTimes(1);
    expect(client.patch).toHaveBeenCalledWith('/account/profile', { timeZone: browser });
    rerender(
      <SWRConfig value={{ provider: () => new Map(), dedupingInterval: 0 }}>
        <Shell />
      </SWRConfig>,
    );
    await new Promise((r) => setTimeout(r, 20));
    expect(client.patch).toHaveBeenCalledTimes(1);
  });

  it('costs no request when the account has a zone', async () => {
    client.get.mockResolvedValue(profile('Asia/Tokyo'));
    renderIt();
    await waitFor(() => expect(screen.getByTestId('zone')).toHaveTextContent('Asia/Tokyo'));
    await new Promise((r) => setTimeout(r, 20));
    expect(client.patch).not.toHaveBeenCalled();
  });

  it('does not try again after the server refused', async () => {
    client.get.mockResolvedValue(profile(null));
    client.patch.mockRejectedValue(new Error('400 TIME_ZONE_INVALID'));
    renderIt();
    await waitFor(() => expect(client.patch).toHaveBeenCalledTimes(1));
    await new Promise((r) => setTimeout(r, 20));
    expect(screen.getByTestId('zone')).toHaveTextContent('null');
    expect(client.patch).toHaveBeenCalledTimes(1);
  });
});
