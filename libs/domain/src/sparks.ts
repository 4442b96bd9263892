import { MAX_PINNED_SPARKS } from '@sparks/contracts';
import { DomainError, newSparkValues, renamedPrompt, type Language } from '@sparks/core';
import type { AccountsRepository, SparkRow, SparksRepository } from '@sparks/db';

type SparkOptions = SparkRow['options'];

/** What a new Spark may bring beyond the defaults (undefined values are left out). */
export type NewSparkOptions = Partial<
  Pick<SparkOptions, 'initialMessage' | 'business' | 'description' | 'purpose' | 'tone' | 'hours'>
>;

export interface SparkPatch {
  name?: string;
  pin?: boolean;
  options?: Partial<Omit<SparkOptions, 'theme'>>;
  /** Merged into the Spark's current theme. */
  theme?: Partial<NonNullable<SparkOptions['theme']>>;
}

const defined = <T extends object>(o: T | undefined): Partial<T> =>
  Object.fromEntries(Object.entries(o ?? {}).filter(([, v]) => v !== undefined)) as Partial<T>;

/**
 * The rules of Sparks, for the api (SparksService) and the worker (the flows' ports): who owns a
 * Spark, what a new Spark starts with, what a change may do. Errors are `DomainError` codes.
 */
export class SparkRules {
  constructor(
    private readonly sparks: SparksRepository,
    private readonly accounts: AccountsRepository,
  ) {}

  /** The owner's Spark, or NOT_FOUND — never a refusal that would confirm another user's Spark exists. */
  async owned(userId: string, sparkId: string): Promise<SparkRow> {
    const spark = await this.sparks.findOwned(userId, sparkId);
    if (!spark) throw DomainError.notFound();
    return spark;
  }

  /**
   * A new Spark (type DOC): the name and options of `newSparkValues` in the given language, else the
   * user's, else Spanish; `options` on top. Refused with `SPARK_LIMIT` (402, carrying `limit`) when the
   * user has as many Sparks as their plan allows.
   */
  async create(userId: string, input: { name?: string; language?: Language; options?: NewSparkOptions }) {
    const language = input.language ?? (await this.accounts.findUserById(userId))?.language ?? 'es';
    const values = newSparkValues(language, input.name);
    const result = await this.sparks.createWithinPlan(userId, {
      name: values.name,
      options: { ...values.options, ...defined(input.options) },
    });
    if (result.kind === 'full') throw DomainError.of('SPARK_LIMIT', { limit: result.limit });
    return result.spark;
  }

  /**
   * What a new name changes in the options (issue 31): the instructions carry it (`renamedPrompt`), unless they are
   * being set too; the business's name follows when it was the Spark's.
   */
  private static renamed(current: SparkRow, name: string, options: SparkPatch['options']): Partial<SparkOptions> {
    const to = name.trim();
    if (to === current.name) return {};
    const o = current.options;
    return {
      ...(options?.sysPrompt === undefined
        ? { sysPrompt: renamedPrompt(o.sysPrompt, current.name, to, o.language) }
        : {}),
      ...(o.business && o.business.trim() === current.name.trim() && options?.business === undefined
        ? { business: to }
        : {}),
    };
  }

  /**
   * Changes a Spark: a name may not be blank (BLANK_NAME); a theme is merged into the current one; a pin
   * beyond MAX_PINNED_SPARKS is refused (PIN_LIMIT) before anything else changes.
   */
  async update(userId: string, sparkId: string, patch: SparkPatch): Promise<SparkRow> {
    if (patch.name !== undefined && patch.name.trim() === '') throw DomainError.invalid('BLANK_NAME', 'name');
    if (patch.pin === true) {
      const pinned = await this.sparks.pin(userId, sparkId, MAX_PINNED_SPARKS);
      if (pinned === 'not-found') throw DomainError.notFound();
      if (pinned === 'full') throw DomainError.invalid('PIN_LIMIT', 'pin', { max: MAX_PINNED_SPARKS });
      const rest: SparkPatch = { ...patch, pin: undefined };
      if (rest.name === undefined && rest.options === undefined && rest.theme === undefined) return pinned;
      return this.update(userId, sparkId, rest);
    }
    const current = patch.theme || patch.name !== undefined ? await this.owned(userId, sparkId) : undefined;
    const theme = patch.theme && { theme: { ...current?.options.theme, ...patch.theme } };
    const named = current && patch.name !== undefined ? SparkRules.renamed(current, patch.name, patch.options) : {};
    const merged = { ...patch.options, ...named, ...theme };
    const options = Object.keys(merged).length > 0 ? { options: merged } : {};
    const row = await this.sparks.update(userId, sparkId, {
      ...(patch.name !== undefined ? { name: patch.name } : {}),
      ...(patch.pin !== undefined ? { pin: patch.pin } : {}),
      ...options,
    });
    if (!row) throw DomainError.notFound();
    return row;
  }
}
