import { Logger } from '@nestjs/common';
import { DomainError, type AppConfig } from '@sparks/core';
import type { CheckoutRepository, Clock, CreditPackRow, PlanRow, StripeLinkRepository, TenantRow } from '@sparks/db';
import type { Stripe } from '@sparks/nest';
import { createHash } from 'node:crypto';
import { isLocalSubscription, type CheckoutItem, type PaymentProvider } from '../payment-provider';

/** Stripe's answer for an object it no longer has: already gone is what was asked. */
const gone = (err: unknown) => (err as { code?: string; statusCode?: number }).code === 'resource_missing';

const hash = (...parts: Array<string | number>) => createHash('sha256').update(parts.join('\u0000')).digest('hex');

/** A Stripe failure the caller can retry: the client gets 503, never a 500 with Stripe's words. */
async function guarded<T>(logger: Logger, what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (err instanceof DomainError) throw err;
    logger.error({ err }, `Stripe: ${what} failed`);
    throw DomainError.of('PAYMENT_PROVIDER_UNAVAILABLE');
  }
}

interface PriceSpec {
  lookupKey: string;
  productId: string;
  productName: string;
  unitAmount: number;
  currency: string;
  recurring?: { interval: 'month'; usage_type?: 'metered'; meter?: string };
}

/**
 * Stripe Checkout (subscription mode for plans, payment mode for credit packs) and the Customer
 * Portal. Stripe's prices are made from our catalogue: each is found by its lookup key (our
 * `priceId`) and made again when its amount, currency or interval no longer match the row, so the
 * amount charged is always the catalogue's. One Stripe customer per tenant.
 */
export class StripePaymentProvider implements PaymentProvider {
  readonly name = 'stripe' as const;
  readonly chargesPacksAtOnce = false;
  private readonly logger = new Logger('StripePaymentProvider');
  /** Resolved Stripe price ids by everything that defines them (so a changed amount is a new price). */
  private readonly prices = new Map<string, Promise<string>>();
  private meter?: Promise<string>;

