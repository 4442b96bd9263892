import { DomainError } from '@sparks/core';
import type { SparkRow } from '@sparks/db';
import { SparkTestRules } from '@sparks/domain';
import type { NewSpark, SparkInfo, SparkPort, TestsPort } from '@sparks/engine';
import { unlessGone, type Scope } from './scope';

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

/** The conversation's Spark, through the rules the api follows too (`SparkRules`). */
export class SparkPortImpl implements SparkPort {
  constructor(private readonly scope: Scope) {}

  async current(): Promise<SparkInfo | undefined> {
    const { deps, userId, sparkId } = this.scope;
    if (!sparkId) return undefined;
    const row = await deps.sparks.findOwned(userId, sparkId);
    return row ? sparkInfo(row) : undefined;
  }

  async update(patch: Partial<Omit<SparkInfo, 'id'>>): Promise<void> {
    const { deps, userId, sparkId } = this.scope;
    if (!sparkId) return;
    const { name, palette, icon, ...rest } = patch;
    await unlessGone(
      deps.sparkRules.update(userId, sparkId, {
        name: name?.trim() ? name : undefined,
        options: rest,
        theme: palette || icon ? { ...(palette ? { palette } : {}), ...(icon ? { icon } : {}) } : undefined,
      }),
    );
  }

  async create(v: NewSpark) {
    try {
      const row = await this.scope.deps.sparkRules.create(this.scope.userId, {
        name: v.name,
        language: v.language,
        options: { business: v.business, description: v.description, purpose: v.purpose, tone: v.tone, hours: v.hours },
      });
      this.scope.sparkId = row.id;
      return { id: row.id, name: row.name };
    } catch (err) {
      // The plan's Spark limit: the assistant says so instead of failing the turn.
      if (err instanceof DomainError && err.code === 'SPARK_LIMIT') {
        return { limit: Number(err.details[0].params?.limit ?? 0) };
      }
      throw err;
    }
  }

  async newest() {
    const { rows } = await this.scope.deps.sparks.list(this.scope.userId, { offset: 0, limit: 1 });
    return rows[0] ? { id: rows[0].id, name: rows[0].name } : undefined;
  }
}

/** The tests of the conversation's Spark. */
export class TestsPortImpl implements TestsPort {
  constructor(private readonly scope: Scope) {}

  async count(): Promise<number> {
    const { deps, userId, sparkId } = this.scope;
    return sparkId ? (await deps.sparks.listTests(userId, sparkId)).length : 0;
  }

  async create(): Promise<string | undefined> {
    const { deps, userId, sparkId } = this.scope;
    if (!sparkId) return undefined;
    const existing = await deps.sparks.listTests(userId, sparkId);
    const language = (await deps.accounts.findUserById(userId))?.language ?? 'es';
    const name = SparkTestRules.defaultName(language, existing.length);
    try {
      return (await deps.testRules.create(userId, sparkId, { name })).id;
    } catch (err) {
      // At the limit the builder opens the last test instead; a Spark that is gone has none.
      if (err instanceof DomainError && err.code === 'TESTS_LIMIT') return existing.at(-1)?.id;
      if (err instanceof DomainError && err.code === 'NOT_FOUND') return undefined;
      throw err;
    }
  }
}
