import { objectivesKey } from '@sparks/contracts';
import { DomainError } from '@sparks/core';
import {
  AccountsRepository,
  AdminRepository,
  BillingRepository,
  DeployRepository,
  ObjectivesRepository,
  SparksRepository,
  type Database,
  type SparkRow,
} from '@sparks/db';
import { SparkRules, SparkTestRules } from '@sparks/domain';
import {
  helpAnswer,
  readBusiness,
  type BusinessFacts,
  type Flow,
  type LlmProvider,
  type FlowPorts,
  type Lang,
  type BillingSummary,
  type Profile,
  type SparkInfo,
  type StepStatus,
  type SharingPorts,
  withSparkState,
} from '@sparks/engine';
import { SharingPortsImpl, type SharingDeps } from './sharing-ports';

export interface PortDeps {
  db: Database;
  accounts: AccountsRepository;
  sparks: SparksRepository;
  objectives: ObjectivesRepository;
  /** The rules the api's services follow too (`@sparks/domain`). */
  sparkRules: SparkRules;
  testRules: SparkTestRules;
  /** The configured language model, if any. */
  llm?: LlmProvider;
  /** Told when the model failed and the rules (or the template of the instructions) did the work instead. */
  onLlmError?: (err: unknown) => void;
  /** SharePoint / OneDrive (issue 20): the builder chat's browser, for a Spark's conversation. */
  sharing?: SharingDeps;
}

/** Runs a rule on a Spark that may have gone meanwhile: NOT_FOUND is undefined, and the flow goes on. */
async function unlessGone<T>(work: Promise<T>): Promise<T | undefined> {
  try {
    return await work;
  } catch (err) {
    if (err instanceof DomainError && err.code === 'NOT_FOUND') return undefined;
    throw err;
  }
}

function sparkInfo(s: SparkRow): SparkInfo {
  const o = s.options;
  return {
    id: s.id,
    name: s.name,
    initialMessage: o.initialMessage,
    language: o.language,
    sysPrompt: o.sysPrompt,
    palette: o.theme?.palette,
    icon: o.theme?.icon,
    business: o.business,
    description: o.description,
    purpose: o.purpose,
    tone: o.tone,
    hours: o.hours,
  };
}

/** The flow engine's view of the database, for one user and (maybe) one Spark. */
export class FlowPortsImpl implements FlowPorts {
  constructor(
    private readonly deps: PortDeps,
    private readonly userId: string,
    private readonly flow: Flow,
    private sparkId: string | null,
  ) {}

  /** The Spark's Microsoft 365 connection, for the builder chat's file browser (issue 20). */
  get sharing(): SharingPorts | undefined {
    return this.deps.sharing && this.sparkId && this.flow.objectivesKey === 'spark'
      ? new SharingPortsImpl(this.deps.sharing, this.userId, this.sparkId)
      : undefined;
  }

  /** The key of this flow's objectives (`objectivesKey`, one rule with the api and the web). */
  private get objectivesKey(): string | null {
    const kind = this.flow.objectivesKey;
    if (kind === undefined) return null;
    if (kind === 'spark') return this.sparkId ? objectivesKey({ kind: 'spark', sparkId: this.sparkId }) : null;
    return objectivesKey({ kind: 'page', page: kind });
  }

  async profile(): Promise<Profile> {
    const user = await this.deps.accounts.findUserById(this.userId);
    const [tenant] = await this.deps.accounts.tenantsOf(this.userId);
    return {
      firstname: user?.firstname ?? '',
      lastname: user?.lastname ?? '',
      username: user?.username ?? '',
      language: user?.language ?? 'es',
      plan: tenant?.productName ?? 'Free Plan',
    };
  }

  async updateProfile(patch: Partial<Pick<Profile, 'firstname' | 'lastname' | 'language'>>): Promise<void> {
    await this.deps.accounts.updateUser(this.userId, patch);
  }

  async spark(): Promise<SparkInfo | undefined> {
    if (!this.sparkId) return undefined;
    const row = await this.deps.sparks.findOwned(this.userId, this.sparkId);
    return row ? sparkInfo(row) : undefined;
  }

  async updateSpark(patch: Partial<Omit<SparkInfo, 'id'>>): Promise<void> {
    if (!this.sparkId) return;
    const { name, palette, icon, ...rest } = patch;
    await unlessGone(
      this.deps.sparkRules.update(this.userId, this.sparkId, {
        name: name?.trim() ? name : undefined,
        options: rest,
        theme: palette || icon ? { ...(palette ? { palette } : {}), ...(icon ? { icon } : {}) } : undefined,
      }),
    );
  }

  async createSpark(v: {
    name: string;
    business: string;
    description: string;
    purpose: string;
    language: Lang;
    tone?: string;
    hours?: string;
  }) {
    try {
      const row = await this.deps.sparkRules.create(this.userId, {
        name: v.name,
        language: v.language,
        options: { business: v.business, description: v.description, purpose: v.purpose, tone: v.tone, hours: v.hours },
      });
      this.sparkId = row.id;
      return { id: row.id, name: row.name };
    } catch (err) {
      // The plan's Spark limit: the assistant says so instead of failing the turn.
      if (err instanceof DomainError && err.code === 'SPARK_LIMIT') {
        return { limit: Number(err.details[0].params?.limit ?? 0) };
      }
      throw err;
    }
  }

