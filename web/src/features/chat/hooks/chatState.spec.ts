import type { ChatMessage } from '../types';
import { chatReducer, initialChatState, nextReveal, revealedMessages, type ChatState } from './chatState';

const at = Date.parse('2025-03-10T10:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();
const reply = (id: string, created: number, type: ChatMessage['type'] = 'ai', data: Record<string, unknown> = {}) =>
  ({ _id: id, type, data: { content: `text ${id}`, ...data }, createdAt: iso(created), replyTo: 'h1' }) as ChatMessage;

const ready: ChatState = { ...initialChatState, loading: false };

describe('chatReducer: the reveal of a reply (docs/product.md §4, §9)', () => {
  it('shows the messages of a fresh reply 800 ms apart', () => {
    const state = chatReducer(ready, {
      type: 'messages',
      at,
      messages: [reply('a', at - 50), reply('b', at - 40, 'action', { type: 'options', options: [] }), reply('c', at)],
    });
    expect(state.revealAt).toEqual({ b: at + 800, c: at + 1600 });
    expect(revealedMessages(state, at).map((m) => m._id)).toEqual(['a']);
    expect(nextReveal(state, at)).toBe(at + 800);
    expect(revealedMessages(state, at + 800).map((m) => m._id)).toEqual(['a', 'b']);
    expect(revealedMessages(state, at + 1600).map((m) => m._id)).toEqual(['a', 'b', 'c']);
    expect(nextReveal(state, at + 1600)).toBeNull();
  });

  it('keeps counting when the messages of one reply arrive one by one', () => {
    let state = chatReducer(ready, { type: 'messages', at, messages: [reply('a', at)] });
    state = chatReducer(state, { type: 'messages', at: at + 5, messages: [reply('b', at + 3)] });
    state = chatReducer(state, { type: 'messages', at: at + 9, messages: [reply('a', at), reply('b', at + 3)] });
    expect(state.messages.map((m) => m._id)).toEqual(['a', 'b']);
    expect(state.revealAt).toEqual({ b: at + 800 });
  });

  it('shows messages older than 1 s at once, and events take no turn', () => {
    const state = chatReducer(ready, {
      type: 'messages',
      at,
      messages: [
        reply('old1', at - 5000),
        reply('ev', at, 'action', { type: 'event', event: 'sparkCreated' }),
        reply('old2', at - 4000),
      ],
    });
    expect(state.revealAt).toEqual({});
    expect(revealedMessages(state, at)).toHaveLength(3);
  });

  it('replaces a streamed reply by the stored message without waiting', () => {
    let state = chatReducer(ready, { type: 'token', messageId: 'r1', text: 'Hola' });
    state = chatReducer(state, { type: 'token', messageId: 'r1', text: ', ¿qué tal?' });
    expect(state.streams).toEqual([{ messageId: 'r1', text: 'Hola, ¿qué tal?' }]);
    state = chatReducer(state, { type: 'messages', at, messages: [reply('r1', at)] });
    expect(state.streams).toEqual([]);
    expect(state.revealAt).toEqual({});
  });

  it("shows a reply handed to another worker once: the new attempt's text replaces the dead one's", () => {
    let state = chatReducer(ready, { type: 'token', messageId: 'r1', replyTo: 'h1', text: 'The shop op' });
    state = chatReducer(state, { type: 'token', messageId: 'other', replyTo: 'h0', text: 'Earlier' });
    state = chatReducer(state, { type: 'token', messageId: 'r2', replyTo: 'h1', text: 'The shop' });
    state = chatReducer(state, { type: 'token', messageId: 'r2', replyTo: 'h1', text: ' opens at 8.' });
    expect(state.streams).toEqual([
      { messageId: 'other', replyTo: 'h0', text: 'Earlier' },
      { messageId: 'r2', replyTo: 'h1', text: 'The shop opens at 8.' },
    ]);
  });

  it('shows the rest of a reply being revealed at once when a message is sent', () => {
    let state = chatReducer(ready, {
      type: 'messages',
      at,
      messages: [reply('a', at), reply('b', at), reply('c', at)],
    });
    expect(revealedMessages(state, at).map((m) => m._id)).toEqual(['a']);
    state = chatReducer(state, { type: 'send', text: 'Hola', at: at + 100 });
    expect(revealedMessages(state, at + 100).map((m) => m._id)).toEqual(['a', 'b', 'c']);
    expect(nextReveal(state, at + 100)).toBeNull();
  });

  it('drops the message being sent once the server stored it', () => {
    let state = chatReducer(ready, { type: 'send', text: 'Hola', at });
    expect(state).toMatchObject({ sending: true, pending: { text: 'Hola' } });
    state = chatReducer(state, {
      type: 'history',
      messages: [{ _id: 'h1', type: 'human', data: { content: 'Hola' }, createdAt: iso(at) }],
      sessionId: 'c1',
      sparkId: null,
    });
    expect(state).toMatchObject({ pending: null, sessionId: 'c1', sending: true });
    expect(chatReducer(state, { type: 'settled' })).toMatchObject({ sending: false });
  });
});

describe('chatReducer: the conversation read again while the chat is open', () => {
  const human = (id: string, created: number) =>
    ({ _id: id, type: 'human', data: { content: `said ${id}` }, createdAt: iso(created) }) as ChatMessage;
  const open = (messages: ChatMessage[]): ChatState => ({ ...ready, sessionId: 'c1', messages });

  it('keeps a send in flight that the read came too early for, and its reply so far', () => {
    // The read started before "h2" was stored; the stream had already brought h2 and the first message of its reply.
    const state = chatReducer(
      open([human('h1', at), reply('a1', at + 10), human('h2', at + 500), reply('a2', at + 600)]),
      {
        type: 'loaded',
        history: {
          sessionId: 'c1',
          sparkId: null,
          messages: [human('h1', at), reply('a1', at + 10), reply('seen', at + 300)],
        },
      },
    );
    expect(state.messages.map((m) => m._id)).toEqual(['h1', 'a1', 'seen', 'h2', 'a2']);
  });

  it("takes the server's word for what is older than its read", () => {
    const state = chatReducer(open([human('h1', at), human('gone', at + 10), reply('a1', at + 20)]), {
      type: 'loaded',
      history: { sessionId: 'c1', sparkId: null, messages: [human('h1', at), reply('a1', at + 20)] },
    });
    expect(state.messages.map((m) => m._id)).toEqual(['h1', 'a1']);
  });

  it("the first read, or another conversation's, is the server's list alone", () => {
    const cached: ChatState = {
      ...initialChatState,
      sessionId: 'c1',
      messages: [human('h1', at), human('h9', at + 90)],
    };
    const first = chatReducer(cached, {
      type: 'loaded',
      history: { sessionId: 'c1', sparkId: null, messages: [human('h1', at)] },
    });
    expect(first.messages.map((m) => m._id)).toEqual(['h1']);
    const other = chatReducer(open([human('h1', at), human('h2', at + 90)]), {
      type: 'loaded',
      history: { sessionId: 'c2', sparkId: null, messages: [human('x1', at)] },
    });
    expect(other.messages.map((m) => m._id)).toEqual(['x1']);
  });
});
