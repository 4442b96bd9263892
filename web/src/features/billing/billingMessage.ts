/**
 * What a page hands to /billing when it sends the user there (history state): a message for the billing assistant
 * (the profile dropdown's start-plan button, a paid credit pack) and the result of a checkout. A message is sent
 * once: going back to the same history entry or reloading the page does not send it again.
 */
export interface CheckoutResult {
  status: 'paid' | 'cancelled';
  mode: 'subscription' | 'payment';
  productName: string;
}

export interface BillingNavState {
  billingMessage?: { id: string; text: string };
  checkout?: CheckoutResult;
}

const STORAGE_KEY = 'sparks.billing.sentMessages';
/** Ids this page load has claimed (so that a second render of the same page still gets its message). */
const claimed = new Set<string>();

function sentIds(): string[] {
  try {
    const raw = sessionStorage.getItem(STORAGE_KEY);
    const parsed: unknown = raw ? JSON.parse(raw) : [];
    return Array.isArray(parsed) ? parsed.filter((id): id is string => typeof id === 'string') : [];
  } catch {
    return [];
  }
}

export function billingState(text: string | undefined, checkout?: CheckoutResult): BillingNavState {
  return {
    ...(text ? { billingMessage: { id: `${Date.now()}-${Math.random().toString(36).slice(2)}`, text } } : {}),
    ...(checkout ? { checkout } : {}),
  };
}

/** The message to send for this navigation, or undefined when it was sent already. */
export function takeBillingMessage(state: unknown): string | undefined {
  const message = (state as BillingNavState | null)?.billingMessage;
  if (!message || typeof message.id !== 'string' || typeof message.text !== 'string') return undefined;
  if (claimed.has(message.id)) return message.text;
  const sent = sentIds();
  if (sent.includes(message.id)) return undefined;
  claimed.add(message.id);
  try {
    sessionStorage.setItem(STORAGE_KEY, JSON.stringify([...sent, message.id].slice(-20)));
  } catch {
    // Storage full or blocked: the message is still sent this once.
  }
  return message.text;
}

export function checkoutResult(state: unknown): CheckoutResult | undefined {
  const result = (state as BillingNavState | null)?.checkout;
  if (!result || (result.status !== 'paid' && result.status !== 'cancelled')) return undefined;
  return result;
}
