import { useCallback } from 'react';
import { useSearchParams } from 'react-router-dom';

/**
 * The query parameters of spec §2 the layout and pages read: `q` (on /deploy, the Spark to deploy),
 * `mainChat=true` (the main chat on mobile) and `showPlans=true` (the plans view on the current path).
 */
export function useQueryFlags() {
  const [params, setParams] = useSearchParams();
  const clear = useCallback(
    (name: 'q' | 'mainChat' | 'showPlans') =>
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          next.delete(name);
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );
  return {
    q: params.get('q')?.trim() || null,
    mainChat: params.get('mainChat') === 'true',
    showPlans: params.get('showPlans') === 'true',
    clear,
  };
}
