import { Injectable } from '@nestjs/common';
import { isRateableAnswerKind, type AnswerFeedbackView } from '@sparks/contracts';
import { DomainError } from '@sparks/core';
import { FeedbackRepository, type RateableAnswer, type SparkRow } from '@sparks/db';
import { SparksService } from '../sparks/sparks.service';

/** A rateable answer with the question it answered. */
export type AnsweredQuestion = RateableAnswer & { questionId: string; question: string };

/** The answer when it can be rated: from the documents or "not covered", not an error, with its question. */
function answered(answer: RateableAnswer): AnsweredQuestion {
  const { questionId, question } = answer;
  if (!isRateableAnswerKind(answer.answerKind) || answer.isError || questionId === null || question === null) {
    throw DomainError.notFound();
  }
  return { ...answer, questionId, question };
}

/** What a rating asks for: thumbs up or down, and an optional comment. */
export interface Rating {
  rating: 'up' | 'down';
  comment?: string;
}

/**
 * Ratings of a Spark's answers (issue 35): the owner rates the answers of their test chats, a visitor the answers of
 * their own widget conversation. Only an answer from the documents can be rated (not a welcome message, an error or
 * an assistant's step); anything else, or another's, is not found. A rating down puts the question on the owner's
 * review list.
 * Only answers from the documents and "not covered" replies can be rated (`RATEABLE_ANSWER_KINDS`): small talk cannot.
 */
@Injectable()
export class FeedbackService {
  constructor(
    private readonly sparks: SparksService,
    private readonly feedback: FeedbackRepository,
  ) {}

  /**
   * An answer of one of the owner's test chats of this Spark that can be rated (or kept as a check), with the question
   * it answered; anything else is not found. A judged test's transcript is one too: its conversation stays a test
   * conversation of this Spark and owner once its test is gone (`test_id` null), so the test is not looked at.
   */
  async testAnswer(userId: string, spark: SparkRow, messageId: string): Promise<AnsweredQuestion> {
    const answer = await this.feedback.rateable(messageId);
    if (!answer || answer.kind !== 'test' || answer.sparkId !== spark.id || answer.userId !== userId) {
      throw DomainError.notFound();
    }
    return answered(answer);
  }

  /** The owner rates an answer of one of their Spark's test chats. */
  async byOwner(userId: string, sparkId: string, messageId: string, body: Rating): Promise<AnswerFeedbackView> {
    const spark = await this.sparks.owned(userId, sparkId);
    return this.rate(spark, await this.testAnswer(userId, spark, messageId), 'owner', body);
  }

  /** A visitor rates an answer of their conversation (the caller checked that it is theirs, of this Spark). */
  async byVisitor(spark: SparkRow, conversationId: string, messageId: string, body: Rating) {
    const answer = await this.feedback.rateable(messageId, conversationId);
    if (!answer || answer.kind !== 'widget' || answer.sparkId !== spark.id) throw DomainError.notFound();
    return this.rate(spark, answered(answer), 'visitor', body);
  }

  private async rate(
    spark: SparkRow,
    answer: AnsweredQuestion,
    rater: 'owner' | 'visitor',
    body: Rating,
  ): Promise<AnswerFeedbackView> {
    const row = await this.feedback.rate({
      sparkId: spark.id,
      answer,
      language: spark.options.language,
      rater,
      rating: body.rating,
      comment: body.comment ?? null,
    });
    return {
      messageId: row.messageId,
      rating: row.rating,
      comment: row.comment,
      ratedAt: row.updatedAt.toISOString(),
    };
  }
}
