import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { START_KEYWORD, type ChatHistory, type SystemAssistant } from '@sparks/contracts';
import { DomainError, translateError, type AppConfig } from '@sparks/core';
import {
  ConversationsRepository,
  FeedbackRepository,
  toRatedWireMessages,
  type FeedbackRow,
  type ConversationRow,
  type MessageRow,
} from '@sparks/db';
import { JobProducer, type ConversationEvent } from '@sparks/queues';
import { CONFIG } from '@sparks/nest';
import { SparkTestsService } from '../sparks/spark-tests.service';
import { SparksService } from '../sparks/sparks.service';
import { ConversationEventsService } from './conversation-events.service';
import {
  INTERACTION_METER,
  type ChatCaller,
  type ChatTurn,
  type InteractionMeter,
  type TurnOptions,
  type UserCaller,
} from './converse';
import { TurnEvents } from './turn-events';

/** Messages in a history (the repository's default). */
const HISTORY_LIMIT = 500;

function checkedText(text: string): string {
  if (!text || text.trim() === '') throw DomainError.invalid('EMPTY_MESSAGE', 'input.text');
  return text.trim();
}

/** The repository's history order: oldest first, ties by id. */
const byTime = (a: MessageRow, b: MessageRow) =>
  a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/**
 * The chat's use cases. Each checks access first, then runs a turn with `converse`: store the
 * human message, enqueue `reply.generate`, and return the events the worker publishes. No
 * transport here: `chat.transport.ts` writes a turn as an event stream or as one JSON answer.
 */
@Injectable()
export class ChatService {
  private readonly logger = new Logger(ChatService.name);

  constructor(
    private readonly conversations: ConversationsRepository,
    private readonly feedback: FeedbackRepository,
    private readonly sparks: SparksService,
    private readonly tests: SparkTestsService,
    private readonly events: ConversationEventsService,
    private readonly jobs: JobProducer,
    @Inject(CONFIG) private readonly config: AppConfig,
    @Optional() @Inject(INTERACTION_METER) private readonly meter?: InteractionMeter,
  ) {}

  // — the use cases: access check, then a turn —

  /** A message to one of the user's test chats (the test's latest conversation, or `conversationId`). */
  async sendToTest(
    user: UserCaller,
    input: { sparkId: string; testId: string; conversationId?: string | null; text: string },
    options: TurnOptions,
  ): Promise<ChatTurn> {
    const conversation = await this.testConversation(user.userId, input.sparkId, input.testId, input.conversationId);
    return this.converse(user, conversation, input.text, options);
  }

  /** Restarts a test: forgets its conversations and starts a new one with the start keyword. */
  async restartTest(user: UserCaller, input: { sparkId: string; testId: string }, options: TurnOptions) {
    await this.tests.owned(user.userId, input.sparkId, input.testId);
    await this.conversations.deleteWhere(user.userId, { testId: input.testId });
    const conversation = await this.conversations.create(user.userId, {
      kind: 'test',
      sparkId: input.sparkId,
      testId: input.testId,
    });
    return this.converse(user, conversation, START_KEYWORD, options);
  }

  /** A message to the builder chat of one of the user's Sparks (its latest conversation, or `sessionId`). */
  async sendToBuilder(
    user: UserCaller,
    input: { sparkId: string; sessionId?: string | null; text: string },
    options: TurnOptions,
  ): Promise<ChatTurn> {
    const conversation = await this.builderConversation(user.userId, input.sparkId, input.sessionId);
    return this.converse(user, conversation, input.text, options);
  }

  /** A message to a system assistant (a new conversation unless `sessionId`), optionally about a Spark of the user's. */
  async sendToSystemAssistant(
    user: UserCaller,
    input: { name: SystemAssistant; sessionId?: string; sparkId?: string; text: string },
    options: TurnOptions,
  ): Promise<ChatTurn> {
    const conversation = await this.systemConversation(user.userId, input.name, input.sessionId, input.sparkId);
    return this.converse(user, conversation, input.text, options);
  }

  // — histories —

  async history(userId: string, conversationId: string): Promise<ChatHistory> {
    return this.historyOf(await this.owned(userId, conversationId, () => true));
  }

  async testHistory(userId: string, sparkId: string, testId: string): Promise<ChatHistory> {
    return this.historyOf(await this.testConversation(userId, sparkId, testId));
  }

  async builderHistory(userId: string, sparkId: string): Promise<ChatHistory> {
    return this.historyOf(await this.builderConversation(userId, sparkId));
  }

  private async historyOf(conversation: ConversationRow): Promise<ChatHistory> {
    const messages = await this.conversations.history(conversation.id);
    // A test's answers come back with the owner's ratings of them (issue 35).
    const ratings =
      conversation.kind === 'test'
        ? await this.feedback.ofConversation(conversation.id, 'owner')
        : new Map<string, FeedbackRow>();
    return {
      messages: toRatedWireMessages(messages, ratings),
      sessionId: conversation.id,
      sparkId: conversation.sparkId,
    };
  }

  // — the core —

