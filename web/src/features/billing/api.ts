import type { CheckoutSessionView, CreditItemView, OverageView, PriceView, SubscriptionView } from '@sparks/contracts';

import { api } from '../../api/client';

export const PRICES_KEY = ['prices'] as const;
export const CREDITS_KEY = ['billing', 'catalog', 'credits'] as const;
export const checkoutKey = (sessionId: string) => ['billing', 'checkout', sessionId] as const;

const checkoutPath = (sessionId: string) => `/billing/checkout/${encodeURIComponent(sessionId)}`;

/** GET /prices: the plans on sale. */
export const fetchPrices = () => api.get<PriceView[]>('/prices');
/** GET /billing/catalog/credits: the credit packs. */
export const fetchCreditCatalog = async () =>
  (await api.get<{ items: CreditItemView[] }>('/billing/catalog/credits')).items;

/**
 * POST /billing/customers/{customerId}/session: a checkout for a plan (subscription) or a pack (payment); a provider's
 * page comes back to `returnTo` (the page it was opened from), else to /billing.
 */
export const startCheckout = (
  customerId: string,
  mode: 'subscription' | 'payment',
  priceId: string,
  returnTo?: string,
) =>
  api.post<{ sessionUrl: string }>(`/billing/customers/${encodeURIComponent(customerId)}/session`, {
    mode,
    priceId,
    returnTo,
  });

/** POST /billing/credits/purchase: paid at once with a paid plan, else an open checkout to pay. */
export const purchaseCredits = (productId: string, returnTo?: string) =>
  api.post<{ success: boolean; status: 'paid' | 'open'; sessionUrl?: string }>('/billing/credits/purchase', {
    productId,
    returnTo,
  });

export const fetchCheckout = (sessionId: string) => api.get<CheckoutSessionView>(checkoutPath(sessionId));
export const payCheckout = (sessionId: string) => api.post<CheckoutSessionView>(`${checkoutPath(sessionId)}/pay`, {});
export const cancelCheckout = (sessionId: string) =>
  api.post<CheckoutSessionView>(`${checkoutPath(sessionId)}/cancel`, {});

export const AVAILABLE_CREDITS_KEY = ['billing', 'credits', 'interactions', 'available'] as const;
/** GET /billing/credits/interactions/available: purchased interactions not spent yet. */
export const fetchAvailableCredits = async () =>
  (await api.get<{ total: number }>('/billing/credits/interactions/available')).total;

export const subscriptionsKey = (customerId: string) => ['billing', 'subscriptions', customerId] as const;
/** GET /billing/subscriptions/{customerId}: the caller's paid subscription (empty on the Free Plan). */
export const fetchSubscriptions = (customerId: string) =>
  api.get<SubscriptionView[]>(`/billing/subscriptions/${encodeURIComponent(customerId)}`);
/** POST /billing/customers/{customerId}/portal: where the subscription is changed or cancelled. */
export const openPortal = (customerId: string) =>
  api.post<{ sessionUrl: string }>(`/billing/customers/${encodeURIComponent(customerId)}/portal`, {});

export const OVERAGE_KEY = ['billing', 'overage'] as const;
/** GET /billing/overage: the owner's overage setting, the plan's premium rate and this period's overage. */
export const fetchOverage = () => api.get<OverageView>('/billing/overage');
/** PUT /billing/overage: turns overage on or off with its monthly cap in cents (checked by the server). */
export const saveOverage = (enabled: boolean, capCents: number) =>
  api.put<OverageView>('/billing/overage', { enabled, capCents });
