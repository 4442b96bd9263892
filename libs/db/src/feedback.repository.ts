import { and, eq, inArray, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Database } from './client';
import { answerFeedback, conversations, messages, type ReviewSource } from './schema/index';
import { UnansweredRepository } from './unanswered.repository';

/** An answer someone may rate, with the conversation it belongs to and the question it answered. */
export interface RateableAnswer {
  messageId: string;
  conversationId: string;
  kind: 'system' | 'builder' | 'test' | 'widget';
  sparkId: string | null;
  /** The conversation's user: the owner of a test chat (a widget conversation's is the Spark's owner too). */
  userId: string;
  /** What the answer said, and how it was made (`data.answer`: answered, notCovered…; absent on other messages). */
  content: string;
  answerKind: string | null;
  isError: boolean;
  sources: ReviewSource[];
  /** The visitor's or owner's question it answered. */
  questionId: string | null;
  question: string | null;
}

export interface FeedbackRow {
  messageId: string;
  rating: 'up' | 'down';
  comment: string | null;
  updatedAt: Date;
}

/** Sources as the worker stores them on an answer (`data.sources`), kept to what the review list shows. */
function sourcesOf(raw: unknown): ReviewSource[] {
  if (!Array.isArray(raw)) return [];
  return raw.flatMap((s: unknown) => {
    if (typeof s !== 'object' || s === null) return [];
    const { documentId, document, page } = s as Record<string, unknown>;
    return typeof documentId === 'string' && typeof document === 'string' && typeof page === 'number'
      ? [{ documentId, document, page }]
      : [];
  });
}

/**
 * Ratings of answers (issue 35): the owner's in a test chat, a visitor's in the widget; one per answer and rater.
 * A rating down also puts the question on the owner's review list (`UnansweredRepository.rated`), in the same
 * transaction.
 */
export class FeedbackRepository {
  constructor(
    private readonly db: Database,
    private readonly unanswered = new UnansweredRepository(db),
  ) {}

  /** The ai message `messageId` (of conversation `conversationId` when given), with its conversation and question. */
  async rateable(messageId: string, conversationId?: string): Promise<RateableAnswer | undefined> {
    const question = alias(messages, 'question');
    const [row] = await this.db
      .select({
        messageId: messages.id,
        conversationId: messages.conversationId,
        type: messages.type,
        data: messages.data,
        kind: conversations.kind,
        sparkId: conversations.sparkId,
        userId: conversations.userId,
        questionId: question.id,
        questionData: question.data,
      })
      .from(messages)
      .innerJoin(conversations, eq(conversations.id, messages.conversationId))
      .leftJoin(question, and(eq(question.id, messages.replyTo), eq(question.conversationId, messages.conversationId)))
      .where(
        conversationId
          ? and(eq(messages.id, messageId), eq(messages.conversationId, conversationId))
          : eq(messages.id, messageId),
      );
    if (!row || row.type !== 'ai') return undefined;
    const answerKind = typeof row.data.answer === 'string' ? row.data.answer : null;
    return {
      messageId: row.messageId,
      conversationId: row.conversationId,
      kind: row.kind,
      sparkId: row.sparkId,
      userId: row.userId,
      content: row.data.content,
      answerKind,
      isError: row.data.type === 'error' || answerKind === 'error',
      sources: sourcesOf(row.data.sources),
      questionId: row.questionId,
      question: row.questionData?.content ?? null,
    };
  }

  /**
   * Records a rating (replacing the rater's earlier one) and keeps the review list in step with it, in one
   * transaction: rated down, the question joins the list with what was said; rated up again, it leaves it.
   */
  async rate(v: {
    sparkId: string;
    answer: RateableAnswer & { questionId: string; question: string };
    language: 'es' | 'en';
    rater: 'owner' | 'visitor';
    rating: 'up' | 'down';
    comment: string | null;
  }): Promise<FeedbackRow> {
    return this.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(answerFeedback)
        .values({
          sparkId: v.sparkId,
          messageId: v.answer.messageId,
          rater: v.rater,
          rating: v.rating,
          comment: v.comment,
        })
        .onConflictDoUpdate({
          target: [answerFeedback.messageId, answerFeedback.rater],
          set: { rating: v.rating, comment: v.comment, updatedAt: sql`now()` },
        })
        .returning();
      await this.unanswered.rated(tx, {
        sparkId: v.sparkId,
        messageId: v.answer.questionId,
        question: v.answer.question,
        language: v.language,
        rating: v.rating,
        rater: v.rater,
        comment: v.comment,
        answerGiven: v.answer.content,
        sources: v.answer.sources,
      });
      if (!row) throw new Error('the rating was not written');
      return { messageId: row.messageId, rating: row.rating, comment: row.comment, updatedAt: row.updatedAt };
    });
  }

  /** The rater's ratings of a conversation's answers, by message (to show them back in the chat). */
  async ofConversation(conversationId: string, rater: 'owner' | 'visitor'): Promise<Map<string, FeedbackRow>> {
    const rows = await this.db
      .select({
        messageId: answerFeedback.messageId,
        rating: answerFeedback.rating,
        comment: answerFeedback.comment,
        updatedAt: answerFeedback.updatedAt,
      })
      .from(answerFeedback)
      .where(
        and(
          eq(answerFeedback.rater, rater),
          inArray(
            answerFeedback.messageId,
            this.db.select({ id: messages.id }).from(messages).where(eq(messages.conversationId, conversationId)),
          ),
        ),
      );
    return new Map(rows.map((r) => [r.messageId, r]));
  }
}
