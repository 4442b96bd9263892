import { and, eq, sql } from 'drizzle-orm';
import { BILLING_OBJECTIVES_KEY } from '@sparks/core';
import {
  FREE_PLAN_SLUG,
  fulfilmentSteps,
  planFulfilment,
  providerPeriodChange,
  subscriptionEnd,
} from '@sparks/domain/billing';
import type { Database } from '../client';
import { setObjectiveStep } from '../objectives.repository';
import {
  billingEvents,
  checkoutSessions,
  creditPacks,
  plans,
  tenantBilling,
  tenantCredits,
  tenants,
} from '../schema/index';
import { billingRow, lockTenant, type CheckoutSessionRow } from './tenant-billing';

/**
 * Purchases: checkout sessions and their fulfilment (a plan becomes the tenant's subscription, a pack its credits),
 * the subscription's renewals and end, and the payment provider's events (recorded once). What each changes is
 * decided in `@sparks/domain/billing` (`planFulfilment`, `providerPeriodChange`, `subscriptionEnd`); here it is
 * written, under the tenant's row lock.
 */
export class CheckoutRepository {
  constructor(private readonly db: Database) {}

  /** Records a checkout session; the same provider session recorded twice is kept once. */
  async createCheckout(row: typeof checkoutSessions.$inferInsert): Promise<CheckoutSessionRow> {
    const [created] = await this.db.insert(checkoutSessions).values(row).onConflictDoNothing().returning();
    return created ?? (await this.checkout(row.id))!;
  }

  async checkout(id: string): Promise<CheckoutSessionRow | undefined> {
    const [row] = await this.db.select().from(checkoutSessions).where(eq(checkoutSessions.id, id));
    return row;
  }

  async cancelCheckout(id: string): Promise<void> {
    await this.db
      .update(checkoutSessions)
      .set({ status: 'canceled' })
      .where(and(eq(checkoutSessions.id, id), eq(checkoutSessions.status, 'open')));
  }

  /** How many checkouts of this price the tenant has paid: a new purchase after one is a new checkout. */
  async paidCheckouts(tenantId: string, priceId: string): Promise<number> {
    const [row] = await this.db
      .select({ n: sql<number>`count(*)::int` })
      .from(checkoutSessions)
      .where(
        and(
          eq(checkoutSessions.tenantId, tenantId),
          eq(checkoutSessions.priceId, priceId),
          sql`${checkoutSessions.fulfilledAt} IS NOT NULL`,
        ),
      );
    return Number(row?.n ?? 0);
  }

  /**
   * Fulfils a paid checkout session: a plan becomes the tenant's subscription, a pack becomes
   * credits. Runs any number of times for the same session with one effect (the session row is
   * locked and marked fulfilled in the same transaction). Answers false when nothing was done, and
   * `'plan-held'` for a plan session whose plan the tenant already holds (a second, stale checkout
   * opened before the first was paid): it is closed (`canceled`) and nothing changes, usage included.
   */
  async fulfil(
    sessionId: string,
    now: Date,
    subscriptionId?: string,
    period?: { start: Date; end: Date },
  ): Promise<boolean | 'plan-held'> {
    return this.db.transaction(async (tx) => {
      const [session] = await tx
        .select()
        .from(checkoutSessions)
        .where(eq(checkoutSessions.id, sessionId))
        .for('update');
      if (!session || session.fulfilledAt || session.status === 'canceled') return false;
      const tenant = await lockTenant(tx, session.tenantId);
      if (!tenant) return false;
      await billingRow(tx, tenant, now);
      if (session.mode === 'subscription') {
        const [plan] = await tx.select().from(plans).where(eq(plans.priceId, session.priceId));
        if (!plan) return false;
        const change = planFulfilment({ tenant, plan, sessionId: session.id, subscriptionId, period, now });
        if (change.held) {
          await tx.update(checkoutSessions).set({ status: 'canceled' }).where(eq(checkoutSessions.id, session.id));
          return 'plan-held';
        }
        await tx.update(tenants).set(change.tenant).where(eq(tenants.id, tenant.id));
        await tx.update(tenantBilling).set(change.billing).where(eq(tenantBilling.tenantId, tenant.id));
      } else {
        const [pack] = await tx.select().from(creditPacks).where(eq(creditPacks.priceId, session.priceId));
        if (!pack) return false;
        await tx
          .insert(tenantCredits)
          .values({
            tenantId: tenant.id,
            productId: pack.productId,
            interactions: pack.interactions,
            checkoutSessionId: session.id,
            createdAt: now,
          })
          .onConflictDoNothing();
      }
      await tx
        .update(checkoutSessions)
        .set({ status: 'paid', fulfilledAt: now })
        .where(eq(checkoutSessions.id, session.id));
      // The billing assistant's objectives, with the purchase: a plan chosen and paid, or a pack bought.
      for (const stepId of fulfilmentSteps(session.mode))
        await setObjectiveStep(tx, {
          userId: tenant.userId,
          key: BILLING_OBJECTIVES_KEY,
          flow: 'billing',
          stepId,
          status: 'completed',
        });
      return true;
    });
  }

