import { useCallback } from 'react';
import { useSearchParams } from './router';

export type QueryFlag = 'q' | 'mainChat' | 'showPlans' | 'showCredits' | 'activateTutorial' | 'startMobileTutorial';

/**
 * The query parameters of docs/product.md §2 the layout and pages read: `q` (on /deploy, the Spark to deploy),
 * `mainChat=true` (the main chat on mobile), `showPlans=true` (the plans view on the current path), `showCredits=true`
 * (the credit-pack popup: the billing assistant's "buy interactions" button; docs/decisions.md),
 * `activateTutorial` and `startMobileTutorial` (start the onboarding tour; any value but 'false').
 */
export function useQueryFlags() {
  const [params, setParams] = useSearchParams();
  const clear = useCallback(
    (...names: QueryFlag[]) =>
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          names.forEach((name) => next.delete(name));
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );
  const flag = (name: QueryFlag) => params.has(name) && params.get(name) !== 'false';
  return {
    q: params.get('q')?.trim() || null,
    mainChat: params.get('mainChat') === 'true',
    showPlans: params.get('showPlans') === 'true',
    showCredits: params.get('showCredits') === 'true',
    activateTutorial: flag('activateTutorial'),
    startMobileTutorial: flag('startMobileTutorial'),
    clear,
  };
}
