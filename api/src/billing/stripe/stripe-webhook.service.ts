import { Logger } from '@nestjs/common';
import { DomainError, type AppConfig } from '@sparks/core';
import type { BillingRepository, CheckoutRepository, Clock, StripeLinkRepository } from '@sparks/db';
import type { Stripe } from '@sparks/nest';

type Subscription = Stripe.Subscription;

/** Stripe's subscription statuses that keep the plan (past_due: Stripe is still retrying the payment). */
const LIVE = new Set<Stripe.Subscription.Status>(['active', 'trialing', 'past_due']);

const idOf = (x: string | { id: string } | null | undefined): string | undefined =>
  typeof x === 'string' ? x : (x?.id ?? undefined);

/**
 * Stripe's webhooks (issue 15). The event is verified by its signature on the raw body; it is
 * recorded once by its id, and its effect is applied from the state re-read from Stripe (never
 * from the event's own copy), so duplicated, shuffled or late deliveries converge on Stripe's
 * truth: a `customer.subscription.updated` that arrives after the cancellation reads a cancelled
 * subscription and cannot bring it back. Fulfilment is `CheckoutRepository.fulfil`, one effect per
 * session however often it runs.
 */
export class StripeWebhookService {
  private readonly logger = new Logger('StripeWebhook');

  constructor(
    private readonly stripe: Stripe,
    private readonly checkouts: CheckoutRepository,
    private readonly billing: BillingRepository,
    private readonly stripeLink: StripeLinkRepository,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  /** 400 INVALID_SIGNATURE (nothing recorded) when the signature does not verify. */
  verify(raw: Buffer, signature: string | undefined): Stripe.Event {
    if (!signature || !this.config.STRIPE_WEBHOOK_SECRET) throw DomainError.of('INVALID_SIGNATURE');
    try {
      return this.stripe.webhooks.constructEvent(raw, signature, this.config.STRIPE_WEBHOOK_SECRET);
    } catch {
      throw DomainError.of('INVALID_SIGNATURE');
    }
  }

  async handle(raw: Buffer, signature: string | undefined): Promise<{ received: true; duplicate: boolean }> {
    const event = this.verify(raw, signature);
    // Signed but not an event (only the secret's holder can send one): refused, never a 500 that Stripe retries.
    const object = (event as { data?: { object?: { id?: unknown } } } | null)?.data?.object;
    if (
      typeof event?.id !== 'string' ||
      event.id === '' ||
      event.id.length > 255 ||
      typeof event.type !== 'string' ||
      typeof object !== 'object' ||
      object === null ||
      typeof object.id !== 'string'
    ) {
      throw DomainError.of('INVALID_PARAMS');
    }
    const seen = await this.checkouts.recordEvent(event.id, event.type, event);
    if (seen === 'done') return { received: true, duplicate: true };
    await this.apply(event);
    await this.checkouts.markEventProcessed(event.id, this.clock.now());
    return { received: true, duplicate: seen !== 'new' };
  }

  /** Events that change nothing here (they are still recorded) are every other type. */
  private async apply(event: Stripe.Event): Promise<void> {
    if (event.type === 'checkout.session.completed' || event.type === 'checkout.session.async_payment_succeeded') {
      await this.fulfil(event.data.object.id);
    } else if (
      event.type === 'customer.subscription.created' ||
      event.type === 'customer.subscription.updated' ||
      event.type === 'customer.subscription.deleted'
    ) {
      await this.syncSubscription(event.data.object.id);
    } else if (event.type === 'invoice.paid' || event.type === 'invoice.payment_failed') {
      const sub = idOf(event.data.object.parent?.subscription_details?.subscription);
      if (sub) await this.syncSubscription(sub);
    }
  }

  /** Fulfils one of our checkout sessions from Stripe's current copy of it. */
  async fulfil(sessionId: string): Promise<void> {
    const ours = await this.checkouts.checkout(sessionId);
    if (!ours || ours.provider !== 'stripe' || ours.fulfilledAt) return;
    const session = await this.stripe.checkout.sessions.retrieve(sessionId);
    if (session.status !== 'complete' || session.payment_status === 'unpaid') return;
    const now = this.clock.now();
    if (ours.mode === 'payment') {
      await this.checkouts.fulfil(sessionId, now);
      return;
    }
    const subscriptionId = idOf(session.subscription);
    if (!subscriptionId) return;
    const sub = await this.stripe.subscriptions.retrieve(subscriptionId);
    // A subscription already cancelled (its deletion came first) is not granted.
    if (!LIVE.has(sub.status)) return;
    const before = await this.billing.state(ours.tenantId, now);
    const previous = before?.tenant.subscriptionId;
    const done = await this.checkouts.fulfil(sessionId, now, sub.id, periodOf(sub));
    if (done === 'plan-held') {
      // A second checkout for the plan already held, paid late: it grants nothing (usage untouched), and the
      // subscription it made at Stripe is cancelled at once, prorated, so the customer is not charged twice.
      try {
        await this.stripe.subscriptions.cancel(sub.id, { prorate: true });
      } catch (err) {
        this.logger.error({ err, subscription: sub.id }, 'Stripe: cancelling a duplicate subscription failed');
      }
      return;
    }
    if (!done) return;
    await this.syncSubscription(sub.id, sub);
    // A plan bought while another was held replaces it: the old one is cancelled at Stripe.
    if (previous && previous !== sub.id && previous.startsWith('sub_') && !previous.startsWith('sub_cs_local_')) {
      try {
        await this.stripe.subscriptions.cancel(previous, { prorate: true });
      } catch (err) {
        this.logger.error({ err, previous }, 'Stripe: cancelling the replaced subscription failed');
      }
    }
  }

  /** Applies Stripe's current state of a subscription to the tenant whose subscription it is. */
  async syncSubscription(subscriptionId: string, known?: Subscription): Promise<void> {
    const sub = known ?? (await this.stripe.subscriptions.retrieve(subscriptionId));
    const customer = idOf(sub.customer);
    const tenantId = (customer && (await this.stripeLink.tenantByStripeCustomer(customer))) || sub.metadata?.tenantId;
    if (!tenantId) return;
    const now = this.clock.now();
    if (!LIVE.has(sub.status)) {
      // canceled, unpaid, incomplete_expired (and incomplete/paused, which grant nothing): back to the free plan.
      if (sub.status === 'incomplete') return;
      await this.checkouts.endSubscription(tenantId, now, sub.id);
      return;
    }
    const period = periodOf(sub);
    await this.checkouts.applySubscription(
      tenantId,
      sub.id,
      { status: sub.status === 'past_due' ? 'past_due' : 'active', periodStart: period.start, periodEnd: period.end },
      now,
    );
  }
}

/** The subscription's current period (on its items since Stripe's 2025 API versions). */
function periodOf(sub: Subscription): { start: Date; end: Date } {
  const items = sub.items?.data ?? [];
  const start = Math.max(...items.map((i) => i.current_period_start), 0);
  const end = Math.max(...items.map((i) => i.current_period_end), 0);
  if (!start || !end) {
    const s = new Date(sub.start_date * 1000);
    const e = new Date(s);
    e.setUTCMonth(e.getUTCMonth() + 1);
    return { start: s, end: e };
  }
  return { start: new Date(start * 1000), end: new Date(end * 1000) };
}
