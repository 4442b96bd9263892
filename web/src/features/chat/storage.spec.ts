import {
  CACHED_MESSAGES,
  forgetConversation,
  readConversation,
  SPARK_CONVERSATIONS_KEY,
  storedSessionId,
  SYSTEM_CONVERSATIONS_KEY,
  TEST_CONVERSATIONS_KEY,
  writeConversation,
} from './storage';
import type { ChatMessage, ChatTarget } from './types';

const main: ChatTarget = { kind: 'system', name: 'main' };
const builder: ChatTarget = { kind: 'builder', sparkId: 's1' };
const test: ChatTarget = { kind: 'test', sparkId: 's1', testId: 't1' };

const message = (id: string, extra: Partial<ChatMessage['data']> = {}): ChatMessage => ({
  _id: id,
  type: 'ai',
  data: { content: id, ...extra },
  createdAt: '2025-03-10T10:00:00Z',
});

const stored = (key: string) => JSON.parse(localStorage.getItem(key) ?? 'null');

beforeEach(() => localStorage.clear());

describe('local conversation caches (docs/product.md §3 storage keys)', () => {
  it('keeps system conversations keyed by the assistant name', () => {
    writeConversation(main, { sessionId: 'c-main', sparkId: null, messages: [message('a')] });
    writeConversation({ kind: 'system', name: 'deploy' }, { sessionId: 'c-dep', sparkId: null, messages: [] });
    expect(Object.keys(stored(SYSTEM_CONVERSATIONS_KEY))).toEqual(['main', 'deploy']);
    expect(stored(SYSTEM_CONVERSATIONS_KEY).main).toMatchObject({ sessionId: 'c-main' });
    expect(storedSessionId(main)).toBe('c-main');
    expect(readConversation(main)?.messages.map((m) => m._id)).toEqual(['a']);
  });

  it('keeps Spark conversations keyed by the Spark id', () => {
    writeConversation(builder, { sessionId: 'c-b', sparkId: 's1', messages: [] });
    expect(stored(SPARK_CONVERSATIONS_KEY)).toEqual({ s1: { sessionId: 'c-b', sparkId: 's1', messages: [] } });
  });

  it("keeps test conversations under '{sparkId}:{testId}', also in the sparkId field", () => {
    writeConversation(test, { sessionId: 'c-t', sparkId: 's1', messages: [] });
    expect(stored(TEST_CONVERSATIONS_KEY)).toEqual({
      's1:t1': { conversationId: 'c-t', sparkId: 's1:t1', messages: [] },
    });
    expect(storedSessionId(test)).toBe('c-t');
  });

  it('leaves event messages out and keeps only the latest messages', () => {
    const many = Array.from({ length: CACHED_MESSAGES + 5 }, (_, i) => message(`m${i}`));
    const event: ChatMessage = { ...message('ev', { type: 'event', event: 'sparkCreated' }), type: 'action' };
    writeConversation(main, { sessionId: 'c', sparkId: null, messages: [...many, event] });
    const cached = readConversation(main)!.messages;
    expect(cached).toHaveLength(CACHED_MESSAGES);
    expect(cached.some((m) => m._id === 'ev')).toBe(false);
    expect(cached.at(-1)?._id).toBe(`m${CACHED_MESSAGES + 4}`);
  });

  it('reads a bare id string and ignores broken entries or JSON', () => {
    localStorage.setItem(SYSTEM_CONVERSATIONS_KEY, JSON.stringify({ main: 'c-old', profile: 42 }));
    expect(readConversation(main)).toEqual({ sessionId: 'c-old', sparkId: null, messages: [] });
    expect(readConversation({ kind: 'system', name: 'profile' })).toBeNull();
    localStorage.setItem(SPARK_CONVERSATIONS_KEY, '{not json');
    expect(readConversation(builder)).toBeNull();
  });

  it('forgets one conversation and drops the key when nothing is left', () => {
    writeConversation(main, { sessionId: 'a', sparkId: null, messages: [] });
    writeConversation({ kind: 'system', name: 'new-spark' }, { sessionId: 'b', sparkId: null, messages: [] });
    forgetConversation({ kind: 'system', name: 'new-spark' });
    expect(Object.keys(stored(SYSTEM_CONVERSATIONS_KEY))).toEqual(['main']);
    forgetConversation(main);
    expect(localStorage.getItem(SYSTEM_CONVERSATIONS_KEY)).toBeNull();
  });
});