  /**
   * One turn in a conversation whose access the caller has already checked: meter `reserve` (if
   * any), store the human message (with the history so far when `options.history`), subscribe to
   * the conversation's channel, enqueue `reply.generate`, and return the turn's events. A failure
   * before the events start (an empty message, Redis away) throws, takes the message back and
   * releases the reservation. The events end with `done` or `error`; at REPLY_TIMEOUT_MS an
   * `error` REPLY_TIMEOUT is produced. Meter: `settle` on `done`, `release` on `error`.
   *
   * Callers: the use cases above (a signed-in user) and, next, the public widget API (a
   * `VisitorCaller`, its conversation resolved from the deploy token and visitor id).
   */
  async converse(
    caller: ChatCaller,
    conversation: ConversationRow,
    text: string,
    options: TurnOptions,
  ): Promise<ChatTurn> {
    const content = checkedText(text);
    const meter = options.meter ?? this.meter;
    const reservation = meter ? await meter.reserve({ caller, conversation, text: content }) : undefined;
    try {
      const [stored, earlier] = await Promise.all([
        this.conversations.addMessage(conversation.id, 'human', { content }),
        options.history ? this.conversations.history(conversation.id, HISTORY_LIMIT) : undefined,
      ]);
      const history =
        earlier &&
        (earlier.some((m) => m.id === stored.id) ? earlier : [...earlier, stored].sort(byTime).slice(-HISTORY_LIMIT));
      return await this.startTurn(conversation, stored, history, options, meter ? { meter, reservation } : undefined);
    } catch (err) {
      if (meter) await this.quietly(meter.release(reservation, { code: 'NOT_SENT' }), 'release');
      throw err;
    }
  }

  /**
   * Subscribes first, then enqueues: no event can be published before we listen. When either fails
   * (Redis away), the human message is taken back, so no message waits for an answer never asked for.
   */
  private async startTurn(
    conversation: ConversationRow,
    human: MessageRow,
    history: MessageRow[] | undefined,
    options: TurnOptions,
    metering: { meter: InteractionMeter; reservation: unknown } | undefined,
  ): Promise<ChatTurn> {
    let outcome: ConversationEvent | undefined;
    let stopListening: (() => Promise<void>) | undefined;
    const stop = () => {
      clearTimeout(timer);
      const unsubscribe = stopListening;
      stopListening = undefined;
      void unsubscribe?.().catch(() => undefined);
    };
    // The client left: stop relaying. With a meter, keep listening until the outcome to settle it.
    const events = new TurnEvents<ConversationEvent>(() => {
      if (!metering) stop();
    });
    const finish = (e: ConversationEvent) => {
      if (outcome) return;
      outcome = e;
      events.push(e);
      events.end();
      stop();
      if (!metering) return;
      const { meter, reservation } = metering;
      if (e.type === 'done') void this.quietly(meter.settle(reservation, { human, messages: e.messages }), 'settle');
      else if (e.type === 'error') void this.quietly(meter.release(reservation, { code: e.code }), 'release');
    };
    const onEvent = (e: ConversationEvent) => {
      if (e.type !== 'message' && e.replyTo !== human.id) return;
      if (e.type === 'done' || e.type === 'error') finish(e);
      else events.push(e);
    };

    // The reply timeout; `stop` clears it.
    const timer = setTimeout(
      () =>
        finish({
          type: 'error',
          replyTo: human.id,
          code: 'REPLY_TIMEOUT',
          message: translateError('REPLY_TIMEOUT', options.language),
        }),
      this.config.REPLY_TIMEOUT_MS,
    );

    try {
      stopListening = await this.events.listen(conversation.id, onEvent);
      await this.jobs.enqueue('reply.generate', { conversationId: conversation.id, messageId: human.id });
    } catch (err) {
      stop();
      await this.conversations.deleteMessage(conversation.id, human.id);
      throw err;
    }
    return {
      conversation,
      human,
      history,
      events,
      close: () => {
        events.end();
        if (!metering) stop();
      },
    };
  }

  private async quietly(work: Promise<void>, step: string): Promise<void> {
    await work.catch((err: unknown) => this.logger.error({ err }, `interaction meter: ${step} failed`));
  }

  // — which conversation: access first (run alongside the lookup: one round trip), then create —

  private async owned(userId: string, id: string, match: (c: ConversationRow) => boolean): Promise<ConversationRow> {
    const conversation = await this.conversations.findOwned(userId, id);
    if (!conversation || !match(conversation)) throw DomainError.notFound();
    return conversation;
  }

  private async systemConversation(
    userId: string,
    name: SystemAssistant,
    sessionId?: string,
    sparkId?: string,
  ): Promise<ConversationRow> {
    const [, found] = await Promise.all([
      sparkId ? this.sparks.owned(userId, sparkId) : undefined,
      sessionId ? this.owned(userId, sessionId, (c) => c.kind === 'system' && c.systemName === name) : undefined,
    ]);
    return found ?? this.conversations.create(userId, { kind: 'system', systemName: name, sparkId: sparkId ?? null });
  }

  private async builderConversation(
    userId: string,
    sparkId: string,
    sessionId?: string | null,
  ): Promise<ConversationRow> {
    const [, found] = await Promise.all([
      this.sparks.owned(userId, sparkId),
      sessionId
        ? this.owned(userId, sessionId, (c) => c.kind === 'builder' && c.sparkId === sparkId)
        : this.conversations.latest(userId, { kind: 'builder', sparkId }),
    ]);
    // None yet: made under a lock, so a page loading it and a message sent to it at once share one.
    return found ?? this.conversations.latestOrCreate(userId, { kind: 'builder', sparkId });
  }

  private async testConversation(
    userId: string,
    sparkId: string,
    testId: string,
    conversationId?: string | null,
  ): Promise<ConversationRow> {
    const [, found] = await Promise.all([
      this.tests.owned(userId, sparkId, testId),
      conversationId
        ? this.owned(userId, conversationId, (c) => c.kind === 'test' && c.sparkId === sparkId && c.testId === testId)
        : this.conversations.latest(userId, { kind: 'test', sparkId, testId }),
    ]);
    return found ?? this.conversations.latestOrCreate(userId, { kind: 'test', sparkId, testId });
  }
}
