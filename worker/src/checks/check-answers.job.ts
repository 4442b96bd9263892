import { Inject, Injectable, Logger } from '@nestjs/common';
import { checksChangedMessage, checksReviewLabel, type AppConfig } from '@sparks/core';
import {
  AccountsRepository,
  ChecksRepository,
  ConversationsRepository,
  SparksRepository,
  toWireMessage,
  type CheckRow,
} from '@sparks/db';
import { AnswerEngine } from '@sparks/engine';
import { CONFIG, REDIS } from '@sparks/nest';
import { publishMessage, type JobPayloads } from '@sparks/queues';
import type { Redis } from 'ioredis';

/** What an answer says: without its source footer ("— *Menu, page 2*"), emphasis, case and spacing. */
function said(answer: string): string {
  return answer
    .replace(/\n\n— \*[\s\S]*$/, '')
    .replace(/[*_`]/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();
}

/** The shortest approved answer that may be found inside a longer one and count as given (a bare "yes" may not). */
const CONTAINED_FROM = 20;

/**
 * Whether an answer gives the approved one: the same words once the source footer, emphasis, case and spacing are
 * set aside, or one holding the other whole (an owner's answer the Spark gives with a greeting, say).
 */
export function sameAnswer(answer: string, approved: string): boolean {
  const [a, b] = [said(answer), said(approved)];
  if (a === b) return true;
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  return short.length >= CONTAINED_FROM && long.includes(short);
}

/**
 * `checks.run` (issue 35 item 3): asks every answer check of a Spark again, as a test would (the answer engine, no
 * interaction counted), records what it answered, and when answers differ from the approved ones posts them side by
 * side in the Spark's chat with a button to the checks. Idempotent: a run again finds the same answers, and a change
 * already told is not told twice.
 */
@Injectable()
export class CheckAnswersJob {
  private readonly logger = new Logger(CheckAnswersJob.name);

  constructor(
    private readonly checks: ChecksRepository,
    private readonly sparks: SparksRepository,
    private readonly conversations: ConversationsRepository,
    private readonly accounts: AccountsRepository,
    private readonly engine: AnswerEngine,
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(CONFIG) private readonly config: AppConfig,
  ) {}

  async handle(payload: JobPayloads['checks.run']): Promise<{ checked: number; changed: number }> {
    const spark = await this.sparks.findById(payload.sparkId);
    if (!spark) return { checked: 0, changed: 0 };
    const checks = await this.checks.list(spark.id);
    const told: Array<{ check: CheckRow; now: string }> = [];
    let changed = 0;
    for (const check of checks) {
      const answer = await this.engine.answer({
        sparkId: spark.id,
        language: spark.options.language,
        initialMessage: spark.options.initialMessage,
        sysPrompt: spark.options.sysPrompt,
        question: check.question,
        history: [],
        audience: 'owner',
        // Nobody reads a check as it is written.
        onToken: () => undefined,
      });
      // A failure is not an answer: the job is tried again.
      if (answer.kind === 'error') throw new Error(`the answer engine failed on check ${check.id}`);
      const same = sameAnswer(answer.text, check.expected);
      await this.checks.recordRun(check, answer.text, same);
      if (same) continue;
      changed += 1;
      // A check asked for the first time that differs (one typed in other words) shows on the checks list to
      // approve; the chat tells only an answer that changed since the check was last asked.
      const news = check.announced === null || !sameAnswer(answer.text, check.announced);
      if (check.status !== 'pending' && news) told.push({ check, now: answer.text });
    }
    if (told.length > 0) await this.tell(spark.userId, spark.id, told);
    return { checked: checks.length, changed };
  }

  /** The Spark's chat (its builder conversation, when it has one) says which answers changed. */
  private async tell(userId: string, sparkId: string, told: Array<{ check: CheckRow; now: string }>): Promise<void> {
    const conversation = await this.conversations.latest(userId, { kind: 'builder', sparkId });
    if (conversation) {
      const language = (await this.accounts.findUserById(userId))?.language ?? 'en';
      const content = checksChangedMessage(
        language,
        told.map(({ check, now }) => ({ question: check.question, expected: check.expected, now })),
      );
      const message = await this.conversations.addMessage(conversation.id, 'ai', { content, type: 'checks' });
      const buttons = await this.conversations.addMessage(conversation.id, 'action', {
        content: '',
        type: 'buttons',
        buttons: [{ label: checksReviewLabel(language), goto: `/spark/${sparkId}?review=checks` }],
      });
      for (const m of [message, buttons]) {
        await publishMessage(this.redis, this.config.QUEUE_PREFIX, conversation.id, toWireMessage(m), (t) =>
          this.logger.warn(t),
        );
      }
    }
    await this.checks.markAnnounced(told.map(({ check, now }) => ({ id: check.id, answer: now })));
  }
}
