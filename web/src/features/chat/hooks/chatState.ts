import { isRevealed, revealDelay } from '../display';
import type { ChatHistory, ChatMessage } from '../types';

/** The in-memory state of one chat (event messages included: only the browser cache leaves them out). */
export interface ChatState {
  /** True until the stored conversation was read (or found missing). */
  loading: boolean;
  messages: ChatMessage[];
  sessionId: string | null;
  /** The Spark of the conversation, as the server says. */
  sparkId: string | null;
  sending: boolean;
  /** The message being sent, shown until the server answers it stored. */
  pending: { text: string; at: number } | null;
  /**
   * Replies arriving token by token, before they are stored: one per human message (`replyTo`). A reply job
   * handed to another worker after its worker died starts again under a new message id: its first token
   * replaces the dead attempt's partial text instead of showing beside it.
   */
  streams: Array<{ messageId: string; replyTo?: string; text: string }>;
  /** When a fresh assistant message may show (docs/product.md §4: n × 800 ms). */
  revealAt: Record<string, number>;
  /** The reply being revealed: its human message, when its first message came and how many came. */
  batch: { replyTo: string | null; start: number; count: number } | null;
}

export type ChatAction =
  | { type: 'cached'; messages: ChatMessage[]; sessionId: string; sparkId: string | null }
  | { type: 'loaded'; history: ChatHistory | null }
  | { type: 'send'; text: string; at: number }
  | { type: 'history'; messages: ChatMessage[]; sessionId: string; sparkId: string | null }
  | { type: 'token'; messageId: string; replyTo?: string; text: string }
  | { type: 'messages'; messages: ChatMessage[]; at: number }
  | { type: 'settled' };

export const initialChatState: ChatState = {
  loading: true,
  messages: [],
  sessionId: null,
  sparkId: null,
  sending: false,
  pending: null,
  streams: [],
  revealAt: {},
  batch: null,
};

/** Adds or replaces messages by id, keeping the conversation's order. */
function mergeMessages(current: ChatMessage[], incoming: ChatMessage[]): ChatMessage[] {
  const next = [...current];
  for (const message of incoming) {
    const at = next.findIndex((m) => m._id === message._id);
    if (at >= 0) next[at] = message;
    else next.push(message);
  }
  return next;
}

const timeOf = (message: ChatMessage): number => (message.createdAt ? Date.parse(message.createdAt) : NaN);

/**
 * The conversation as the server just read it, followed by what the chat holds that is newer than all of it: a
 * send in flight whose message was stored after that read, and its reply so far. The read alone would take them
 * off the screen (the reply's later events add only what comes next). What the chat holds that is older is the
 * server's to say: a message it no longer has goes.
 */
function withNewer(read: ChatMessage[], held: ChatMessage[]): ChatMessage[] {
  const known = new Set(read.map((m) => m._id));
  const last = read.length > 0 ? timeOf(read[read.length - 1]) : -Infinity;
  const newer = held.filter((m) => !known.has(m._id) && timeOf(m) >= last);
  return newer.length > 0 ? [...read, ...newer] : read;
}

export function chatReducer(state: ChatState, action: ChatAction): ChatState {
  switch (action.type) {
    case 'cached':
      return { ...state, messages: action.messages, sessionId: action.sessionId, sparkId: action.sparkId };
    case 'loaded':
      return action.history
        ? {
            ...state,
            loading: false,
            // Read again while the chat is open (not its first read, which may follow an outdated browser copy).
            messages:
              !state.loading && state.sessionId === action.history.sessionId
                ? withNewer(action.history.messages, state.messages)
                : action.history.messages,
            sessionId: action.history.sessionId,
            sparkId: action.history.sparkId,
          }
        : { ...state, loading: false, messages: [], sessionId: null, sparkId: null };
    case 'send':
      // A message sent while a reply is being revealed: the rest of that reply shows at once, before it.
      return { ...state, sending: true, pending: { text: action.text, at: action.at }, revealAt: {}, batch: null };
    case 'history':
      return {
        ...state,
        loading: false,
        pending: null,
        messages: mergeMessages(state.messages, action.messages),
        sessionId: action.sessionId,
        sparkId: action.sparkId,
      };
    case 'token': {
      const found = state.streams.find((s) => s.messageId === action.messageId);
      if (found) {
        const streams = state.streams.map((s) => (s === found ? { ...s, text: s.text + action.text } : s));
        return { ...state, streams };
      }
      const { messageId, replyTo, text } = action;
      const others = replyTo ? state.streams.filter((s) => s.replyTo !== replyTo) : state.streams;
      return { ...state, streams: [...others, { messageId, ...(replyTo ? { replyTo } : {}), text }] };
    }
    case 'messages': {
      const revealAt = { ...state.revealAt };
      let batch = state.batch;
      let streams = state.streams;
      for (const message of action.messages) {
        if (state.messages.some((m) => m._id === message._id) || !isRevealed(message)) continue;
        const replyTo = message.replyTo ?? null;
        if (!batch || batch.replyTo !== replyTo) batch = { replyTo, start: action.at, count: 0 };
        const streamed = streams.some((s) => s.messageId === message._id);
        if (streamed) streams = streams.filter((s) => s.messageId !== message._id);
        const delay = streamed ? 0 : revealDelay(batch.count, message.createdAt, action.at);
        // Never before the messages of the reply that came earlier.
        const earliest = Math.max(0, ...Object.values(revealAt));
        if (delay > 0) revealAt[message._id] = Math.max(batch.start + delay, earliest);
        batch = { ...batch, count: batch.count + 1 };
      }
      return { ...state, messages: mergeMessages(state.messages, action.messages), revealAt, batch, streams };
    }
    case 'settled':
      return { ...state, sending: false, pending: null, streams: [] };
  }
}

/** The messages that may show at `now` (those of a reply still being revealed wait their turn). */
export function revealedMessages(state: Pick<ChatState, 'messages' | 'revealAt'>, now: number): ChatMessage[] {
  const cut = state.messages.findIndex((m) => (state.revealAt[m._id] ?? 0) > now);
  return cut === -1 ? state.messages : state.messages.slice(0, cut);
}

/** When the next hidden message shows, if one waits. */
export function nextReveal(state: Pick<ChatState, 'revealAt'>, now: number): number | null {
  const waiting = Object.values(state.revealAt).filter((at) => at > now);
  return waiting.length > 0 ? Math.min(...waiting) : null;
}