  constructor(
    private readonly stripe: Stripe,
    private readonly checkouts: CheckoutRepository,
    private readonly stripeLink: StripeLinkRepository,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  /** The tenant's Stripe customer, created once (an idempotency key per tenant makes racing requests share it). */
  async customerOf(tenant: TenantRow): Promise<string> {
    const known = await this.stripeLink.stripeCustomerOf(tenant.id);
    if (known) return known;
    const customer = await this.stripe.customers.create(
      { metadata: { tenantId: tenant.id, customerId: tenant.customerId } },
      { idempotencyKey: `sparks-customer-${tenant.id}` },
    );
    return this.stripeLink.setStripeCustomer(tenant.id, customer.id, this.clock.now());
  }

  private priceOf(spec: PriceSpec): Promise<string> {
    const key = JSON.stringify(spec);
    let price = this.prices.get(key);
    if (!price) {
      price = this.resolvePrice(spec);
      price.catch(() => this.prices.delete(key));
      this.prices.set(key, price);
    }
    return price;
  }

  private async resolvePrice(spec: PriceSpec): Promise<string> {
    const [found] = (await this.stripe.prices.list({ lookup_keys: [spec.lookupKey], active: true, limit: 1 })).data;
    const matches =
      found &&
      found.unit_amount === spec.unitAmount &&
      found.currency === spec.currency &&
      (found.recurring?.interval ?? undefined) === spec.recurring?.interval &&
      (found.recurring?.usage_type ?? 'licensed') === (spec.recurring?.usage_type ?? 'licensed') &&
      (found.recurring?.meter ?? undefined) === spec.recurring?.meter;
    if (matches) return found.id;
    const product = `sparks_${spec.productId}`;
    try {
      await this.stripe.products.create({ id: product, name: spec.productName });
    } catch (err) {
      if ((err as { code?: string }).code !== 'resource_already_exists') throw err;
    }
    const created = await this.stripe.prices.create(
      {
        product,
        unit_amount: spec.unitAmount,
        currency: spec.currency,
        lookup_key: spec.lookupKey,
        transfer_lookup_key: true,
        ...(spec.recurring ? { recurring: spec.recurring } : {}),
      },
      { idempotencyKey: `sparks-price-${hash(JSON.stringify(spec))}` },
    );
    return created.id;
  }

  /** The billing meter that overage interactions are reported to (worker: `usage.meter`). */
  private meterId(): Promise<string> {
    this.meter ??= (async () => {
      const eventName = this.config.STRIPE_METER_EVENT_NAME;
      const meters = await this.stripe.billing.meters.list({ status: 'active', limit: 100 });
      const found = meters.data.find((m) => m.event_name === eventName);
      if (found) return found.id;
      const created = await this.stripe.billing.meters.create(
        {
          display_name: 'Sparks overage interactions',
          event_name: eventName,
          default_aggregation: { formula: 'sum' },
          customer_mapping: { type: 'by_id', event_payload_key: 'stripe_customer_id' },
          value_settings: { event_payload_key: 'value' },
        },
        { idempotencyKey: `sparks-meter-${eventName}` },
      );
      return created.id;
    })();
    this.meter.catch(() => (this.meter = undefined));
    return this.meter;
  }

  private planPrice(plan: PlanRow): Promise<string> {
    return this.priceOf({
      lookupKey: plan.priceId,
      productId: plan.productId,
      productName: plan.productName,
      unitAmount: plan.unitAmount,
      currency: plan.currency,
      recurring: { interval: 'month' },
    });
  }

  private async overagePrice(plan: PlanRow): Promise<string> {
    return this.priceOf({
      lookupKey: `${plan.priceId}_overage`,
      productId: plan.productId,
      productName: plan.productName,
      unitAmount: plan.overageUnitAmount,
      currency: plan.currency,
      recurring: { interval: 'month', usage_type: 'metered', meter: await this.meterId() },
    });
  }

  private packPrice(pack: CreditPackRow): Promise<string> {
    return this.priceOf({
      lookupKey: pack.priceId,
      productId: pack.productId,
      productName: pack.name,
      unitAmount: pack.unitAmount,
      currency: pack.currency,
    });
  }

  async createCheckout(
    tenant: TenantRow,
    item: CheckoutItem,
    returnTo = '/billing',
  ): Promise<{ sessionId: string; sessionUrl: string }> {
    return guarded(this.logger, 'checkout', async () => {
      const customer = await this.customerOf(tenant);
      const priceId = item.mode === 'subscription' ? item.plan.priceId : item.pack.priceId;
      const lineItems: Array<{ price: string; quantity?: number }> = [];
      if (item.mode === 'subscription') {
        lineItems.push({ price: await this.planPrice(item.plan), quantity: 1 });
        // Metered: no quantity; Stripe bills what the meter events add up to.
        if (item.plan.overageUnitAmount > 0) lineItems.push({ price: await this.overagePrice(item.plan) });
      } else {
        lineItems.push({ price: await this.packPrice(item.pack), quantity: 1 });
      }
      const metadata = { tenantId: tenant.id, priceId };
      // The same purchase asked again (a double click, a retry, two tabs) gets the same session,
      // until one of this price is paid: the next purchase is a new one.
      const paid = await this.checkouts.paidCheckouts(tenant.id, priceId);
      // Back where the checkout was opened (issue 34, item 9), with the result in the query the app reads.
      const back = (result: string) =>
        `${this.config.APP_URL}${returnTo}${returnTo.includes('?') ? '&' : '?'}checkout=${result}`;
      const idempotencyKey = `sparks-checkout-${hash(tenant.id, customer, item.mode, priceId, paid, JSON.stringify(lineItems), returnTo)}`;
      const session = await this.stripe.checkout.sessions.create(
        {
          mode: item.mode,
          customer,
          client_reference_id: tenant.id,
          line_items: lineItems,
          metadata,
          success_url: `${back('success')}&session_id={CHECKOUT_SESSION_ID}`,
          cancel_url: back('cancel'),
          ...(item.mode === 'subscription'
            ? { subscription_data: { metadata } }
            : { payment_intent_data: { metadata } }),
        },
        { idempotencyKey },
      );
      if (!session.url) throw new Error(`Stripe answered checkout session ${session.id} without a url`);
      await this.checkouts.createCheckout({
        id: session.id,
        tenantId: tenant.id,
        mode: item.mode,
        priceId,
        provider: 'stripe',
        url: session.url,
      });
      return { sessionId: session.id, sessionUrl: session.url };
    });
  }

  async portal(tenant: TenantRow): Promise<{ url: string }> {
    return guarded(this.logger, 'customer portal', async () => {
      const session = await this.stripe.billingPortal.sessions.create({
        customer: await this.customerOf(tenant),
        return_url: `${this.config.APP_URL}/billing`,
      });
      return { url: session.url };
    });
  }

  /**
   * Cancels the tenant's subscription at Stripe now (no proration, no renewal) and deletes its Stripe customer, whose
   * saved payment methods go with it (Stripe keeps its own records of past payments). A subscription made by the
   * local provider before Stripe was configured ends in our database only.
   */
  async cancelForDeletion(tenant: TenantRow): Promise<'stripe' | 'local' | null> {
    return guarded(this.logger, 'cancelling for an account deletion', async () => {
      let canceled: 'stripe' | 'local' | null = null;
      const subscription = tenant.subscriptionId;
      if (subscription && isLocalSubscription(subscription)) {
        if (await this.checkouts.endSubscription(tenant.id, this.clock.now(), subscription)) canceled = 'local';
      } else if (subscription) {
        try {
          const sub = await this.stripe.subscriptions.retrieve(subscription);
          if (sub.status !== 'canceled' && sub.status !== 'incomplete_expired') {
            await this.stripe.subscriptions.cancel(subscription);
          }
        } catch (err) {
          if (!gone(err)) throw err;
        }
        canceled = 'stripe';
      }
      const customer = await this.stripeLink.stripeCustomerOf(tenant.id);
      if (customer) {
        try {
          await this.stripe.customers.del(customer);
        } catch (err) {
          if (!gone(err)) throw err;
        }
      }
      return canceled;
    });
  }
}
