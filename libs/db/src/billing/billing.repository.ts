import { asc, eq, sql } from 'drizzle-orm';
import type { Database } from '../client';
import { planOfUser, type PlanOfUser } from '../plan-limits';
import { creditPacks, plans, tenantBilling, tenants } from '../schema/index';
import { billingState, firstTenantOf, type BillingTenantRow, type CreditPackRow, type PlanRow } from './tenant-billing';

/**
 * The catalogue (plans, credit packs) and a tenant's billing state: its plan and period, its credits left, its
 * overage settings. Spending, checkout and the payment provider's ids are the other billing repositories'
 * (`UsageRepository`, `CheckoutRepository`, `StripeLinkRepository`); the rules are `@sparks/domain/billing`'s.
 */
export class BillingRepository {
  constructor(private readonly db: Database) {}

  // — catalogue —

  plans(): Promise<PlanRow[]> {
    return this.db.select().from(plans).orderBy(asc(plans.sortOrder));
  }

  async planBySlug(slug: string): Promise<PlanRow | undefined> {
    const [row] = await this.db.select().from(plans).where(eq(plans.slug, slug));
    return row;
  }

  async planByPriceId(priceId: string): Promise<PlanRow | undefined> {
    const [row] = await this.db.select().from(plans).where(eq(plans.priceId, priceId));
    return row;
  }

  creditPacks(): Promise<CreditPackRow[]> {
    return this.db.select().from(creditPacks).orderBy(asc(creditPacks.interactions));
  }

  async creditPack(productId: string): Promise<CreditPackRow | undefined> {
    const [row] = await this.db.select().from(creditPacks).where(eq(creditPacks.productId, productId));
    return row;
  }

  async creditPackByPriceId(priceId: string): Promise<CreditPackRow | undefined> {
    const [row] = await this.db.select().from(creditPacks).where(eq(creditPacks.priceId, priceId));
    return row;
  }

  /** The plan of the user's tenant (see `planOfUser`): where every per-plan limit is read. */
  planOfUser(userId: string): Promise<PlanOfUser | undefined> {
    return planOfUser(this.db, userId);
  }

  // — tenant state —

  firstTenantOf(userId: string): Promise<BillingTenantRow | undefined> {
    return firstTenantOf(this.db, userId);
  }

  async tenantByCustomerId(customerId: string): Promise<BillingTenantRow | undefined> {
    const [row] = await this.db.select().from(tenants).where(eq(tenants.customerId, customerId));
    return row;
  }

  /** The tenant with its billing row and plan, the period moved on when due. */
  state(tenantId: string, now: Date) {
    return billingState(this.db, tenantId, now);
  }

  /** Interactions of purchased packs not spent yet (held ones excluded). */
  async availableCredits(tenantId: string): Promise<number> {
    const res = await this.db.execute<{ total: string | null }>(sql`
      SELECT COALESCE(SUM(c.interactions - c.used), 0)
           - (SELECT count(*) FROM usage_reservations r WHERE r.tenant_id = ${tenantId} AND r.source = 'credits') AS total
      FROM tenant_credits c WHERE c.tenant_id = ${tenantId}`);
    return Math.max(0, Number(res.rows[0]?.total ?? 0));
  }

  async setOverage(tenantId: string, enabled: boolean, capCents: number): Promise<void> {
    await this.db
      .update(tenantBilling)
      .set({ overageEnabled: enabled, overageCapCents: capCents })
      .where(eq(tenantBilling.tenantId, tenantId));
  }
}
