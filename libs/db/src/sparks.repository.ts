import { MAX_TRANSCRIPTS_PER_SPARK, type TestVerdict } from '@sparks/contracts';
import { and, count, desc, eq, sql } from 'drizzle-orm';
import type { Database } from './client';
import { ConversationsRepository } from './conversations.repository';
import { NO_PLAN_LIMIT, planOfUser } from './plan-limits';
import { sparks, sparkTests, testErrors, type SparkOptions } from './schema/index';

export type SparkRow = typeof sparks.$inferSelect;
export type SparkTestRow = typeof sparkTests.$inferSelect;

/** Sparks and their tests. Every read and write names the owner: another user's Spark is not found. */
export class SparksRepository {
  /**
   * The list's statements, prepared once (named: PostgreSQL plans each once per connection, and
   * Drizzle builds its SQL once): every list of every request runs them.
   */
  private readonly listStatements;

  constructor(private readonly db: Database) {
    this.listStatements = this.prepareList();
  }

  private prepareList() {
    const userId = sql.placeholder('userId');
    const ofUser = eq(sparks.userId, userId);
    const ofUserPinned = and(eq(sparks.userId, userId), eq(sparks.pin, sql.placeholder('pin')));
    const page = (where: typeof ofUser | undefined, name: string) =>
      this.db
        .select()
        .from(sparks)
        .where(where)
        .orderBy(desc(sparks.createdAt), desc(sparks.id))
        .offset(sql.placeholder('offset'))
        .limit(sql.placeholder('limit'))
        .prepare(name);
    const total = (where: typeof ofUser | undefined, name: string) =>
      this.db.select({ total: count() }).from(sparks).where(where).prepare(name);
    return {
      all: { page: page(ofUser, 'sparks_page'), total: total(ofUser, 'sparks_total') },
      pinned: { page: page(ofUserPinned, 'sparks_page_pinned'), total: total(ofUserPinned, 'sparks_total_pinned') },
    };
  }

  async create(userId: string, values: { name: string; options: SparkOptions; type?: string }): Promise<SparkRow> {
    const [row] = await this.db
      .insert(sparks)
      .values({ userId, name: values.name, options: values.options, type: values.type ?? 'DOC' })
      .returning();
    return row;
  }

  /** How long the Spark's website visitors' conversations are kept (days); false when it is not the user's. */
  async setVisitorRetention(userId: string, sparkId: string, days: number): Promise<boolean> {
    const rows = await this.db
      .update(sparks)
      .set({ visitorRetentionDays: days, updatedAt: new Date() })
      .where(and(eq(sparks.id, sparkId), eq(sparks.userId, userId)))
      .returning({ id: sparks.id });
    return rows.length === 1;
  }

  /** How many visitor messages the Spark's widget answers a day; false when it is not the user's. */
  async setWidgetDailyLimit(userId: string, sparkId: string, dailyLimit: number): Promise<boolean> {
    const rows = await this.db
      .update(sparks)
      .set({ widgetDailyLimit: dailyLimit, updatedAt: new Date() })
      .where(and(eq(sparks.id, sparkId), eq(sparks.userId, userId)))
      .returning({ id: sparks.id });
    return rows.length === 1;
  }