  async newestSpark() {
    const { rows } = await this.deps.sparks.list(this.userId, { offset: 0, limit: 1 });
    return rows[0] ? { id: rows[0].id, name: rows[0].name } : undefined;
  }

  async countTests(): Promise<number> {
    return this.sparkId ? (await this.deps.sparks.listTests(this.userId, this.sparkId)).length : 0;
  }

  async createTest(): Promise<string | undefined> {
    if (!this.sparkId) return undefined;
    const existing = await this.deps.sparks.listTests(this.userId, this.sparkId);
    const language = (await this.profile()).language;
    const name = SparkTestRules.defaultName(language, existing.length);
    try {
      return (await this.deps.testRules.create(this.userId, this.sparkId, { name })).id;
    } catch (err) {
      // At the limit the builder opens the last test instead; a Spark that is gone has none.
      if (err instanceof DomainError && err.code === 'TESTS_LIMIT') return existing.at(-1)?.id;
      if (err instanceof DomainError && err.code === 'NOT_FOUND') return undefined;
      throw err;
    }
  }

  async stepStatus(stepId: string): Promise<StepStatus | undefined> {
    const key = this.objectivesKey;
    if (!key) return undefined;
    const stored = (await this.deps.objectives.find(this.userId, key))?.statuses ?? {};
    // What the Spark's state completes ("Publish your Spark" while published): the api's rule (`withSparkState`).
    const state =
      this.flow.objectivesKey === 'spark' && this.sparkId
        ? { published: !!(await this.deploy.findBySpark(this.sparkId)) }
        : undefined;
    return withSparkState(this.flow, stored, state)[stepId];
  }

  async setStepStatus(stepId: string, status: StepStatus): Promise<void> {
    const key = this.objectivesKey;
    if (!key) return;
    await this.deps.objectives.setStatus(
      this.userId,
      key,
      this.flow.name,
      stepId,
      status,
      this.flow.objectivesKey === 'spark' ? this.sparkId : null,
    );
  }

  /** The settings assistant's "deactivate my account": logged like an admin's disable, by `self`. */
  async deactivateAccount(): Promise<void> {
    await new AdminRepository(this.deps.db).setAccountStatus(this.userId, 'inactive', 'self');
  }

  /** The first tenant's plan, usage, credits and trial (as the profile shows them) and the plans on sale. */
  async billing(): Promise<BillingSummary> {
    const billing = new BillingRepository(this.deps.db);
    const [tenant] = await this.deps.accounts.tenantsOf(this.userId);
    const now = Date.now();
    const plans = (await billing.plans()).filter((p) => p.purchasable);
    return {
      plan: tenant?.productName ?? 'Free Plan',
      paid: Boolean(tenant?.subscriptionId),
      trialActive: tenant ? tenant.trialEndsAt.getTime() > now : false,
      trialDaysLeft: tenant ? Math.max(0, Math.ceil((tenant.trialEndsAt.getTime() - now) / 86_400_000)) : 0,
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

  // — the deploy assistant: unpublish and a new code (always for the user's own Sparks) —

  private get deploy(): DeployRepository {
    return new DeployRepository(this.deps.db);
  }

  deployments(): Promise<Array<{ sparkId: string; name: string }>> {
    return this.deploy.publishedOf(this.userId);
  }

  async unpublish(sparkId: string): Promise<{ used: number; limit: number } | undefined> {
    if (!(await this.deploy.unpublishOwned(this.userId, sparkId))) return undefined;
    const [[tenant], used] = await Promise.all([
      this.deps.accounts.tenantsOf(this.userId),
      this.deploy.countPublished(this.userId),
    ]);
    return { used, limit: tenant?.limitDeployments ?? 0 };
  }

  revokeDeployToken(sparkId: string): Promise<boolean> {
    return this.deploy.revokeToken(this.userId, sparkId);
  }

  help(question: string, language: Lang): Promise<string> {
    return helpAnswer(this.deps.db, question, language);
  }

  /** The language model's reading when one is configured and answers; the rules otherwise. */
  async readBusiness(text: string, language: Lang): Promise<BusinessFacts> {
    if (this.deps.llm) {
      try {
        return await this.deps.llm.readBusiness(text, language);
      } catch (err) {
        this.deps.onLlmError?.(err);
      }
    }
    return readBusiness(text, language);
  }

  /** The model's part of the Spark's instructions; undefined without a model or when it fails (the template writes them). */
  async writeInstructions(spark: SparkInfo): Promise<string | undefined> {
    if (!this.deps.llm) return undefined;
    try {
      return await this.deps.llm.writeInstructions(spark);
    } catch (err) {
      this.deps.onLlmError?.(err);
      return undefined;
    }
  }
}
