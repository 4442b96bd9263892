import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, jsonb, pgEnum, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { tenants } from './accounts';
import { createdAt, id, ts } from './common';

/**
 * The catalogue (issue 15): plans and credit packs live in the database, seeded by a migration, so
 * no screen or service hard-codes a price or a limit. `productId`/`priceId` are the ids the spec's
 * routes speak (§3 Price, Credit catalog item); with Stripe keys, `stripePriceId` names the price
 * of the Stripe account that the checkout uses.
 */
export const plans = pgTable(
  'plans',
  {
    slug: text('slug').primaryKey(),
    productId: text('product_id').notNull(),
    priceId: text('price_id').notNull(),
    productName: text('product_name').notNull(),
    /** Cents per month; 0 for the free plan. */
    unitAmount: integer('unit_amount').notNull(),
    currency: text('currency').notNull().default('eur'),
    limitInteractions: integer('limit_interactions').notNull(),
    limitDeployments: integer('limit_deployments').notNull(),
    limitSparks: integer('limit_sparks').notNull(),
    limitDocuments: integer('limit_documents').notNull(),
    documentSharing: boolean('document_sharing').notNull().default(false),
    /** Cents per interaction beyond the plan and the packs, when the owner turned overage on. */
    overageUnitAmount: integer('overage_unit_amount').notNull().default(0),
    /** False for the free plan: it is not sold. */
    purchasable: boolean('purchasable').notNull().default(true),
    sortOrder: integer('sort_order').notNull(),
    stripePriceId: text('stripe_price_id'),
  },
  (t) => [uniqueIndex('plans_price_id_key').on(t.priceId), uniqueIndex('plans_product_id_key').on(t.productId)],
);

export const creditPacks = pgTable(
  'credit_packs',
  {
    productId: text('product_id').primaryKey(),
    priceId: text('price_id').notNull(),
    /** The name in English, the fallback. */
    name: text('name').notNull(),
    /** The name as each language writes it (`{ es: '1000 ITx' }`): what the screens show; `name` when absent. */
    names: jsonb('names').$type<Partial<Record<'en' | 'es', string>>>().notNull().default({}),
    interactions: integer('interactions').notNull(),
    /** Cents (docs/product.md §9: shown as unit_amount / 100, in dollars). */
    unitAmount: integer('unit_amount').notNull(),
    currency: text('currency').notNull().default('usd'),
    stripePriceId: text('stripe_price_id'),
  },
  (t) => [uniqueIndex('credit_packs_price_id_key').on(t.priceId)],
);

/**
 * Billing state of a tenant beyond the spec's `tenants[0].subscription` columns (which stay on
 * `tenants` and are written together with this row): the plan, its period, overage and alerts.
 */
export const tenantBilling = pgTable('tenant_billing', {
  tenantId: uuid('tenant_id')
    .primaryKey()
    .references(() => tenants.id, { onDelete: 'cascade' }),
  planSlug: text('plan_slug').notNull().default('free'),
  /** none (free plan), active, past_due, canceled. */
  subscriptionStatus: text('subscription_status').notNull().default('none'),
  periodStart: ts('period_start').notNull(),
  periodEnd: ts('period_end').notNull(),
  overageEnabled: boolean('overage_enabled').notNull().default(false),
  overageCapCents: integer('overage_cap_cents').notNull().default(0),
  overageUsed: integer('overage_used').notNull().default(0),
  /** The period start for which the 80 % / 100 % e-mail was sent (once per period each). */
  alerted80For: ts('alerted_80_for'),
  alerted100For: ts('alerted_100_for'),
  stripeCustomerId: text('stripe_customer_id'),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

/** Purchased credit packs (ITx): spent oldest first, after the plan's interactions. */
export const tenantCredits = pgTable(
  'tenant_credits',
  {
    id: id(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    productId: text('product_id').notNull(),
    interactions: integer('interactions').notNull(),
    used: integer('used').notNull().default(0),
    /** The checkout session that paid it: fulfilling the same session twice adds nothing. */
    checkoutSessionId: text('checkout_session_id').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('tenant_credits_session_key').on(t.checkoutSessionId),
    index('tenant_credits_tenant_idx').on(t.tenantId, t.createdAt),
    check('tenant_credits_used_range', sql`${t.used} >= 0 AND ${t.used} <= ${t.interactions}`),
  ],
);

export const usageSource = pgEnum('usage_source', ['plan', 'credits', 'overage']);

/**
 * An interaction held for a message whose answer is being produced. It counts against the
 * balance until it is recorded (a usage event) or released (the answer failed).
 */
export const usageReservations = pgTable(
  'usage_reservations',
  {
    id: id(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    source: usageSource('source').notNull(),
    creditId: uuid('credit_id').references(() => tenantCredits.id, { onDelete: 'cascade' }),
    /** The human message whose answer settled it; set with `settledAt`. */
    messageId: uuid('message_id'),
    /** Set when the answer was given: a release can no longer take it back. */
    settledAt: ts('settled_at'),
    createdAt: createdAt(),
  },
  (t) => [
    index('usage_reservations_tenant_idx').on(t.tenantId, t.source),
    uniqueIndex('usage_reservations_message_key').on(t.messageId),
  ],
);

/** One per answered message, ever: the unique message id makes recording idempotent. */
export const usageEvents = pgTable(
  'usage_events',
  {
    id: id(),
    messageId: uuid('message_id').notNull(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    source: usageSource('source').notNull(),
    creditId: uuid('credit_id'),
    periodStart: ts('period_start').notNull(),
    /** When this overage interaction was reported to Stripe as a billing meter event (its identifier is this id). */
    meterReportedAt: ts('meter_reported_at'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('usage_events_message_key').on(t.messageId), index('usage_events_tenant_idx').on(t.tenantId)],
);

/** Checkout sessions of the local provider and of Stripe: what was bought, by whom, and its state. */
export const checkoutSessions = pgTable(
  'checkout_sessions',
  {
    id: text('id').primaryKey(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    /** subscription (a plan) or payment (a credit pack). */
    mode: text('mode').notNull(),
    priceId: text('price_id').notNull(),
    provider: text('provider').notNull(),
    /** open, paid, canceled. */
    status: text('status').notNull().default('open'),
    fulfilledAt: ts('fulfilled_at'),
    /** Where the customer pays it (Stripe's hosted page, or the app's test-payment page). */
    url: text('url'),
    createdAt: createdAt(),
  },
  (t) => [index('checkout_sessions_tenant_idx').on(t.tenantId, t.createdAt)],
);

/**
 * Every payment-provider event, recorded once by its id. `processedAt` is set when its effect was
 * applied: a delivery that failed half-way is applied again on Stripe's next attempt.
 */
export const billingEvents = pgTable('billing_events', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  payload: jsonb('payload').notNull(),
  processedAt: ts('processed_at'),
  createdAt: createdAt(),
});
