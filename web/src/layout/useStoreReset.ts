import { useEffect } from 'react';
import { useSWRConfig } from 'swr';

import { resetTourPanels } from '../features/onboarding/tour/tourPanels';

/** docs/product.md §4: when this flag is in local storage, a reset runs (and the flag is removed). */
export const RESET_FLAG_KEY = 'reset';

/** The client state of docs/product.md §3 that a reset clears: Sparks, tests and documents (their SWR cache entries). */
const RESET_KEYS = new Set(['sparks', 'spark', 'tests', 'documents']);

export function isResetKey(key: unknown): boolean {
  return Array.isArray(key) && typeof key[0] === 'string' && RESET_KEYS.has(key[0]);
}

/**
 * The store reset of docs/product.md §4: tests, documents and Sparks are cleared (and read again from the server), the
 * mobile tutorial panels are closed. It runs when the signed-in layout opens with the flag set, and when another
 * tab sets it.
 */
export function useStoreReset(): void {
  const { mutate } = useSWRConfig();
  useEffect(() => {
    const run = () => {
      if (localStorage.getItem(RESET_FLAG_KEY) === null) return;
      localStorage.removeItem(RESET_FLAG_KEY);
      resetTourPanels();
      void mutate(isResetKey, undefined, { revalidate: true });
    };
    run();
    const onStorage = (event: StorageEvent) => {
      if (event.key === RESET_FLAG_KEY || event.key === null) run();
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, [mutate]);
}
