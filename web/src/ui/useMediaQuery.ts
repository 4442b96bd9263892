import { useSyncExternalStore } from 'react';

/** docs/product.md §9: mobile below 1139.98 px, desktop from 1140 px; the mid range ends at 1360 px. */
export const MOBILE_QUERY = '(max-width: 1139.98px)';
export const NARROW_SIDEBAR_QUERY = '(max-width: 1359.98px)';
/** "Small screens" (docs/product.md §2: the floating new-Spark button): phones, below the usual 768 px tablet width. */
export const SMALL_SCREEN_QUERY = '(max-width: 767.98px)';

/** Whether a media query matches, following its changes. */
export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (listener) => {
      if (typeof window.matchMedia !== 'function') return () => undefined;
      const list = window.matchMedia(query);
      list.addEventListener('change', listener);
      return () => list.removeEventListener('change', listener);
    },
    () => (typeof window.matchMedia === 'function' ? window.matchMedia(query).matches : false),
    () => false,
  );
}
