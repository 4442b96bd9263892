import { useSyncExternalStore } from 'react';

/**
 * docs/product.md §4: a call answered 403 ACCOUNT_INACTIVE means the account was disabled while the app was
 * open (the profile loaded earlier still says active). The API client reports it here and the signed-in layout
 * shows the inactive-tenant modal. It lasts for the page's life: the modal's only way out is logging out, which
 * loads /auth afresh.
 */
let reported = false;
const listeners = new Set<() => void>();

export const ACCOUNT_INACTIVE = 'ACCOUNT_INACTIVE';

export function reportAccountInactive(): void {
  if (reported) return;
  reported = true;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const snapshot = () => reported;

/** Whether a call of this page answered ACCOUNT_INACTIVE. */
export function useAccountInactiveReported(): boolean {
  return useSyncExternalStore(subscribe, snapshot, snapshot);
}

/** For tests: forget the report. */
export function resetAccountInactiveReport(): void {
  reported = false;
  for (const listener of listeners) listener();
}
