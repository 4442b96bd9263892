import type { UserProfile } from '@sparks/contracts';
import type { TenantRow, UserRow } from '@sparks/db';
import { deploymentLimit, trialState } from '@sparks/domain';

/** The User shape of docs/product.md §3, as every screen reads it. */
export function toProfile(user: UserRow, tenants: TenantRow[], now = new Date()): UserProfile {
  return {
    id: user.id,
    _id: user.id,
    username: user.username,
    email: user.email,
    firstname: user.firstname,
    lastname: user.lastname,
    config: { language: user.language },
    timeZone: user.timeZone,
    weeklyDigest: user.weeklyDigest,
    verified: !!user.verifiedAt,
    createdAt: user.createdAt.toISOString(),
    tenants: tenants.map((t) => ({
      customerId: t.customerId,
      status: t.status,
      subscription: {
        productName: t.productName,
        subscriptionId: t.subscriptionId,
        limits: { deployments: { value: deploymentLimit(t, now) }, interactions: { value: t.limitInteractions } },
      },
      usage: { interactions: t.usageInteractions },
      trial: {
        startedAt: t.trialStartedAt.toISOString(),
        endsAt: t.trialEndsAt.toISOString(),
        ...trialState(t.trialEndsAt, now),
      },
    })),
  };
}
