import { useSyncExternalStore } from 'react';

/**
 * The account-wide billing dialogs a page can open (the layout shows them): the credit-pack popup (from the
 * upgrade prompt's "buy more") and the trial-ended popup (after a 402 TRIAL_ENDED, before the profile says so).
 * `had402` remembers that a send was refused, so the out-of-interactions modal leaves the talking to the
 * upgrade prompt (docs/product.md §4: "no 402 occurred").
 */
export interface BillingDialogsState {
  open: 'credits' | 'trialEnded' | null;
  had402: boolean;
  /** The out-of-interactions modal was answered (it opens once per page load). */
  outAnswered: boolean;
}

let state: BillingDialogsState = { open: null, had402: false, outAnswered: false };
const listeners = new Set<() => void>();

function set(next: Partial<BillingDialogsState>) {
  state = { ...state, ...next };
  listeners.forEach((listener) => listener());
}

export const billingDialogs = {
  openCredits: () => set({ open: 'credits' }),
  openTrialEnded: () => set({ open: 'trialEnded', had402: true }),
  refused: () => set({ had402: true }),
  close: () => set({ open: null }),
  answerOut: () => set({ outAnswered: true }),
  /** Back to nothing open (tests; a new session). */
  reset: () => set({ open: null, had402: false, outAnswered: false }),
  get: () => state,
};

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => void listeners.delete(listener);
}

export function useBillingDialogs(): BillingDialogsState {
  return useSyncExternalStore(subscribe, billingDialogs.get, billingDialogs.get);
}
