import { useCallback } from 'react';

import { useSearchParams } from '../../lib/router';

/**
 * Opens the plans popup over the current page (the layout shows it for `?showPlans=true`, docs/product.md §2): the
 * trial-ended popup's "view plans", the chat's upgrade prompt, a refused publish on /deploy.
 */
export function useOpenPlans(): () => void {
  const [, setParams] = useSearchParams();
  return useCallback(
    () =>
      setParams((current) => {
        const next = new URLSearchParams(current);
        next.set('showPlans', 'true');
        return next;
      }),
    [setParams],
  );
}
