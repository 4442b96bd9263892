/**
 * The spending order of an interaction (docs/product.md §9): the plan's allowance for the period first, then the
 * credit packs bought, oldest first, then overage — only with a paid subscription, overage turned on, and while the
 * period's overage stays within its cap. Held interactions (reserved, not recorded yet) count as spent.
 */

export type UsageSource = 'plan' | 'credits' | 'overage';

/** The plan's allowance in the period: interactions recorded, held, and the plan's limit. */
export interface PlanBalance {
  used: number;
  held: number;
  limit: number;
}

/** A credit pack with its interactions, those recorded and those held. */
export interface PackBalance {
  id: string;
  interactions: number;
  used: number;
  held: number;
}

/** The period's overage: whether it may be used at all, what it cost so far and its cap. */
export interface OverageBalance {
  enabled: boolean;
  /** The tenant has a paid subscription (overage is billed with it). */
  subscribed: boolean;
  used: number;
  held: number;
  /** The plan's price of one overage interaction, in cents (0: the plan has none). */
  unitAmount: number;
  capCents: number;
}

export type NextSource = { source: 'plan' } | { source: 'credits'; creditId: string } | { source: 'overage' };

/** Whether the plan's allowance still has an interaction free. */
export function planHasRoom(plan: PlanBalance): boolean {
  return plan.used + plan.held < plan.limit;
}

/** The first pack (in the order given: oldest first) with an interaction free. */
export function packWithRoom(packs: PackBalance[]): PackBalance | undefined {
  return packs.find((p) => p.used + p.held < p.interactions);
}

/** Whether one more overage interaction keeps the period's overage within its cap. */
export function overageHasRoom(o: OverageBalance): boolean {
  return o.enabled && o.subscribed && o.unitAmount > 0 && (o.used + o.held + 1) * o.unitAmount <= o.capCents;
}

/** Which source pays the next interaction, in the spending order; undefined when none can (`OUT_OF_INTERACTIONS`). */
export function nextSource(b: {
  plan: PlanBalance;
  packs: PackBalance[];
  overage: OverageBalance;
}): NextSource | undefined {
  if (planHasRoom(b.plan)) return { source: 'plan' };
  const pack = packWithRoom(b.packs);
  if (pack) return { source: 'credits', creditId: pack.id };
  if (overageHasRoom(b.overage)) return { source: 'overage' };
  return undefined;
}
