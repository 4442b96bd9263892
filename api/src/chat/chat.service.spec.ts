import type { AppConfig } from '@sparks/core';
import type { ConversationRow, ConversationsRepository, FeedbackRepository, MessageRow } from '@sparks/db';
import type { ConversationEvent, JobProducer } from '@sparks/queues';
import type { SparkTestsService } from '../sparks/spark-tests.service';
import type { SparksService } from '../sparks/sparks.service';
import { ChatService } from './chat.service';
import type { ConversationEventsService } from './conversation-events.service';
import { userCaller, type InteractionMeter, type VisitorCaller } from './converse';

const conversation = { id: 'c1', sparkId: 's1' } as ConversationRow;
const human = { id: 'm1', conversationId: 'c1', createdAt: new Date(0) } as MessageRow;
const wire = { _id: 'a1', type: 'ai' as const, data: { content: 'Hi' }, createdAt: new Date(0).toISOString() };

function setup(opts: { enqueueFails?: boolean } = {}) {
  let publish: (e: ConversationEvent) => void = () => undefined;
  const unsubscribed = jest.fn(() => Promise.resolve());
  const conversations = {
    addMessage: jest.fn(() => Promise.resolve(human)),
    history: jest.fn(() => Promise.resolve([human])),
    deleteMessage: jest.fn(() => Promise.resolve()),
  };
  const events = {
    listen: jest.fn((_id: string, listener: (e: ConversationEvent) => void) => {
      publish = listener;
      return Promise.resolve(unsubscribed);
    }),
  };
  const jobs = {
    enqueue: jest.fn(() => (opts.enqueueFails ? Promise.reject(new Error('redis away')) : Promise.resolve())),
  };
  const meter = {
    reserve: jest.fn(() => Promise.resolve('r1')),
    settle: jest.fn(() => Promise.resolve()),
    release: jest.fn(() => Promise.resolve()),
  } satisfies InteractionMeter<string>;
  const chat = new ChatService(
    conversations as unknown as ConversationsRepository,
    {} as FeedbackRepository,
    {} as SparksService,
    {} as SparkTestsService,
    events as unknown as ConversationEventsService,
    jobs as unknown as JobProducer,
    { REPLY_TIMEOUT_MS: 60_000 } as AppConfig,
  );
  return { chat, conversations, jobs, meter, unsubscribed, publish: (e: ConversationEvent) => publish(e) };
}

const visitor: VisitorCaller = { kind: 'visitor', sparkId: 's1', deployToken: 'tok', visitorId: 'v1' };

describe('ChatService.converse', () => {
  it('yields the events of its turn and ends after done, then lets go of the channel', async () => {
    const t = setup();
    const turn = await t.chat.converse(userCaller('u1'), conversation, ' Hello ', { language: 'en', history: true });
    expect(t.conversations.addMessage).toHaveBeenCalledWith('c1', 'human', { content: 'Hello' });
    expect(t.jobs.enqueue).toHaveBeenCalledWith('reply.generate', { conversationId: 'c1', messageId: 'm1' });
    expect(turn.history).toEqual([human]);
    t.publish({ type: 'token', replyTo: 'other', messageId: 'x', text: 'not ours' });
    t.publish({ type: 'token', replyTo: 'm1', messageId: 'a1', text: 'Hi' });
    t.publish({ type: 'done', replyTo: 'm1', messages: [wire] });
    const seen: string[] = [];
    for await (const e of turn.events) seen.push(e.type);
    expect(seen).toEqual(['token', 'done']);
    expect(t.unsubscribed).toHaveBeenCalled();
  });

  it('reserves before storing, settles on done', async () => {
    const t = setup();
    const turn = await t.chat.converse(visitor, conversation, 'Hello', { language: 'en', meter: t.meter });
    expect(t.meter.reserve).toHaveBeenCalledWith({ caller: visitor, conversation, text: 'Hello' });
    t.publish({ type: 'done', replyTo: 'm1', messages: [wire] });
    for await (const e of turn.events) void e;
    expect(t.meter.settle).toHaveBeenCalledWith('r1', { human, messages: [wire] });
    expect(t.meter.release).not.toHaveBeenCalled();
  });

  it('releases on an error, and settles even when the client has left', async () => {
    const t = setup();
    const failed = await t.chat.converse(visitor, conversation, 'Hello', { language: 'en', meter: t.meter });
    t.publish({ type: 'error', replyTo: 'm1', code: 'REPLY_FAILED', message: 'x' });
    expect(t.meter.release).toHaveBeenCalledWith('r1', { code: 'REPLY_FAILED' });
    void failed;

    const left = await t.chat.converse(visitor, conversation, 'Hello', { language: 'en', meter: t.meter });
    left.close();
    expect(t.unsubscribed).toHaveBeenCalledTimes(1); // the first turn's: the second still listens
    t.publish({ type: 'done', replyTo: 'm1', messages: [wire] });
    expect(t.meter.settle).toHaveBeenCalledTimes(1);
    expect(t.unsubscribed).toHaveBeenCalledTimes(2);
  });

  it('stores nothing when the meter refuses', async () => {
    const t = setup();
    t.meter.reserve.mockRejectedValueOnce(new Error('limit'));
    await expect(t.chat.converse(visitor, conversation, 'Hello', { language: 'en', meter: t.meter })).rejects.toThrow(
      'limit',
    );
    expect(t.conversations.addMessage).not.toHaveBeenCalled();
  });

  it('takes the message back and releases when the worker cannot be asked', async () => {
    const t = setup({ enqueueFails: true });
    await expect(t.chat.converse(visitor, conversation, 'Hello', { language: 'en', meter: t.meter })).rejects.toThrow(
      'redis away',
    );
    expect(t.conversations.deleteMessage).toHaveBeenCalledWith('c1', 'm1');
    expect(t.meter.release).toHaveBeenCalledWith('r1', { code: 'NOT_SENT' });
  });
});
