import { useCallback, useEffect, useRef, useState } from 'react';

/**
 * A countdown in whole seconds (the resend-code cooldown, docs/product.md §9: 30 s). `start(n)` restarts it; the value
 * is recomputed from a deadline, so a throttled background tab still ends on time.
 */
export function useCooldown(initialSeconds = 0): [remaining: number, start: (seconds: number) => void] {
  const [remaining, setRemaining] = useState(initialSeconds);
  const deadline = useRef(0);

  const start = useCallback((seconds: number) => {
    deadline.current = Date.now() + seconds * 1000;
    setRemaining(Math.max(0, Math.ceil(seconds)));
  }, []);

  useEffect(() => {
    if (initialSeconds > 0) start(initialSeconds);
    // Only on mount: later changes of the initial value do not restart a running countdown.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const running = remaining > 0;
  useEffect(() => {
    if (!running) return;
    const timer = window.setInterval(() => {
      setRemaining(Math.max(0, Math.ceil((deadline.current - Date.now()) / 1000)));
    }, 250);
    return () => window.clearInterval(timer);
  }, [running]);

  return [remaining, start];
}
