import { and, asc, count, desc, eq, sql } from 'drizzle-orm';
import { MAX_CHECKS_PER_SPARK } from '@sparks/contracts';
import type { Database } from './client';
import { sparkChecks, sparks } from './schema/index';

export type CheckRow = typeof sparkChecks.$inferSelect;

/**
 * A Spark's answer checks (issue 35 item 3): questions with the answers their owner approved, asked again by the
 * worker whenever the Spark's knowledge changes. One check per question (its group key, as the review list groups
 * questions): keeping a question again replaces its approved answer.
 */
export class ChecksRepository {
  constructor(private readonly db: Database) {}

  /** The checks of a Spark: changed ones first, then the newest. */
  list(sparkId: string): Promise<CheckRow[]> {
    return this.db
      .select()
      .from(sparkChecks)
      .where(eq(sparkChecks.sparkId, sparkId))
      .orderBy(sql`${sparkChecks.status} = 'changed' DESC`, desc(sparkChecks.createdAt), asc(sparkChecks.id));
  }

  /**
   * Keeps a check (or replaces the approved answer of the same question), unless the Spark has its
   * `MAX_CHECKS_PER_SPARK` already: then `full`. The Spark's row is locked meanwhile, so that two at once cannot pass
   * the limit together.
   */
  async keep(v: {
    sparkId: string;
    question: string;
    expected: string;
    origin: CheckRow['origin'];
    language: 'es' | 'en';
  }): Promise<CheckRow | 'full'> {
    return this.db.transaction(async (tx) => {
      await tx.select({ id: sparks.id }).from(sparks).where(eq(sparks.id, v.sparkId)).for('update');
      const key = sql`question_group_key(${v.language}, ${v.question})`;
      const [{ n }] = await tx
        .select({ n: count() })
        .from(sparkChecks)
        .where(and(eq(sparkChecks.sparkId, v.sparkId), sql`${sparkChecks.questionKey} <> ${key}`));
      if (n >= MAX_CHECKS_PER_SPARK) return 'full';
      const fresh = { status: 'pending' as const, latest: null, checkedAt: null, announced: null };
      const [row] = await tx
        .insert(sparkChecks)
        .values({ sparkId: v.sparkId, question: v.question, questionKey: key, expected: v.expected, origin: v.origin })
        .onConflictDoUpdate({
          target: [sparkChecks.sparkId, sparkChecks.questionKey],
          set: { question: v.question, expected: v.expected, origin: v.origin, ...fresh },
        })
        .returning();
      if (!row) throw new Error('the check was not kept');
      return row;
    });
  }

  /** The owner approves what the check last answered: it becomes the approved answer. */
  async approve(sparkId: string, checkId: string): Promise<CheckRow | undefined> {
    const [row] = await this.db
      .update(sparkChecks)
      .set({ expected: sql`coalesce(${sparkChecks.latest}, ${sparkChecks.expected})`, status: 'same', announced: null })
      .where(and(eq(sparkChecks.id, checkId), eq(sparkChecks.sparkId, sparkId)))
      .returning();
    return row;
  }

  async remove(sparkId: string, checkId: string): Promise<boolean> {
    const rows = await this.db
      .delete(sparkChecks)
      .where(and(eq(sparkChecks.id, checkId), eq(sparkChecks.sparkId, sparkId)))
      .returning({ id: sparkChecks.id });
    return rows.length > 0;
  }

  /**
   * What a run answered: `same` when it is the approved answer, else `changed`. Only when the check still has the
   * approved answer the run compared with (approved or replaced meanwhile, the owner's word stands).
   */
  async recordRun(check: CheckRow, latest: string, same: boolean): Promise<void> {
    await this.db
      .update(sparkChecks)
      .set({ latest, status: same ? 'same' : 'changed', checkedAt: sql`now()` })
      .where(and(eq(sparkChecks.id, check.id), eq(sparkChecks.expected, check.expected)));
  }

  /** The changed answers told in the Spark's chat, so that the same change is told once. */
  async markAnnounced(told: Array<{ id: string; answer: string }>): Promise<void> {
    for (const t of told) {
      await this.db.update(sparkChecks).set({ announced: t.answer }).where(eq(sparkChecks.id, t.id));
    }
  }
}
