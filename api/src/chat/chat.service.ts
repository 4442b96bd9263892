import { Inject, Injectable } from '@nestjs/common';
import type { ChatHistory, ChatMessageView, SystemAssistant } from '@sparks/contracts';
import { DomainError, translateError, type AppConfig, type Language } from '@sparks/core';
import { ConversationsRepository, toWireMessage, type ConversationRow, type MessageRow } from '@sparks/db';
import { JobProducer, type ConversationEvent } from '@sparks/queues';
import type { Response } from 'express';
import { CONFIG } from '../infra/tokens';
import { SparksService } from '../sparks/sparks.service';
import { ConversationEventsService } from './conversation-events.service';

const HEARTBEAT_MS = 15_000;
/** Messages in a history (the repository's default). */
const HISTORY_LIMIT = 500;

function checkedText(text: string): string {
  if (!text || text.trim() === '') throw DomainError.badRequest('EMPTY_MESSAGE', 'input.text');
  return text.trim();
}

/** The repository's history order: oldest first, ties by id. */
const byTime = (a: MessageRow, b: MessageRow) =>
  a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

export interface ReplyOutcome {
  messages: ChatMessageView[];
  error?: { code: string; message: string };
}

/**
 * The chat pipeline shared by every transport: store the human message, enqueue
 * `reply.generate`, and relay what the worker publishes — as one JSON answer or as an event stream.
 */
@Injectable()
export class ChatService {
  constructor(
    private readonly conversations: ConversationsRepository,
    private readonly sparks: SparksService,
    private readonly events: ConversationEventsService,
    private readonly jobs: JobProducer,
    @Inject(CONFIG) private readonly config: AppConfig,
  ) {}

  // — which conversation —

  private async owned(userId: string, id: string, match: (c: ConversationRow) => boolean): Promise<ConversationRow> {
    const conversation = await this.conversations.findOwned(userId, id);
    if (!conversation || !match(conversation)) throw DomainError.notFound();
    return conversation;
  }

