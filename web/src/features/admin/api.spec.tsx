import { renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { SWRConfig } from 'swr';

import { api } from '../../api/client';
import { useIsAdmin } from './api';

jest.mock('../../api/client', () => ({ api: { get: jest.fn() } }));
const get = jest.mocked(api.get);

const wrapper = ({ children }: { children: ReactNode }) => (
  <SWRConfig value={{ provider: () => new Map(), dedupingInterval: 0 }}>{children}</SWRConfig>
);

describe('useIsAdmin (GET /admin/me)', () => {
  beforeEach(() => get.mockReset());

  it('reads a plain "no" as no, without the request failing', async () => {
    get.mockResolvedValue({ admin: false });
    const { result } = renderHook(() => useIsAdmin(), { wrapper });
    await waitFor(() => expect(result.current.loading).toBe(false));
    expect(result.current.admin).toBe(false);
    expect(get).toHaveBeenCalledWith('/admin/me');
  });

  it('reads an admin as one', async () => {
    get.mockResolvedValue({ admin: true, username: 'ops@example.com' });
    const { result } = renderHook(() => useIsAdmin(), { wrapper });
    await waitFor(() => expect(result.current.admin).toBe(true));
  });
});
