import { MAX_TESTS_PER_SPARK } from '@sparks/contracts';
import { newSparkValues } from '@sparks/core';
import { AccountsRepository, ObjectivesRepository, SparksRepository, type Database, type SparkRow } from '@sparks/db';
import {
  helpAnswer,
  type Flow,
  type FlowPorts,
  type Lang,
  type Profile,
  type SparkInfo,
  type StepStatus,
} from '@sparks/engine';

export interface PortDeps {
  db: Database;
  accounts: AccountsRepository;
  sparks: SparksRepository;
  objectives: ObjectivesRepository;
}

export function sparkInfo(s: SparkRow): SparkInfo {
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

  private get objectivesKey(): string | null {
    switch (this.flow.objectivesKey) {
      case 'spark':
        return this.sparkId;
      case 'profile':
      case 'deploy':
      case 'billing':
        return this.flow.objectivesKey;
      case undefined:
        return null;
    }
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
    const current = await this.deps.sparks.findOwned(this.userId, this.sparkId);
    if (!current) return;
    const { name, palette, icon, ...rest } = patch;
    const theme =
      palette || icon
        ? { theme: { ...current.options.theme, ...(palette ? { palette } : {}), ...(icon ? { icon } : {}) } }
        : {};
    await this.deps.sparks.update(this.userId, this.sparkId, {
      ...(name ? { name } : {}),
      options: { ...rest, ...theme },
    });
  }

  async createSpark(v: { name: string; business: string; description: string; purpose: string; language: Lang }) {
    const values = newSparkValues(v.language, v.name);
    const row = await this.deps.sparks.create(this.userId, {
      name: values.name,
      options: { ...values.options, business: v.business, description: v.description, purpose: v.purpose },
    });
    this.sparkId = row.id;
    return { id: row.id, name: row.name };
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
    const name = `${language === 'es' ? 'Prueba' : 'Test'} ${existing.length + 1}`;
    const created = await this.deps.sparks.addTest(
      this.userId,
      this.sparkId,
      { name, params: { documentId: null, waitResponse: true } },
      MAX_TESTS_PER_SPARK,
    );
    if (created === 'full') return existing.at(-1)?.id;
    return created === 'not-found' ? undefined : created.id;
  }

  async stepStatus(stepId: string): Promise<StepStatus | undefined> {
    const key = this.objectivesKey;
    if (!key) return undefined;
    return (await this.deps.objectives.find(this.userId, key))?.statuses[stepId];
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

  async deactivateAccount(): Promise<void> {
    await this.deps.accounts.setFirstTenantStatus(this.userId, 'inactive');
  }

  help(question: string, language: Lang): Promise<string> {
    return helpAnswer(this.deps.db, question, language);
  }
}
