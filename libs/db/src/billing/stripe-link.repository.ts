import { and, eq, isNull, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../client';
import { creditPacks, plans, tenantBilling, usageEvents } from '../schema/index';
import { billingState } from './tenant-billing';

/**
 * What ties billing to Stripe: the tenant's customer id, the catalogue's Stripe price ids, and the overage
 * interactions reported to Stripe's billing meter (each usage event once).
 */
export class StripeLinkRepository {
  constructor(private readonly db: Database) {}

  // — the payment provider's customer —

  async stripeCustomerOf(tenantId: string): Promise<string | null> {
    const [row] = await this.db
      .select({ id: tenantBilling.stripeCustomerId })
      .from(tenantBilling)
      .where(eq(tenantBilling.tenantId, tenantId));
    return row?.id ?? null;
  }

  /** Keeps the first Stripe customer recorded for the tenant and answers the one kept. */
  async setStripeCustomer(tenantId: string, customerId: string, now: Date): Promise<string> {
    // The billing row exists from here on (made, or its period moved on, as any read of the state does).
    await billingState(this.db, tenantId, now);
    await this.db
      .update(tenantBilling)
      .set({ stripeCustomerId: customerId })
      .where(and(eq(tenantBilling.tenantId, tenantId), isNull(tenantBilling.stripeCustomerId)));
    return (await this.stripeCustomerOf(tenantId)) ?? customerId;
  }

  async tenantByStripeCustomer(stripeCustomerId: string): Promise<string | undefined> {
    const [row] = await this.db
      .select({ tenantId: tenantBilling.tenantId })
      .from(tenantBilling)
      .where(eq(tenantBilling.stripeCustomerId, stripeCustomerId));
    return row?.tenantId;
  }

  async setStripePriceId(kind: 'plan' | 'pack', priceId: string, stripePriceId: string): Promise<void> {
    if (kind === 'plan') await this.db.update(plans).set({ stripePriceId }).where(eq(plans.priceId, priceId));
    else await this.db.update(creditPacks).set({ stripePriceId }).where(eq(creditPacks.priceId, priceId));
  }

  // — overage reported to Stripe's meter —

  /** The usage event of an answered message, if recorded. */
  async usageEventOf(messageId: string) {
    return this.usageEventWhere(eq(usageEvents.messageId, messageId));
  }

  /**
   * Of these messages, the overage interactions not reported to Stripe yet: message id → usage event id.
   * One statement for a whole `usage.record` batch (recorded by this run or before it).
   */
  async unreportedOverageOf(messageIds: string[]): Promise<Map<string, string>> {
    if (messageIds.length === 0) return new Map();
    const rows = await this.db
      .select({ id: usageEvents.id, messageId: usageEvents.messageId })
      .from(usageEvents)
      .where(
        and(
          sql`${usageEvents.messageId} = ANY(${sql.param(messageIds)}::uuid[])`,
          eq(usageEvents.source, 'overage'),
          isNull(usageEvents.meterReportedAt),
        ),
      );
    return new Map(rows.map((r) => [r.messageId, r.id]));
  }

  /** A usage event with its tenant's Stripe customer. */
  async usageEventById(id: string) {
    return this.usageEventWhere(eq(usageEvents.id, id));
  }

  private async usageEventWhere(where: SQL) {
    const [row] = await this.db
      .select({
        id: usageEvents.id,
        source: usageEvents.source,
        createdAt: usageEvents.createdAt,
        meterReportedAt: usageEvents.meterReportedAt,
        stripeCustomerId: tenantBilling.stripeCustomerId,
      })
      .from(usageEvents)
      .leftJoin(tenantBilling, eq(tenantBilling.tenantId, usageEvents.tenantId))
      .where(where);
    return row;
  }

  async markMeterReported(usageEventId: string, now: Date): Promise<void> {
    await this.db
      .update(usageEvents)
      .set({ meterReportedAt: now })
      .where(and(eq(usageEvents.id, usageEventId), isNull(usageEvents.meterReportedAt)));
  }
}
