import { and, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import type { Database, Executor } from './client';
import { DocumentsRepository } from './documents.repository';
import { messages, unansweredQuestions, type ReviewSource } from './schema/index';

export type ReviewReason = 'notCovered' | 'ratedDown';

/**
 * Similar questions of a Spark's review list (same `groupKey`), as the owner sees them: not covered by its
 * documents, or answered and rated down (issue 35).
 */
export interface UnansweredGroup {
  /** The newest question of the group: the one the owner answers (any of the group would do). */
  id: string;
  question: string;
  /** Why the newest question of the group is on the list. */
  reason: ReviewReason;
  /** Up to five distinct wordings, newest first (the first is `question`). */
  variants: string[];
  count: number;
  firstAskedAt: Date;
  lastAskedAt: Date;
  /** Answered when the owner answered it and nobody asked it without an answer since. */
  status: 'open' | 'answered';
  answeredAt: Date | null;
  /** The owner's answer, when there is one. */
  answer: string | null;
  /** What the Spark said to the newest question, and where it came from. */
  answerGiven: string | null;
  sources: ReviewSource[];
  /** The group's newest rating down: who, when, and their comment. */
  ratedBy: 'owner' | 'visitor' | null;
  ratedAt: Date | null;
  comment: string | null;
}

/**
 * Forgets the questions asked in these conversations that the owner has not answered (a website visitor's
 * conversation deleted by the visitor or by the retention sweep: what they asked goes with it). Answered ones stay,
 * as part of the owner's own answer. For the transaction that deletes the conversations.
 */
export async function forgetOpenQuestionsOf(tx: Executor, conversationIds: string[]): Promise<void> {
  if (conversationIds.length === 0) return;
  await tx
    .delete(unansweredQuestions)
    .where(
      and(
        isNull(unansweredQuestions.answeredAt),
        inArray(
          unansweredQuestions.messageId,
          tx.select({ id: messages.id }).from(messages).where(inArray(messages.conversationId, conversationIds)),
        ),
      ),
    );
}

/**
 * The questions a Spark could not answer, grouped (`question_group_key`, migration 0012: accents
 * folded, stems, stop words out, sorted), and the owner's answers to them, which become knowledge
 * of the Spark: a document of origin `owner` with one chunk, the question then the answer, indexed
 * like any passage so that retrieval finds it by the question's words (written by `DocumentsRepository`,
 * inside this repository's transactions: `withTx`).
 */
export class UnansweredRepository {
  constructor(
    private readonly db: Database,
    /** Writes and removes the owner's answers (documents), inside this repository's transaction (`withTx`). */
    private readonly documents = new DocumentsRepository(db),
  ) {}

  /** Records a question the Spark could not answer (once per message), with what it said instead. */
  async record(v: {
    sparkId: string;
    messageId: string;
    question: string;
    language: 'es' | 'en';
    answerGiven?: string;
  }): Promise<void> {
    await this.db
      .insert(unansweredQuestions)
      .values({ ...v, groupKey: sql`question_group_key(${v.language}, ${v.question})` })
      .onConflictDoNothing();
  }

  /**
   * An answer rated down puts its question on the list (`ratedDown`, with what was said and where it came from),
   * or adds the rating to the question already there (not covered); rated up again, a rated-down question the
   * owner has not answered leaves the list. `messageId` is the question's message.
   */
  async rated(
    tx: Executor,
    v: {
      sparkId: string;
      messageId: string;
      question: string;
      language: 'es' | 'en';
      rating: 'up' | 'down';
      rater: 'owner' | 'visitor';
      comment: string | null;
      answerGiven: string;
      sources: ReviewSource[];
    },
  ): Promise<void> {
    if (v.rating === 'up') {
      await tx
        .delete(unansweredQuestions)
        .where(
          and(
            eq(unansweredQuestions.messageId, v.messageId),
            eq(unansweredQuestions.reason, 'ratedDown'),
            isNull(unansweredQuestions.answeredAt),
          ),
        );
      await tx
        .update(unansweredQuestions)
        .set({ ratedBy: null, ratedAt: null, comment: null })
        .where(eq(unansweredQuestions.messageId, v.messageId));
      return;
    }
    const rating = { ratedBy: v.rater, ratedAt: sql`now()`, comment: v.comment };
    await tx
      .insert(unansweredQuestions)
      .values({
        sparkId: v.sparkId,
        messageId: v.messageId,
        question: v.question,
        language: v.language,
        groupKey: sql`question_group_key(${v.language}, ${v.question})`,
        reason: 'ratedDown',
        answerGiven: v.answerGiven,
        sources: v.sources,
        ...rating,
      })
      .onConflictDoUpdate({ target: unansweredQuestions.messageId, set: rating });
  }

  /** The Spark's groups: open ones first, then by the last time they were asked; dismissed questions left out. */
  async groups(sparkId: string, limit = 100): Promise<UnansweredGroup[]> {
    const result = await this.db.execute<{
      id: string;
      question: string;
      reason: ReviewReason;
      variants: string[];
      count: number;
      first_asked_at: string;
      last_asked_at: string;
      open: boolean;
      answered_at: string | null;
      answer: string | null;
      answer_given: string | null;
      sources: ReviewSource[];
      rated_by: 'owner' | 'visitor' | null;
      rated_at: string | null;
      comment: string | null;
    }>(sql`
      WITH u AS (
        SELECT * FROM unanswered_questions WHERE spark_id = ${sparkId} AND dismissed_at IS NULL
      ), g AS (
        SELECT u.group_key,
               (array_agg(u.id ORDER BY u.created_at DESC, u.id DESC))[1] AS id,
               (array_agg(u.id ORDER BY u.rated_at DESC) FILTER (WHERE u.rated_at IS NOT NULL))[1] AS rated_id,
               count(*)::int AS count,
               min(u.created_at) AS first_asked_at,
               max(u.created_at) AS last_asked_at,
               bool_or(u.answered_at IS NULL) AS open,
               max(u.answered_at) AS answered_at,
               (array_agg(u.document_id ORDER BY u.answered_at DESC NULLS LAST)
                  FILTER (WHERE u.document_id IS NOT NULL))[1] AS document_id
          FROM u
         GROUP BY u.group_key
      )
      SELECT g.id, g.count, g.first_asked_at, g.last_asked_at, g.open, g.answered_at,
             q.question, q.reason, q.answer_given, q.sources,
             r.rated_by, r.rated_at, r.comment,
             ARRAY(SELECT v.question FROM (
                     SELECT x.question, max(x.created_at) AS at FROM u x
                      WHERE x.group_key = g.group_key
                      GROUP BY x.question ORDER BY at DESC LIMIT 5) v) AS variants,
             (SELECT c.content FROM document_chunks c WHERE c.document_id = g.document_id ORDER BY c.ord LIMIT 1) AS answer
        FROM g
        JOIN u q ON q.id = g.id
        LEFT JOIN u r ON r.id = g.rated_id
       ORDER BY g.open DESC, g.last_asked_at DESC, g.id DESC
       LIMIT ${limit}`);
    return result.rows.map((r) => ({
      id: r.id,
      question: r.question,
      reason: r.reason,
      variants: r.variants,
      count: Number(r.count),
      firstAskedAt: new Date(r.first_asked_at),
      lastAskedAt: new Date(r.last_asked_at),
      status: r.open ? 'open' : 'answered',
      answeredAt: r.answered_at ? new Date(r.answered_at) : null,
      answer: r.answer === null ? null : r.answer.slice(r.answer.indexOf('\n') + 1),
      answerGiven: r.answer_given,
      sources: r.sources,
      ratedBy: r.rated_by,
      ratedAt: r.rated_at ? new Date(r.rated_at) : null,
      comment: r.comment,
    }));
  }

  /**
   * The owner dismisses the group of question `questionId` (of this Spark): its open questions leave the list; an
   * answered group keeps its answer. How many questions went; undefined when the question is not this Spark's.
   */
  async dismiss(v: { sparkId: string; questionId: string }): Promise<{ dismissed: number } | undefined> {
    return this.db.transaction(async (tx) => {
      const [asked] = await tx
        .select({ groupKey: unansweredQuestions.groupKey })
        .from(unansweredQuestions)
        .where(and(eq(unansweredQuestions.id, v.questionId), eq(unansweredQuestions.sparkId, v.sparkId)));
      if (!asked) return undefined;
      const done = await tx
        .update(unansweredQuestions)
        .set({ dismissedAt: sql`now()` })
        .where(
          and(
            eq(unansweredQuestions.sparkId, v.sparkId),
            eq(unansweredQuestions.groupKey, asked.groupKey),
            isNull(unansweredQuestions.answeredAt),
            isNull(unansweredQuestions.dismissedAt),
          ),
        )
        .returning({ id: unansweredQuestions.id });
      return { dismissed: done.length };
    });
  }

  /**
   * The owner answers the group of question `questionId` (of this Spark): the answer becomes a
   * knowledge entry of the Spark and every question of the group is marked answered (an earlier answer of the group is replaced), in one
   * transaction. Undefined when the question is not this Spark's.
   */
  async answer(v: {
    sparkId: string;
    userId: string;
    questionId: string;
    question: string;
    answer: string;
    language: 'es' | 'en';
  }): Promise<{ documentId: string } | undefined> {
    return this.db.transaction(async (tx) => {
      const [asked] = await tx
        .select({ groupKey: unansweredQuestions.groupKey })
        .from(unansweredQuestions)
        .where(and(eq(unansweredQuestions.id, v.questionId), eq(unansweredQuestions.sparkId, v.sparkId)))
        .for('update');
      if (!asked) return undefined;
      const group = and(eq(unansweredQuestions.sparkId, v.sparkId), eq(unansweredQuestions.groupKey, asked.groupKey));
      // Answering again replaces the group's earlier answer.
      const earlier = await tx
        .selectDistinct({ id: unansweredQuestions.documentId })
        .from(unansweredQuestions)
        .where(and(group, isNotNull(unansweredQuestions.documentId)));
      const id = await this.documents.withTx(tx).addOwnerAnswer(v);
      await tx
        .update(unansweredQuestions)
        .set({ answeredAt: sql`now()`, documentId: id })
        .where(group);
      const replaced = earlier.map((e) => e.id).filter((x): x is string => x !== null);
      await this.documents.withTx(tx).deleteOwnerAnswers(v.sparkId, replaced);
      return { documentId: id };
    });
  }

  /**
   * The owner takes back their answer to the group of question `questionId` (of this Spark): its
   * knowledge entries go (so retrieval no longer finds them) and the group is open again, in one
   * transaction. How many entries went; undefined when the question is not this Spark's.
   */
  async unanswer(v: { sparkId: string; questionId: string }): Promise<{ removed: number } | undefined> {
    return this.db.transaction(async (tx) => {
      const [asked] = await tx
        .select({ groupKey: unansweredQuestions.groupKey })
        .from(unansweredQuestions)
        .where(and(eq(unansweredQuestions.id, v.questionId), eq(unansweredQuestions.sparkId, v.sparkId)))
        .for('update');
      if (!asked) return undefined;
      const group = and(eq(unansweredQuestions.sparkId, v.sparkId), eq(unansweredQuestions.groupKey, asked.groupKey));
      const entries = (
        await tx
          .selectDistinct({ id: unansweredQuestions.documentId })
          .from(unansweredQuestions)
          .where(and(group, isNotNull(unansweredQuestions.documentId)))
      )
        .map((e) => e.id)
        .filter((x): x is string => x !== null);
      await tx.update(unansweredQuestions).set({ answeredAt: null, documentId: null }).where(group);
      if (entries.length === 0) return { removed: 0 };
      // The chunks go with their document (ON DELETE CASCADE).
      return { removed: await this.documents.withTx(tx).deleteOwnerAnswers(v.sparkId, entries) };
    });
  }
}
