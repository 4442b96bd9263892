import type { AdminAccountView, AdminAuditEntry, AdminMe } from '@sparks/contracts';
import useSWR from 'swr';

import { api } from '../../api/client';

const ADMIN_ME_KEY = ['admin', 'me'] as const;
export const ADMIN_AUDIT_KEY = ['admin', 'audit'] as const;

/** Where Bull Board is served (api/src/admin/queues-board.ts), behind the admin pages' cookie. */
const QUEUES_BOARD_PATH = '/admin/queues';

/** GET /admin/me: whether the signed-in user is an admin (ADMIN_EMAILS or `npm run admin -- grant`). */
export function useIsAdmin(): { admin: boolean; loading: boolean } {
  const { data, isLoading } = useSWR(ADMIN_ME_KEY, async () => (await api.get<AdminMe>('/admin/me')).admin);
  return { admin: data === true, loading: isLoading };
}

/** GET /admin/users?email=: an account, its status and the admin actions on it (404 USER_NOT_FOUND). */
export function findAccount(email: string): Promise<AdminAccountView> {
  return api.get<AdminAccountView>('/admin/users', { params: { email } });
}

/** Disables (docs/product.md §4: the first tenant becomes inactive) or enables an account; the api logs who did it. */
export function setAccountEnabled(userId: string, enabled: boolean): Promise<AdminAccountView> {
  return api.post<AdminAccountView>(`/admin/users/${encodeURIComponent(userId)}/${enabled ? 'enable' : 'disable'}`);
}

/** GET /admin/audit: the latest 50 admin actions, newest first. */
export function useAdminAudit(enabled: boolean) {
  return useSWR<AdminAuditEntry[], Error>(enabled ? ADMIN_AUDIT_KEY : null, () =>
    api.get<AdminAuditEntry[]>('/admin/audit'),
  );
}

/**
 * Opens Bull Board: the SPA's bearer token is not sent on a page navigation, so POST /admin/session first sets
 * the short-lived httpOnly cookie scoped to /admin, then the browser goes there.
 */
export async function openQueuesBoard(go: (path: string) => void = (path) => window.location.assign(path)) {
  await api.post('/admin/session');
  go(`${QUEUES_BOARD_PATH}/`);
}
