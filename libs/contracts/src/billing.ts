import { z } from 'zod';

export const customerIdParams = z.object({ customerId: z.string().min(1).max(100) });
export const featureParams = z.object({ feature: z.string().min(1).max(40) });
export const checkoutIdParams = z.object({ sessionId: z.string().min(1).max(100) });

/**
 * Where a paid or cancelled checkout comes back to (issue 34, item 9): a path of this app (`/spark/…/test/…`), never
 * another site; the provider's page returns there with `?checkout=success|cancel`. Absent: /billing.
 */
export const checkoutReturnTo = z
  .string()
  .max(300)
  .regex(/^\/(?![/\\])[^\s#]*$/, 'a path of this app, such as /billing');

/** `POST /billing/customers/{customerId}/session`: only the price is chosen by the client (and where to come back). */
export const checkoutSessionSchema = z.object({
  mode: z.enum(['subscription', 'payment']).default('subscription'),
  priceId: z.string().min(1).max(100),
  returnTo: checkoutReturnTo.optional(),
});

export const creditPurchaseSchema = z.object({
  productId: z.string().min(1).max(100),
  returnTo: checkoutReturnTo.optional(),
});

/** The highest monthly overage cap an owner may set: 100,000 € (in cents). */
export const OVERAGE_CAP_MAX_CENTS = 10_000_000;

export const overageSchema = z.object({
  enabled: z.boolean(),
  /** Monthly spending cap in whole cents (0–100,000 €); anything else is `OVERAGE_CAP_INVALID`. */
  capCents: z.number().refine((n) => Number.isInteger(n) && n >= 0 && n <= OVERAGE_CAP_MAX_CENTS, {
    params: { code: 'OVERAGE_CAP_INVALID' },
  }),
});

const limit = z.object({ value: z.number() });
/** A catalogue name as each language writes it (credit packs: `1,000 ITx` / `1000 ITx`). */
export const localizedNamesSchema = z.object({ en: z.string(), es: z.string() });
export type LocalizedNames = z.infer<typeof localizedNamesSchema>;
export type Limit = z.infer<typeof limit>;

/** docs/product.md §3 Price, with the plan it sells (GET /prices). */
export const priceViewSchema = z.object({
  priceId: z.string(),
  productId: z.string(),
  unit_amount: z.number(),
  currency: z.string(),
  interval: z.literal('month'),
  slug: z.string(),
  productName: z.string(),
  limits: z.object({ interactions: limit, deployments: limit, sparks: limit, documents: limit }),
  documentSharing: z.boolean(),
  overage_unit_amount: z.number(),
});
export type PriceView = z.infer<typeof priceViewSchema>;

/** docs/product.md §3 Credit catalog item (GET /billing/catalog/credits → { items }). */
export const creditItemViewSchema = z.object({
  _id: z.string(),
  productId: z.string(),
  priceId: z.string(),
  /** The name in English (the fallback); screens show `names[language]`. */
  name: z.string(),
  names: localizedNamesSchema,
  unit_amount: z.number(),
  currency: z.string(),
  limits: z.object({ interactions: limit }),
});
export type CreditItemView = z.infer<typeof creditItemViewSchema>;
export const creditCatalogSchema = z.object({ items: z.array(creditItemViewSchema) });

/** docs/product.md §3 Subscription (GET /billing/subscriptions/{customerId}). */
export const subscriptionViewSchema = z.object({
  subscriptionId: z.string(),
  customerId: z.string(),
  productName: z.string(),
  slug: z.string(),
  priceId: z.string(),
  status: z.string(),
  currentPeriodStart: z.string(),
  currentPeriodEnd: z.string(),
  /**
   * Who manages it: `stripe` (changed and cancelled in Stripe's Customer Portal) or `local` (the embedded test
   * provider, which has no portal: the plan is changed in the app's plans popup).
   */
  provider: z.enum(['local', 'stripe']),
});
export type SubscriptionView = z.infer<typeof subscriptionViewSchema>;

export const checkoutSessionViewSchema = z.object({
  id: z.string(),
  mode: z.enum(['subscription', 'payment']),
  status: z.string(),
  provider: z.string(),
  priceId: z.string(),
  productName: z.string(),
  /** What is bought, as each language writes it (a plan's name is the same in both). */
  names: localizedNamesSchema,
  unit_amount: z.number(),
  currency: z.string(),
  interactions: z.number().nullable(),
});
export type CheckoutSessionView = z.infer<typeof checkoutSessionViewSchema>;

/** GET /billing/credits/{feature}/available. */
export const availableCreditsSchema = z.object({ total: z.number() });
/** POST /billing/customers/{customerId}/session. */
export const checkoutUrlSchema = z.object({ sessionUrl: z.string() });
/** POST /billing/customers/{customerId}/portal: where the customer changes or cancels the plan. */
export const portalSessionSchema = z.object({ sessionUrl: z.string() });
/** POST /billing/webhooks/stripe: the event was taken (a duplicate too: it had been). */
export const webhookReceiptSchema = z.object({ received: z.literal(true), duplicate: z.boolean() });
/** POST /billing/credits/purchase. */
export const creditPurchaseResultSchema = z.object({
  success: z.boolean(),
  status: z.enum(['paid', 'open']),
  sessionUrl: z.string().optional(),
});
/**
 * GET and PUT /billing/overage: the owner's overage setting and this period's overage. `available` is false without a
 * paid plan with a premium rate (the free plan has no overage: turning it on is `OVERAGE_NEEDS_PLAN`).
 */
export const overageViewSchema = z.object({
  enabled: z.boolean(),
  /** Monthly spending cap in cents. */
  capCents: z.number(),
  available: z.boolean(),
  /** The plan's premium rate, cents per interaction beyond the plan and the packs (0 without a paid plan). */
  unitAmount: z.number(),
  currency: z.string(),
  /** Overage interactions counted this period, and what they cost in cents. */
  usedInteractions: z.number(),
  spentCents: z.number(),
  /** When this period's overage starts again from 0. */
  periodEnd: z.string(),
});
export type OverageView = z.infer<typeof overageViewSchema>;
