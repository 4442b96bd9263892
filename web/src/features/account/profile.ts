import type { TenantView, UserProfile } from '@sparks/contracts';

/** docs/product.md §3: the default plan's productName. */
export const FREE_PLAN = 'Free Plan';

/** docs/product.md §9: the username is cut at 15 characters, or 10 on a narrow sidebar. */
export const USERNAME_CUT = { wide: 15, narrow: 10 } as const;

/** `text` cut to `max` characters plus an ellipsis when longer. */
export function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/**
 * The name a greeting uses (issue 18 item 13): the first name, else the part of the username before an "@"
 * (a raw e-mail address is not a name, and it broke mid-word in the headings).
 */
export function greetingName(profile: Pick<UserProfile, 'firstname' | 'username'> | undefined): string {
  if (!profile) return '';
  const first = profile.firstname?.trim();
  if (first) return first;
  const username = profile.username?.trim() ?? '';
  return username.includes('@') ? username.slice(0, username.indexOf('@')) : username;
}

/** docs/product.md §2: "first last" when there is one, else the username cut to `max` characters. */
export function displayName(profile: Pick<UserProfile, 'firstname' | 'lastname' | 'username'>, max: number): string {
  const full = [profile.firstname, profile.lastname]
    .map((part) => part?.trim() ?? '')
    .filter(Boolean)
    .join(' ');
  return full || cut(profile.username, max);
}

export function firstTenant(profile: UserProfile | undefined): TenantView | undefined {
  return profile?.tenants[0];
}

export type PlanInfo =
  { kind: 'free'; daysLeft: number; trialActive: boolean } | { kind: 'paid'; name: string } | { kind: 'none' };

/** What the profile dropdown says about the plan: the free trial with its days left, or the plan's name. */
export function planInfo(profile: UserProfile | undefined): PlanInfo {
  const tenant = firstTenant(profile);
  if (!tenant) return { kind: 'none' };
  if (tenant.subscription.productName === FREE_PLAN)
    return { kind: 'free', daysLeft: tenant.trial.daysLeft, trialActive: tenant.trial.active };
  return { kind: 'paid', name: tenant.subscription.productName };
}

/** docs/product.md §6: deploy is disabled when the plan's deployments limit value is 0 (unknown while loading: allowed). */
export function canDeploy(profile: UserProfile | undefined): boolean {
  return firstTenant(profile)?.subscription.limits.deployments.value !== 0;
}

/** docs/product.md §3: an inactive first tenant marks a disabled account. */
export function isInactive(profile: UserProfile | undefined): boolean {
  return firstTenant(profile)?.status === 'inactive';
}
