import { asc, eq } from 'drizzle-orm';
import { calendarMonth, FREE_PLAN_SLUG, rolledPeriod } from '@sparks/domain/billing';
import type { Database, Executor, Transaction } from '../client';
import { checkoutSessions, creditPacks, plans, tenantBilling, tenants } from '../schema/index';

export type PlanRow = typeof plans.$inferSelect;
export type CreditPackRow = typeof creditPacks.$inferSelect;
export type TenantBillingRow = typeof tenantBilling.$inferSelect;
export type CheckoutSessionRow = typeof checkoutSessions.$inferSelect;
export type BillingTenantRow = typeof tenants.$inferSelect;

/**
 * What the billing repositories share: the tenant's row lock and its billing row. Every change to a tenant's balance
 * or plan locks its `tenants` row first, so changes of one tenant are serialised and the balance can never be spent
 * twice.
 */
export async function lockTenant(tx: Transaction, tenantId: string): Promise<BillingTenantRow | undefined> {
  const [row] = await tx.select().from(tenants).where(eq(tenants.id, tenantId)).for('update');
  return row;
}

/**
 * The tenant's billing row inside `tx` (the tenant row already locked): created on first use on the free plan, and
 * moved to the current period when the last one ended (`rolledPeriod`: usage and overage start again).
 */
export async function billingRow(tx: Transaction, tenant: BillingTenantRow, now: Date): Promise<TenantBillingRow> {
  let [row] = await tx.select().from(tenantBilling).where(eq(tenantBilling.tenantId, tenant.id));
  if (!row) {
    const month = calendarMonth(now);
    [row] = await tx
      .insert(tenantBilling)
      .values({ tenantId: tenant.id, periodStart: month.start, periodEnd: month.end })
      .onConflictDoNothing()
      .returning();
    if (!row) [row] = await tx.select().from(tenantBilling).where(eq(tenantBilling.tenantId, tenant.id));
  }
  const next = rolledPeriod({ start: row.periodStart, end: row.periodEnd, free: row.planSlug === FREE_PLAN_SLUG }, now);
  if (next) {
    [row] = await tx
      .update(tenantBilling)
      .set({ periodStart: next.start, periodEnd: next.end, overageUsed: 0, updatedAt: now })
      .where(eq(tenantBilling.tenantId, tenant.id))
      .returning();
    await tx.update(tenants).set({ usageInteractions: 0 }).where(eq(tenants.id, tenant.id));
    tenant.usageInteractions = 0;
  }
  return row;
}

/** The tenant with its billing row and plan, the period moved on when due (undefined: no such tenant). */
export function billingState(db: Database, tenantId: string, now: Date) {
  return db.transaction(async (tx) => {
    const tenant = await lockTenant(tx, tenantId);
    if (!tenant) return undefined;
    const billing = await billingRow(tx, tenant, now);
    const [plan] = await tx.select().from(plans).where(eq(plans.slug, billing.planSlug));
    return { tenant, billing, plan };
  });
}

/** The user's first tenant (the one billing and the meter act on). */
export async function firstTenantOf(db: Executor, userId: string): Promise<BillingTenantRow | undefined> {
  const [row] = await db
    .select()
    .from(tenants)
    .where(eq(tenants.userId, userId))
    .orderBy(asc(tenants.createdAt))
    .limit(1);
  return row;
}
