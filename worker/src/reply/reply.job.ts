import { Inject, Injectable, Logger } from '@nestjs/common';
import { translateError, type AppConfig, type ErrorCode } from '@sparks/core';
import {
  AccountsRepository,
  BillingRepository,
  ConversationsRepository,
  IntegrationsRepository,
  ObjectivesRepository,
  SearchRepository,
  SparksRepository,
  toWireMessage,
  UnansweredRepository,
  type DbHandle,
  type ConversationRow,
  type MessageRow,
} from '@sparks/db';
import { AnswerEngine, FlowEngine, isStartKeyword, type LlmProvider } from '@sparks/engine';
import { JobProducer, publishConversationEvent, type ConversationEvent, type JobPayloads } from '@sparks/queues';
import { UnrecoverableError, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { uuidv7 } from 'uuidv7';
import { CONFIG, DB, REDIS } from '@sparks/nest';
import { flowPorts } from '../flows/flow-ports';
import { DocumentIntake, PlanGates, SparkRules, SparkTestRules } from '@sparks/domain';
import type { MicrosoftGraph } from '@sparks/knowledge';
import { LLM } from '../infra/tokens';
import { INGEST_PRODUCER } from '../ingestion/tokens';
import { MICROSOFT } from '../integrations/tokens';

/**
 * `reply.generate`: answers one human message. Test and widget conversations go to the answer
 * engine; system assistants and builder chats to the flow engine. Idempotent: a redelivered job
 * finds the reply already stored and only announces it again.
 */
@Injectable()
export class ReplyJob {
  private readonly logger = new Logger(ReplyJob.name);

  constructor(
    private readonly conversations: ConversationsRepository,
    private readonly sparks: SparksRepository,
    private readonly accounts: AccountsRepository,
    private readonly engine: AnswerEngine,
    private readonly flows: FlowEngine,
    private readonly objectives: ObjectivesRepository,
    private readonly sparkRules: SparkRules,
    private readonly testRules: SparkTestRules,
    @Inject(DB) private readonly dbHandle: DbHandle,
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(CONFIG) private readonly config: AppConfig,
    @Inject(LLM) private readonly llm: LlmProvider | null,
    private readonly integrations: IntegrationsRepository,
    private readonly intake: DocumentIntake,
    private readonly plans: PlanGates,
    @Inject(MICROSOFT) private readonly microsoft: MicrosoftGraph,
    @Inject(INGEST_PRODUCER) private readonly producer: JobProducer,
    private readonly unanswered: UnansweredRepository,
    private readonly search: SearchRepository,
    private readonly billing: BillingRepository,
  ) {}

  private publish(conversationId: string, event: ConversationEvent): Promise<void> {
    return publishConversationEvent(this.redis, this.config.QUEUE_PREFIX, conversationId, event);
  }

  private async finish(conversation: ConversationRow, human: MessageRow, replies: MessageRow[]): Promise<void> {
    const wire = replies.map(toWireMessage);
    for (const message of wire) await this.publish(conversation.id, { type: 'message', replyTo: human.id, message });
    await this.publish(conversation.id, { type: 'done', replyTo: human.id, messages: wire });
  }

  private async fail(conversation: ConversationRow, human: MessageRow, code: ErrorCode): Promise<void> {
    const user = await this.accounts.findUserById(conversation.userId);
    await this.publish(conversation.id, {
      type: 'error',
      replyTo: human.id,
      code,
      message: translateError(code, user?.language ?? 'en'),
    });
  }

  async handle(payload: JobPayloads['reply.generate'], job: Job): Promise<void> {
    const conversation = await this.conversations.findById(payload.conversationId);
    const human = conversation && (await this.conversations.findMessage(conversation.id, payload.messageId));
    if (!conversation || !human) throw new UnrecoverableError('conversation or message no longer exists');

    const existing = await this.conversations.repliesTo(human.id);
    if (existing.length > 0) return this.finish(conversation, human, existing);

    try {
      switch (conversation.kind) {
        case 'test':
        case 'widget':
          return await this.answer(conversation, human);
        case 'system':
        case 'builder':
          return await this.converse(conversation, human);
      }
    } catch (err) {
      const last = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
      this.logger.warn(`reply to ${human.id} failed (attempt ${job.attemptsMade + 1}): ${String(err)}`);
      if (last || err instanceof UnrecoverableError) await this.fail(conversation, human, 'REPLY_FAILED');
      throw err;
    }
  }

  /** System assistants and the Spark builder: the flow engine, with the conversation's saved state. */
  private async converse(conversation: ConversationRow, human: MessageRow): Promise<void> {
    const name = conversation.kind === 'builder' ? 'builder' : (conversation.systemName ?? 'main');
    if (!this.flows.has(name)) return this.fail(conversation, human, 'ASSISTANT_UNAVAILABLE');
    const flow = this.flows.flow(name);
    // The stored state, read with the flow's schema (an older version is migrated): the engine does it again in `run`.
    const sparkId = conversation.sparkId ?? this.flows.read(name, conversation.state)?.sparkId ?? null;
    const ports = flowPorts(
      {
        db: this.dbHandle.db,
        accounts: this.accounts,
        sparks: this.sparks,
        objectives: this.objectives,
        sparkRules: this.sparkRules,
        testRules: this.testRules,
        help: { plans: () => this.billing.plans(), search: this.search },
        llm: this.llm ?? undefined,
        onLlmError: (err) =>
          this.logger.warn(`language model failed, the rules or the template stand in: ${String(err)}`),
        sharing: {
          integrations: this.integrations,
          intake: this.intake,
          plans: this.plans,
          microsoft: this.microsoft,
          producer: this.producer,
        },
      },
      conversation.userId,
      flow,
      sparkId,
    );
    const user = await this.accounts.findUserById(conversation.userId);
    const result = await this.flows.run(name, human.data.content, {
      language: user?.language ?? 'es',
      state: conversation.state,
      ports,
    });
    const replies: MessageRow[] = [];
    for (const [i, output] of result.outputs.entries()) {
      replies.push(await this.conversations.addReply(conversation.id, human.id, i, output.type, output.data));
    }
    await this.conversations.setState(conversation.id, result.state);
    await this.finish(conversation, human, replies);
  }

  private async answer(conversation: ConversationRow, human: MessageRow): Promise<void> {
    const spark = conversation.sparkId ? await this.sparks.findById(conversation.sparkId) : undefined;
    if (!spark) throw new UnrecoverableError('the Spark of this conversation no longer exists');
    const earlier = (await this.conversations.history(conversation.id, 21))
      .filter((m) => m.id !== human.id && m.type !== 'action' && m.data.content && !isStartKeyword(m.data.content))
      .map((m) => ({ role: m.type === 'human' ? ('user' as const) : ('assistant' as const), content: m.data.content }));
    const replyId = uuidv7();
    const question = human.data.content;
    const answer = await this.engine.answer({
      sparkId: spark.id,
      language: spark.options.language,
      initialMessage: spark.options.initialMessage,
      sysPrompt: spark.options.sysPrompt,
      question,
      history: earlier,
      audience: conversation.kind === 'widget' ? 'visitor' : 'owner',
      onToken: (text) => this.publish(conversation.id, { type: 'token', replyTo: human.id, messageId: replyId, text }),
    });
    const reply = await this.conversations.addReply(
      conversation.id,
      human.id,
      0,
      'ai',
      {
        content: answer.text,
        ...(answer.kind === 'error' ? { type: 'error' } : {}),
        answer: answer.kind,
        engine: answer.engine,
        sources: answer.sources,
      },
      replyId,
    );
    if (answer.kind === 'notCovered') {
      await this.unanswered.record({
        sparkId: spark.id,
        messageId: human.id,
        question,
        language: spark.options.language,
      });
    }
    await this.finish(conversation, human, [reply]);
  }
}
