import { useEffect, useRef, useState } from 'react';

/**
 * The width of an element in CSS pixels, following its changes (a phone turned, the sidebar opened), so that a chart
 * draws its text at its real size instead of scaling it; `fallback` before it is measured or where the browser cannot
 * tell (tests).
 */
export function useWidth<E extends HTMLElement>(fallback: number) {
  const ref = useRef<E>(null);
  const [width, setWidth] = useState(fallback);
  useEffect(() => {
    const element = ref.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(([entry]) => {
      const next = Math.floor(entry?.contentRect.width ?? 0);
      if (next > 0) setWidth(next);
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return [ref, width] as const;
}
