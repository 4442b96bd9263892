/**
 * The trial (docs/product.md §9): a new tenant's free plan is usable until `trialEndsAt` (`TRIAL_DAYS` after sign-up).
 * Once it has passed, a tenant without a paid subscription can neither answer (402 `TRIAL_ENDED`) nor keep a Spark
 * published (its deployment limit is 0). The api's profile and the worker's billing assistant show the same state.
 */

const DAY_MS = 86_400_000;

/** True once the trial is over and no paid subscription replaces it (the instant `trialEndsAt` itself is over). */
export function trialEnded(tenant: { subscriptionId: string | null; trialEndsAt: Date }, now: Date): boolean {
  return !tenant.subscriptionId && tenant.trialEndsAt.getTime() <= now.getTime();
}

/**
 * The trial as the profile shows it: active until its end, and its days left rounded up (a started day counts: 1 on
 * the last day, 0 once over).
 */
export function trialState(trialEndsAt: Date, now: Date): { active: boolean; daysLeft: number } {
  const left = trialEndsAt.getTime() - now.getTime();
  return { active: left > 0, daysLeft: Math.max(0, Math.ceil(left / DAY_MS)) };
}
