import { useCallback, useRef } from 'react';

import type { FieldMessages } from '../errors';

/**
 * Refs of a form's inputs, in their order on screen, to move the focus to the first one with an error
 * after a failed submit (client checks or server answer).
 */
export function useFieldFocus<F extends string>(order: readonly F[]) {
  const inputs = useRef<Partial<Record<F, HTMLInputElement | null>>>({});

  const ref = useCallback(
    (name: F) => (element: HTMLInputElement | null) => {
      inputs.current[name] = element;
    },
    [],
  );

  const focusFirstInvalid = useCallback(
    (errors: FieldMessages<F>) => {
      const first = order.find((name) => errors[name]);
      if (first) inputs.current[first]?.focus();
      return Boolean(first);
    },
    [order],
  );

  /** Puts the keyboard on one input. */
  const focus = useCallback((name: F) => inputs.current[name]?.focus(), []);

  return { ref, focusFirstInvalid, focus };
}
