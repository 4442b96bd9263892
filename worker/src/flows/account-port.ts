import { FREE_PLAN_NAME, trialState } from '@sparks/domain';
import type { AccountPort, BillingSummary, Profile } from '@sparks/engine';
import type { Scope } from './scope';

/** The signed-in user's profile, account and plan. */
export class AccountPortImpl implements AccountPort {
  constructor(private readonly scope: Scope) {}

  async profile(): Promise<Profile> {
    const { deps, userId } = this.scope;
    const user = await deps.accounts.findUserById(userId);
    const [tenant] = await deps.accounts.tenantsOf(userId);
    return {
      firstname: user?.firstname ?? '',
      lastname: user?.lastname ?? '',
      username: user?.username ?? '',
      language: user?.language ?? 'es',
      plan: tenant?.productName ?? FREE_PLAN_NAME,
    };
  }

  async updateProfile(patch: Partial<Pick<Profile, 'firstname' | 'lastname' | 'language'>>): Promise<void> {
    await this.scope.deps.accounts.updateUser(this.scope.userId, patch);
  }

  /** The settings assistant's "deactivate my account": logged like an admin's disable, by `self`. */
  async deactivate(): Promise<void> {
    await this.scope.deps.admin.setAccountStatus(this.scope.userId, 'inactive', 'self');
  }

  /** The first tenant's plan, usage, credits and trial (as the profile shows them) and the plans on sale. */
  async billing(): Promise<BillingSummary> {
    const { deps, userId } = this.scope;
    const { billing } = deps;
    const [tenant] = await deps.accounts.tenantsOf(userId);
    const trial = tenant ? trialState(tenant.trialEndsAt, new Date()) : { active: false, daysLeft: 0 };
    const plans = (await billing.plans()).filter((p) => p.purchasable);
    return {
      plan: tenant?.productName ?? FREE_PLAN_NAME,
      paid: Boolean(tenant?.subscriptionId),
      trialActive: trial.active,
      trialDaysLeft: trial.daysLeft,
      usage: tenant?.usageInteractions ?? 0,
      limit: tenant?.limitInteractions ?? 0,
      credits: tenant ? await billing.availableCredits(tenant.id) : 0,
      plans: plans.map((p) => ({
        name: p.productName,
        unitAmount: p.unitAmount,
        currency: p.currency,
        interactions: p.limitInteractions,
        deployments: p.limitDeployments,
        sparks: p.limitSparks,
        documents: p.limitDocuments,
        documentSharing: p.documentSharing,
      })),
    };
  }
}