  /**
   * Creates a Spark unless the user already has as many as their plan allows (`limit_sparks` of the
   * plan in the catalogue). Counted and written under a per-user advisory lock, so parallel creates
   * at the limit give exactly one new Spark.
   */
  async createWithinPlan(
    userId: string,
    values: { name: string; options: SparkOptions; type?: string },
  ): Promise<{ kind: 'created'; spark: SparkRow } | { kind: 'full'; limit: number }> {
    return this.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${'sparks:' + userId}))`);
      const limit = (await planOfUser(tx, userId))?.limitSparks ?? NO_PLAN_LIMIT;
      const [{ n }] = await tx.select({ n: count() }).from(sparks).where(eq(sparks.userId, userId));
      if (n >= limit) return { kind: 'full', limit };
      const [spark] = await tx
        .insert(sparks)
        .values({ userId, name: values.name, options: values.options, type: values.type ?? 'DOC' })
        .returning();
      return { kind: 'created', spark };
    });
  }

  async findOwned(userId: string, sparkId: string): Promise<SparkRow | undefined> {
    const [row] = await this.db
      .select()
      .from(sparks)
      .where(and(eq(sparks.id, sparkId), eq(sparks.userId, userId)));
    return row;
  }

  /** For the worker, which acts on an entity it was handed by id. */
  async findById(sparkId: string): Promise<SparkRow | undefined> {
    const [row] = await this.db.select().from(sparks).where(eq(sparks.id, sparkId));
    return row;
  }

  async list(
    userId: string,
    opts: { pinned?: boolean; offset: number; limit: number },
  ): Promise<{ rows: SparkRow[]; total: number }> {
    const statements = opts.pinned === undefined ? this.listStatements.all : this.listStatements.pinned;
    const params = { userId, pin: opts.pinned ?? null, offset: opts.offset, limit: opts.limit };
    const [rows, [{ total }]] = await Promise.all([statements.page.execute(params), statements.total.execute(params)]);
    return { rows, total };
  }

  async update(
    userId: string,
    sparkId: string,
    patch: Partial<Pick<SparkRow, 'name' | 'pin' | 'type'>> & { options?: Partial<SparkOptions> },
  ): Promise<SparkRow | undefined> {
    const { options, ...columns } = patch;
    const [row] = await this.db
      .update(sparks)
      .set({
        ...columns,
        ...(options ? { options: sql`${sparks.options} || ${JSON.stringify(options)}::jsonb` } : {}),
        updatedAt: new Date(),
      })
      .where(and(eq(sparks.id, sparkId), eq(sparks.userId, userId)))
      .returning();
    return row;
  }

  /**
   * Pins the owner's Spark unless `max` of theirs are pinned already (one already pinned stays so). The
   * owner's pins are taken one at a time (a transaction-scoped advisory lock on the user), so two
   * concurrent pins cannot both see room for one more.
   */
  async pin(userId: string, sparkId: string, max: number): Promise<SparkRow | 'not-found' | 'full'> {
    return this.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`sparks.pin:${userId}`}, 0))`);
      const [spark] = await tx
        .select()
        .from(sparks)
        .where(and(eq(sparks.id, sparkId), eq(sparks.userId, userId)))
        .for('update');
      if (!spark) return 'not-found';
      if (spark.pin) return spark;
      const [{ n }] = await tx
        .select({ n: count() })
        .from(sparks)
        .where(and(eq(sparks.userId, userId), eq(sparks.pin, true)));
      if (n >= max) return 'full';
      const [row] = await tx
        .update(sparks)
        .set({ pin: true, updatedAt: new Date() })
        .where(eq(sparks.id, sparkId))
        .returning();
      return row;
    });
  }

  /** Removes the Spark; its tests, conversations, documents and chunks go with it (foreign keys). */
  async delete(userId: string, sparkId: string): Promise<boolean> {
    const rows = await this.db
      .delete(sparks)
      .where(and(eq(sparks.id, sparkId), eq(sparks.userId, userId)))
      .returning({ id: sparks.id });
    return rows.length === 1;
  }

  // — tests —

  /**
   * Adds a test unless the Spark already has `max`. The Spark row is locked so two concurrent
   * adds cannot both see room for one more.
   */
  async addTest(
    userId: string,
    sparkId: string,
    values: { name: string; params: SparkTestRow['params'] },
    max: number,
  ): Promise<SparkTestRow | 'not-found' | 'full'> {
    return this.db.transaction(async (tx) => {
      const [spark] = await tx
        .select({ id: sparks.id })
        .from(sparks)
        .where(and(eq(sparks.id, sparkId), eq(sparks.userId, userId)))
        .for('update');
      if (!spark) return 'not-found';
      const [{ n }] = await tx.select({ n: count() }).from(sparkTests).where(eq(sparkTests.sparkId, sparkId));
      if (n >= max) return 'full';
      const [row] = await tx
        .insert(sparkTests)
        .values({ sparkId, userId, ...values })
        .returning();
      return row;
    });
  }

  async listTests(userId: string, sparkId: string): Promise<SparkTestRow[]> {
    return this.db
      .select()
      .from(sparkTests)
      .where(and(eq(sparkTests.sparkId, sparkId), eq(sparkTests.userId, userId)))
      .orderBy(sparkTests.createdAt, sparkTests.id);
  }

  async findTest(userId: string, sparkId: string, testId: string): Promise<SparkTestRow | undefined> {
    const [row] = await this.db
      .select()
      .from(sparkTests)
      .where(and(eq(sparkTests.id, testId), eq(sparkTests.sparkId, sparkId), eq(sparkTests.userId, userId)));
    return row;
  }

  async renameTest(userId: string, sparkId: string, testId: string, name: string): Promise<SparkTestRow | undefined> {
    const [row] = await this.db
      .update(sparkTests)
      .set({ name })
      .where(and(eq(sparkTests.id, testId), eq(sparkTests.sparkId, sparkId), eq(sparkTests.userId, userId)))
      .returning();
    return row;
  }

  /**
   * Removes the test (its conversations go with it). Judged (`verdict`: the owner answered "Was the test OK?"), its
   * conversation that holds a question is first kept as the test's transcript, in the same transaction
   * (`ConversationsRepository.keepTranscript`; the Spark keeps its newest MAX_TRANSCRIPTS_PER_SPARK).
   */
  async deleteTest(userId: string, sparkId: string, testId: string, verdict?: TestVerdict): Promise<boolean> {
    const owned = and(eq(sparkTests.id, testId), eq(sparkTests.sparkId, sparkId), eq(sparkTests.userId, userId));
    if (!verdict) {
      const rows = await this.db.delete(sparkTests).where(owned).returning({ id: sparkTests.id });
      return rows.length === 1;
    }
    return this.db.transaction(async (tx) => {
      const [test] = await tx.select().from(sparkTests).where(owned).for('update');
      if (!test) return false;
      await new ConversationsRepository(tx).keepTranscript({
        userId,
        sparkId,
        testId,
        title: test.name,
        verdict,
        max: MAX_TRANSCRIPTS_PER_SPARK,
      });
      await tx.delete(sparkTests).where(eq(sparkTests.id, testId));
      return true;
    });
  }

  async recordTestError(userId: string, testId: string, error: string) {
    const [row] = await this.db.insert(testErrors).values({ userId, testId, error }).returning();
    return row;
  }
}