  /**
   * Each lookup below runs alongside the owner check it is given (one round trip instead of two);
   * a conversation is created only once that check has passed.
   */
  async systemConversation(
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

  async builderConversation(userId: string, sparkId: string, sessionId?: string | null): Promise<ConversationRow> {
    const [, found] = await Promise.all([
      this.sparks.owned(userId, sparkId),
      sessionId
        ? this.owned(userId, sessionId, (c) => c.kind === 'builder' && c.sparkId === sparkId)
        : this.conversations.latest(userId, { kind: 'builder', sparkId }),
    ]);
    return found ?? this.conversations.create(userId, { kind: 'builder', sparkId });
  }

  /** `ownerCheck`: the caller's check that the test is the user's (it rejects when not). */
  async testConversation(
    userId: string,
    sparkId: string,
    testId: string,
    conversationId: string | null | undefined,
    ownerCheck: Promise<unknown>,
  ): Promise<ConversationRow> {
    const [, found] = await Promise.all([
      ownerCheck,
      conversationId
        ? this.owned(userId, conversationId, (c) => c.kind === 'test' && c.sparkId === sparkId && c.testId === testId)
        : this.conversations.latest(userId, { kind: 'test', sparkId, testId }),
    ]);
    return found ?? this.conversations.create(userId, { kind: 'test', sparkId, testId });
  }

  async newTestConversation(userId: string, sparkId: string, testId: string): Promise<ConversationRow> {
    await this.conversations.deleteWhere(userId, { testId });
    return this.conversations.create(userId, { kind: 'test', sparkId, testId });
  }

  async history(userId: string, conversationId: string): Promise<ChatHistory> {
    const conversation = await this.owned(userId, conversationId, () => true);
    return this.historyOf(conversation);
  }

  async historyOf(conversation: ConversationRow): Promise<ChatHistory> {
    const messages = await this.conversations.history(conversation.id);
    return { messages: messages.map(toWireMessage), sessionId: conversation.id, sparkId: conversation.sparkId };
  }

  // — sending —

  /** Stores the human message; empty or whitespace-only messages are refused. */
  async store(conversation: ConversationRow, text: string): Promise<MessageRow> {
    return this.conversations.addMessage(conversation.id, 'human', { content: checkedText(text) });
  }

  /**
   * Event-stream transport: stores the human message and reads the history at the same time (the
   * history then holds the new message whether or not the read saw it), then streams.
   */
  async send(res: Response, conversation: ConversationRow, text: string, language: Language): Promise<void> {
    const content = checkedText(text);
    const [human, earlier] = await Promise.all([
      this.conversations.addMessage(conversation.id, 'human', { content }),
      this.conversations.history(conversation.id, HISTORY_LIMIT),
    ]);
    const history = earlier.some((m) => m.id === human.id)
      ? earlier
      : [...earlier, human].sort(byTime).slice(-HISTORY_LIMIT);
    await this.stream(res, conversation, human, history, language);
  }

  /**
   * Subscribes first, then enqueues: no event can be published before we listen. When either fails
   * (Redis away), the human message is taken back, so no message waits for an answer never asked for.
   */
  private async start(
    conversation: ConversationRow,
    human: MessageRow,
    listener: (e: ConversationEvent) => void,
  ): Promise<() => Promise<void>> {
    let stop: (() => Promise<void>) | undefined;
    try {
      stop = await this.events.listen(conversation.id, (e) => {
        if (e.type === 'message' || e.replyTo === human.id) listener(e);
      });
      await this.jobs.enqueue('reply.generate', { conversationId: conversation.id, messageId: human.id });
      return stop;
    } catch (err) {
      await stop?.().catch(() => undefined);
      await this.conversations.deleteMessage(conversation.id, human.id);
      throw err;
    }
  }

  /** JSON transport: waits for the reply (at most REPLY_TIMEOUT_MS). */
  async reply(conversation: ConversationRow, human: MessageRow, language: Language): Promise<ReplyOutcome> {
    let settle: (o: ReplyOutcome) => void = () => undefined;
    const outcome = new Promise<ReplyOutcome>((resolve) => (settle = resolve));
    const stop = await this.start(conversation, human, (e) => {
      if (e.type === 'done') settle({ messages: e.messages });
      if (e.type === 'error') settle({ messages: [], error: { code: e.code, message: e.message } });
    });
    const timer = setTimeout(
      () =>
        settle({ messages: [], error: { code: 'REPLY_TIMEOUT', message: translateError('REPLY_TIMEOUT', language) } }),
      this.config.REPLY_TIMEOUT_MS,
    );
    try {
      return await outcome;
    } finally {
      clearTimeout(timer);
      await stop();
    }
  }

  /**
   * Event-stream transport. The first `data:` line is `{ messages, sessionId }` (spec §7); then
   * tokens, messages, and a final `done` or `error`. A client that leaves loses nothing: the
   * worker goes on and persists the reply.
   */
  private async stream(
    res: Response,
    conversation: ConversationRow,
    human: MessageRow,
    history: MessageRow[],
    language: Language,
  ): Promise<void> {
    // Handed to the worker before the stream opens, so a failure (Redis away) is still a JSON error;
    // what the worker publishes meanwhile waits until the history line is written.
    const early: ConversationEvent[] = [];
    const relay: { to?: (e: ConversationEvent) => void } = {};
    const stopListening = await this.start(conversation, human, (e) => (relay.to ? relay.to(e) : early.push(e)));

    res.status(200);
    res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
    res.setHeader('Cache-Control', 'no-cache, no-transform');
    res.setHeader('Connection', 'keep-alive');
    res.setHeader('X-Accel-Buffering', 'no');
    res.flushHeaders();
    const send = (payload: unknown) => {
      if (!res.writableEnded) res.write(`data: ${JSON.stringify(payload)}\n\n`);
    };
    send({
      type: 'history',
      messages: history.map(toWireMessage),
      sessionId: conversation.id,
      sparkId: conversation.sparkId,
    });

    let finished = false;
    const finish = () => {
      if (finished) return;
      finished = true;
      clearInterval(heartbeat);
      clearTimeout(timer);
      void stopListening();
      if (!res.writableEnded) res.end();
    };
    const heartbeat = setInterval(() => {
      if (!res.writableEnded) res.write(': keep-alive\n\n');
    }, HEARTBEAT_MS);
    const timer = setTimeout(() => {
      send({
        type: 'error',
        replyTo: human.id,
        code: 'REPLY_TIMEOUT',
        message: translateError('REPLY_TIMEOUT', language),
      });
      finish();
    }, this.config.REPLY_TIMEOUT_MS);
    // A client that left lets go of the channel (the job still runs and persists the reply).
    res.on('close', finish);

    relay.to = (e) => {
      send(e);
      if (e.type === 'done' || e.type === 'error') finish();
    };
    for (const e of early.splice(0)) relay.to(e);
  }
}
