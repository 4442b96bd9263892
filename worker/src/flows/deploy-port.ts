import type { DeployRepository } from '@sparks/db';
import { deploymentLimit } from '@sparks/domain';
import type { DeployAllowance, DeployPort, PublishedSpark } from '@sparks/engine';
import type { Scope } from './scope';

/** The deploy assistant's unpublish and new code, always for the user's own Sparks. */
export class DeployPortImpl implements DeployPort {
  constructor(private readonly scope: Scope) {}

  private get repo(): DeployRepository {
    return this.scope.deps.deploy;
  }

  published(): Promise<PublishedSpark[]> {
    return this.repo.publishedOf(this.scope.userId);
  }

  async unpublish(sparkId: string): Promise<{ used: number; limit: number } | undefined> {
    const { deps, userId } = this.scope;
    if (!(await this.repo.unpublishOwned(userId, sparkId))) return undefined;
    const [[tenant], used] = await Promise.all([deps.accounts.tenantsOf(userId), this.repo.countPublished(userId)]);
    return { used, limit: tenant ? deploymentLimit(tenant) : 0 };
  }

  /** The plan's published Sparks (`deploymentLimit`), how many are published, and whether this Spark is. */
  async allowance(): Promise<DeployAllowance> {
    const { deps, userId, sparkId } = this.scope;
    const [[tenant], used, mine] = await Promise.all([
      deps.accounts.tenantsOf(userId),
      this.repo.countPublished(userId),
      sparkId ? this.repo.findBySpark(sparkId) : Promise.resolve(undefined),
    ]);
    return { limit: tenant ? deploymentLimit(tenant) : 0, used, published: !!mine };
  }

  revokeToken(sparkId: string): Promise<boolean> {
    return this.repo.revokeToken(this.scope.userId, sparkId);
  }
}
