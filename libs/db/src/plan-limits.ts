import { asc, eq, sql } from 'drizzle-orm';
import type { Executor } from './client';
import { plans, tenantBilling, tenants } from './schema/index';
import { FREE_PLAN_SLUG } from '@sparks/domain/billing';

export type PlanOfUser = typeof plans.$inferSelect;

/**
 * The plan of a user's tenant (the first one, as everywhere else), read from the catalogue: the
 * plan of its `tenant_billing` row, or the free plan while that row does not exist yet (it is
 * created on first use). Every per-plan limit (Sparks, documents, document sharing) is read here, on
 * the pool or inside the transaction that counts against it. Undefined only when the catalogue has
 * no free plan (a database without the seed migration).
 */
export async function planOfUser(db: Executor, userId: string): Promise<PlanOfUser | undefined> {
  const [row] = await db
    .select({ plan: plans })
    .from(tenants)
    .leftJoin(tenantBilling, eq(tenantBilling.tenantId, tenants.id))
    .innerJoin(plans, eq(plans.slug, sql`coalesce(${tenantBilling.planSlug}, ${FREE_PLAN_SLUG})`))
    .where(eq(tenants.userId, userId))
    .orderBy(asc(tenants.createdAt))
    .limit(1);
  if (row) return row.plan;
  const [free] = await db.select().from(plans).where(eq(plans.slug, FREE_PLAN_SLUG));
  return free;
}

/** The limit a missing plan stands for: nothing may be added (fail closed). */
export const NO_PLAN_LIMIT = 0;
