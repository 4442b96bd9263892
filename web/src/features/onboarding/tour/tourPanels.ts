import { useSyncExternalStore } from 'react';

/**
 * The mobile tutorial panels of docs/product.md §4: the profile dropdown, the main menu, step 3 (the Sparks list) and the
 * close-chat page. They are mutually exclusive — one value holds whichever is showing, so showing one hides the
 * others — and a reset hides them all. The layout reads it: the first three open the sidebar drawer (with the
 * matching dropdown for the first two), 'closeChat' closes the drawer so the chat fills the screen.
 */
export type TourPanel = 'profileDropdown' | 'mainMenu' | 'step3' | 'closeChat';

let current: TourPanel | null = null;
const listeners = new Set<() => void>();

function emit() {
  listeners.forEach((listener) => listener());
}

export function showTourPanel(panel: TourPanel | null): void {
  if (current === panel) return;
  current = panel;
  emit();
}

export function tourPanel(): TourPanel | null {
  return current;
}

/** Part of the store reset (docs/product.md §4): no tutorial panel stays open. */
export function resetTourPanels(): void {
  showTourPanel(null);
}

/** Whether the panel keeps the sidebar drawer open. */
export function opensDrawer(panel: TourPanel | null): boolean {
  return panel === 'profileDropdown' || panel === 'mainMenu' || panel === 'step3';
}

export function useTourPanel(): TourPanel | null {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => current,
    () => null,
  );
}
