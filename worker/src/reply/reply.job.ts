import { Injectable, Logger } from '@nestjs/common';
import { translateError, type ErrorCode } from '@sparks/core';
import {
  AccountsRepository,
  ConversationsRepository,
  SparksRepository,
  toWireMessage,
  UnansweredRepository,
  type ConversationRow,
  type MessageRow,
} from '@sparks/db';
import { AnswerEngine, FlowEngine, isStartKeyword } from '@sparks/engine';
import type { ConversationEvent, JobPayloads } from '@sparks/queues';
import { UnrecoverableError, type Job } from 'bullmq';
import { uuidv7 } from 'uuidv7';
import { FlowPortsFactory } from '../flows/flow-ports.factory';
import { ConversationEvents } from './conversation-events';

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
    private readonly ports: FlowPortsFactory,
    private readonly events: ConversationEvents,
    private readonly unanswered: UnansweredRepository,
  ) {}

  private publish(conversationId: string, event: ConversationEvent): Promise<void> {
    return this.events.publish(conversationId, event);
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
    const ports = this.ports.for(conversation.userId, flow, sparkId);
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
        answerGiven: answer.text,
      });
    }
    await this.finish(conversation, human, [reply]);
  }
}
