/**
 * What a paid checkout, and the end of a subscription, change on the tenant (plain values: the repository writes
 * them inside the transaction that locked the tenant). Checkout sessions are of mode `subscription` (a plan) or
 * `payment` (a credit pack).
 */

import { BILLING_STEPS } from '@sparks/core';
import { addMonth, calendarMonth, type Period } from './period';
import { FREE_PLAN_SLUG } from './plan';

/** A plan of the catalogue, as far as the tenant's terms go. */
export interface PlanTerms {
  slug: string;
  productName: string;
  limitInteractions: number;
  limitDeployments: number;
}

/** The plan written on the tenant's row. */
export interface TenantPlanChange {
  productName: string;
  subscriptionId: string | null;
  limitInteractions: number;
  limitDeployments: number;
  /** Usage starts again (a new plan); absent: kept. */
  usageInteractions?: number;
}

/** The tenant's billing row after the change. */
export interface BillingChange {
  planSlug: string;
  subscriptionStatus: string;
  periodStart: Date;
  periodEnd: Date;
  overageUsed?: number;
  updatedAt: Date;
}

/**
 * A paid plan checkout: the plan becomes the tenant's subscription (`sub_{sessionId}` when the provider gives none),
 * usage and overage start again, and the period is the provider's or a month from now. `held` when the tenant already
 * has a subscription to that plan (a second, stale checkout opened before the first was paid): nothing changes.
 */
export function planFulfilment(input: {
  tenant: { subscriptionId: string | null; productName: string };
  plan: PlanTerms;
  sessionId: string;
  subscriptionId?: string;
  period?: Period;
  now: Date;
}): { held: true } | { held: false; tenant: TenantPlanChange; billing: BillingChange } {
  const { tenant, plan, now } = input;
  if (tenant.subscriptionId && tenant.productName === plan.productName) return { held: true };
  return {
    held: false,
    tenant: {
      productName: plan.productName,
      subscriptionId: input.subscriptionId ?? `sub_${input.sessionId}`,
      limitInteractions: plan.limitInteractions,
      limitDeployments: plan.limitDeployments,
      usageInteractions: 0,
    },
    billing: {
      planSlug: plan.slug,
      subscriptionStatus: 'active',
      periodStart: input.period?.start ?? now,
      periodEnd: input.period?.end ?? addMonth(now),
      overageUsed: 0,
      updatedAt: now,
    },
  };
}

/** The billing assistant's objective steps a paid checkout completes: a plan chosen and paid, or a pack bought. */
export function fulfilmentSteps(mode: string): string[] {
  return mode === 'subscription' ? [BILLING_STEPS.choose, BILLING_STEPS.pay] : [BILLING_STEPS.credits];
}

/**
 * The subscription ended: back to the free plan (`free`, the catalogue's), counted by calendar month from `now`'s;
 * the usage of the month is kept, and the trial's end is unchanged (it may be over).
 */
export function subscriptionEnd(free: PlanTerms, now: Date): { tenant: TenantPlanChange; billing: BillingChange } {
  const month = calendarMonth(now);
  return {
    tenant: {
      productName: free.productName,
      subscriptionId: null,
      limitInteractions: free.limitInteractions,
      limitDeployments: free.limitDeployments,
    },
    billing: {
      planSlug: FREE_PLAN_SLUG,
      subscriptionStatus: 'canceled',
      periodStart: month.start,
      periodEnd: month.end,
      updatedAt: now,
    },
  };
}
