import { Injectable } from '@nestjs/common';
import { MAX_CHECKS_PER_SPARK, type CheckView, type CreateCheckRequest } from '@sparks/contracts';
import { DomainError } from '@sparks/core';
import { ChecksRepository, type CheckRow } from '@sparks/db';
import { JobProducer } from '@sparks/queues';
import { SparksService } from '../sparks/sparks.service';
import { FeedbackService } from './feedback.service';

const view = (c: CheckRow): CheckView => ({
  id: c.id,
  question: c.question,
  expected: c.expected,
  origin: c.origin,
  status: c.status,
  latest: c.latest,
  checkedAt: c.checkedAt?.toISOString() ?? null,
  createdAt: c.createdAt.toISOString(),
});

/**
 * A Spark's answer checks (issue 35 item 3), owner only: kept from a test's answer (rated up, typically), from a fixed
 * question of the review list, or typed; asked again by the worker whenever the Spark's knowledge changes
 * (`checks.run`), and at once when kept or asked for.
 */
@Injectable()
export class ChecksService {
  constructor(
    private readonly sparks: SparksService,
    private readonly checks: ChecksRepository,
    private readonly answers: FeedbackService,
    private readonly producer: JobProducer,
  ) {}

  async list(userId: string, sparkId: string): Promise<CheckView[]> {
    await this.sparks.owned(userId, sparkId);
    return (await this.checks.list(sparkId)).map(view);
  }

  async keep(userId: string, sparkId: string, body: CreateCheckRequest): Promise<CheckView> {
    const spark = await this.sparks.owned(userId, sparkId);
    let kept: { question: string; expected: string; origin: CheckRow['origin'] };
    if ('messageId' in body) {
      // An answer of one of this owner's test chats of this Spark, with the question it answered.
      const answer = await this.answers.testAnswer(userId, spark, body.messageId);
      kept = { question: answer.question, expected: answer.content, origin: 'rating' };
    } else {
      kept = { question: body.question, expected: body.answer, origin: body.origin ?? 'owner' };
    }
    const row = await this.checks.keep({ sparkId, ...kept, language: spark.options.language });
    if (row === 'full') throw DomainError.of('CHECKS_LIMIT', { max: MAX_CHECKS_PER_SPARK });
    await this.producer.requestChecks(sparkId);
    return view(row);
  }

  async approve(userId: string, sparkId: string, checkId: string): Promise<CheckView> {
    await this.sparks.owned(userId, sparkId);
    const row = await this.checks.approve(sparkId, checkId);
    if (!row) throw DomainError.notFound();
    return view(row);
  }

  async remove(userId: string, sparkId: string, checkId: string): Promise<{ deleted: true }> {
    await this.sparks.owned(userId, sparkId);
    if (!(await this.checks.remove(sparkId, checkId))) throw DomainError.notFound();
    return { deleted: true };
  }

  /** The owner asks for a run now (the checks' page "Check now"). */
  async runNow(userId: string, sparkId: string): Promise<{ queued: true }> {
    await this.sparks.owned(userId, sparkId);
    await this.producer.requestChecks(sparkId);
    return { queued: true };
  }
}
