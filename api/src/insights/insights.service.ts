import { Injectable } from '@nestjs/common';
import type { AnswerUnansweredRequest, UnansweredGroupView } from '@sparks/contracts';
import { DomainError } from '@sparks/core';
import { UnansweredRepository, type UnansweredGroup } from '@sparks/db';
import { JobProducer } from '@sparks/queues';
import { SparksService } from '../sparks/sparks.service';

const view = (g: UnansweredGroup): UnansweredGroupView => ({
  id: g.id,
  question: g.question,
  reason: g.reason,
  variants: g.variants,
  count: g.count,
  firstAskedAt: g.firstAskedAt.toISOString(),
  lastAskedAt: g.lastAskedAt.toISOString(),
  status: g.status,
  answeredAt: g.answeredAt?.toISOString() ?? null,
  answer: g.answer,
  answerGiven: g.answerGiven,
  sources: g.sources,
  ratedBy: g.ratedBy,
  ratedAt: g.ratedAt?.toISOString() ?? null,
  comment: g.comment,
});

/**
 * The Spark's review list (owner only): the questions it could not answer and the answers rated down, grouped, and
 * the owner's answers to them.
 */
@Injectable()
export class InsightsService {
  constructor(
    private readonly sparks: SparksService,
    private readonly unanswered: UnansweredRepository,
    private readonly producer: JobProducer,
  ) {}

  async groups(userId: string, sparkId: string): Promise<UnansweredGroupView[]> {
    await this.sparks.owned(userId, sparkId);
    return (await this.unanswered.groups(sparkId)).map(view);
  }

  /** The answer becomes knowledge of the Spark, cited as added by the owner; the group is answered. */
  async answer(userId: string, sparkId: string, questionId: string, body: AnswerUnansweredRequest) {
    const spark = await this.sparks.owned(userId, sparkId);
    const groups = await this.unanswered.groups(sparkId);
    const asked = groups.find((g) => g.id === questionId);
    const done = await this.unanswered.answer({
      sparkId,
      userId,
      questionId,
      question: body.question ?? asked?.question ?? '',
      answer: body.answer,
      language: spark.options.language,
    });
    if (!done) throw DomainError.notFound();
    // The owner's answer changed the Spark's knowledge: its answer checks run again.
    await this.producer.requestChecks(sparkId);
    return { documentId: done.documentId, groups: (await this.unanswered.groups(sparkId)).map(view) };
  }

  /**
   * The owner takes back their answer: it leaves the Spark's knowledge at once (the next question no
   * longer finds it) and the group is open again.
   */
  async unanswer(userId: string, sparkId: string, questionId: string) {
    await this.sparks.owned(userId, sparkId);
    const done = await this.unanswered.unanswer({ sparkId, questionId });
    if (!done) throw DomainError.notFound();
    await this.producer.requestChecks(sparkId);
    return { removed: done.removed, groups: (await this.unanswered.groups(sparkId)).map(view) };
  }

  /** The owner dismisses a group: its open questions leave the list (asked again, the question comes back). */
  async dismiss(userId: string, sparkId: string, questionId: string) {
    await this.sparks.owned(userId, sparkId);
    const done = await this.unanswered.dismiss({ sparkId, questionId });
    if (!done) throw DomainError.notFound();
    return { dismissed: done.dismissed, groups: (await this.unanswered.groups(sparkId)).map(view) };
  }
}
