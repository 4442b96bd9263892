import type { CreditPackRow, PlanRow, TenantRow } from '@sparks/db';

/** What is being bought: a plan (subscription mode) or a credit pack (payment mode), from our catalogue. */
export type CheckoutItem = { mode: 'subscription'; plan: PlanRow } | { mode: 'payment'; pack: CreditPackRow };

/**
 * Where payments go (issue 15). The local test-payment provider when STRIPE_SECRET_KEY is unset
 * (the embedded default), Stripe otherwise; both end in the same `CheckoutRepository.fulfil`.
 * Prices and amounts always come from our catalogue rows, never from the client.
 */
export interface PaymentProvider {
  readonly name: 'local' | 'stripe';
  /**
   * Whether a credit pack bought while a paid plan is held is charged at once. The local provider
   * does (it keeps the plan checkout's payment method); with Stripe the pack goes through Checkout.
   */
  readonly chargesPacksAtOnce: boolean;
  /**
   * Opens a checkout for the tenant and records it; answers its id and the page where it is paid. `returnTo` (a path
   * of the app, default /billing) is where the provider's page comes back to; the local provider's page is the app's
   * own, which knows where it was opened from.
   */
  createCheckout(
    tenant: TenantRow,
    item: CheckoutItem,
    returnTo?: string,
  ): Promise<{ sessionId: string; sessionUrl: string }>;
  /** A page where the customer changes or cancels the plan and its payment method. */
  portal(tenant: TenantRow): Promise<{ url: string }>;
  /**
   * The account is being deleted (issue 30): its paid subscription ends now, with no renewal, and with Stripe the
   * customer (and its payment methods) is deleted there too. Answers which provider cancelled a subscription, or
   * null when there was none. A failure throws PAYMENT_PROVIDER_UNAVAILABLE, and the account is kept.
   */
  cancelForDeletion(tenant: TenantRow): Promise<'stripe' | 'local' | null>;
}

/** A subscription the local provider made (`sub_cs_local_…`): it lives only in our database. */
export const isLocalSubscription = (id: string) => id.startsWith('sub_cs_local_');

export const PAYMENT_PROVIDER = Symbol('PAYMENT_PROVIDER');