  /**
   * The subscription ended: back to the free plan (whose trial may be over). With
   * `subscriptionId`, only when that is still the tenant's subscription (the end of a plan that was
   * replaced by another changes nothing). Answers whether it ended.
   */
  async endSubscription(tenantId: string, now: Date, subscriptionId?: string): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const tenant = await lockTenant(tx, tenantId);
      if (!tenant) return false;
      if (subscriptionId !== undefined && tenant.subscriptionId !== subscriptionId) return false;
      const [free] = await tx.select().from(plans).where(eq(plans.slug, FREE_PLAN_SLUG));
      await billingRow(tx, tenant, now);
      const change = subscriptionEnd(free, now);
      await tx.update(tenants).set(change.tenant).where(eq(tenants.id, tenantId));
      await tx.update(tenantBilling).set(change.billing).where(eq(tenantBilling.tenantId, tenantId));
      return true;
    });
  }

  /**
   * The provider's current state of the tenant's subscription `subscriptionId` (re-read from the
   * provider, never taken from an event): its status, and its period — a period that starts later
   * than ours is a renewal, and usage starts again. Nothing changes when `subscriptionId` is not
   * the tenant's subscription (an old plan, or one whose checkout is not fulfilled yet).
   */
  async applySubscription(
    tenantId: string,
    subscriptionId: string,
    state: { status: 'active' | 'past_due'; periodStart: Date; periodEnd: Date },
    now: Date,
  ): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const tenant = await lockTenant(tx, tenantId);
      if (!tenant || tenant.subscriptionId !== subscriptionId) return false;
      const billing = await billingRow(tx, tenant, now);
      const change = providerPeriodChange(
        { start: billing.periodStart, end: billing.periodEnd },
        { start: state.periodStart, end: state.periodEnd },
      );
      await tx
        .update(tenantBilling)
        .set({
          subscriptionStatus: state.status,
          ...(change.renewed
            ? { periodStart: change.period.start, periodEnd: change.period.end, overageUsed: 0 }
            : change.end
              ? { periodEnd: change.end }
              : {}),
          updatedAt: now,
        })
        .where(eq(tenantBilling.tenantId, tenantId));
      if (change.renewed) await tx.update(tenants).set({ usageInteractions: 0 }).where(eq(tenants.id, tenantId));
      return true;
    });
  }

  /**
   * Records a provider event by its id: `new` the first time, `pending` when it was recorded
   * but its effect was not applied (a delivery that failed half-way), `done` when it was.
   */
  async recordEvent(id: string, type: string, payload: unknown): Promise<'new' | 'pending' | 'done'> {
    const rows = await this.db
      .insert(billingEvents)
      .values({ id, type, payload: payload })
      .onConflictDoNothing()
      .returning({ id: billingEvents.id });
    if (rows.length === 1) return 'new';
    const [seen] = await this.db
      .select({ processedAt: billingEvents.processedAt })
      .from(billingEvents)
      .where(eq(billingEvents.id, id));
    return seen?.processedAt ? 'done' : 'pending';
  }

  async markEventProcessed(id: string, now: Date): Promise<void> {
    await this.db.update(billingEvents).set({ processedAt: now }).where(eq(billingEvents.id, id));
  }
}
