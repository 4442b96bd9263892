import { readItem, removeItem, writeItem } from '../auth/tokens';
import type { ChatMessage, ChatTarget } from './types';

/** docs/product.md §3 browser storage keys of the conversations. */
export const SYSTEM_CONVERSATIONS_KEY = 'sys_spark_conversations';
export const SPARK_CONVERSATIONS_KEY = 'chat_conversations';
export const TEST_CONVERSATIONS_KEY = 'test_chat_conversations';

/** How many messages of a conversation are kept in the browser (the server keeps them all). */
export const CACHED_MESSAGES = 40;

/**
 * A conversation as kept in the browser (docs/product.md §3 Conversation: conversationId or sessionId, sparkId,
 * messages). System assistants are keyed by their name, Spark chats by the Spark id, test chats by
 * '{sparkId}:{testId}', which is also what their `sparkId` field holds.
 */
export interface CachedConversation {
  sessionId: string;
  sparkId: string | null;
  messages: ChatMessage[];
}

interface Slot {
  key: string;
  id: string;
}

function storageSlot(target: ChatTarget): Slot {
  switch (target.kind) {
    case 'system':
      return { key: SYSTEM_CONVERSATIONS_KEY, id: target.name };
    case 'builder':
      return { key: SPARK_CONVERSATIONS_KEY, id: target.sparkId };
    case 'test':
      return { key: TEST_CONVERSATIONS_KEY, id: `${target.sparkId}:${target.testId}` };
  }
}

function readAll(key: string): Record<string, unknown> {
  const raw = readItem(key);
  if (!raw) return {};
  try {
    const parsed: unknown = JSON.parse(raw);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

function isMessage(value: unknown): value is ChatMessage {
  if (!value || typeof value !== 'object') return false;
  const m = value as Partial<ChatMessage>;
  return typeof m._id === 'string' && typeof m.type === 'string' && !!m.data && typeof m.data === 'object';
}

/** Reads an entry; a bare id string (older entries) is a conversation with no cached messages. */
function toConversation(entry: unknown): CachedConversation | null {
  if (typeof entry === 'string') return entry ? { sessionId: entry, sparkId: null, messages: [] } : null;
  if (!entry || typeof entry !== 'object') return null;
  const e = entry as Record<string, unknown>;
  const id =
    typeof e.sessionId === 'string' ? e.sessionId : typeof e.conversationId === 'string' ? e.conversationId : '';
  if (!id) return null;
  return {
    sessionId: id,
    sparkId: typeof e.sparkId === 'string' ? e.sparkId : null,
    messages: Array.isArray(e.messages) ? e.messages.filter(isMessage) : [],
  };
}

/** Event-type messages live in memory only (docs/product.md §4), and the cache keeps the latest messages. */
function cacheableMessages(messages: ChatMessage[]): ChatMessage[] {
  return messages.filter((m) => m.data.type !== 'event').slice(-CACHED_MESSAGES);
}

export function readConversation(target: ChatTarget): CachedConversation | null {
  const { key, id } = storageSlot(target);
  return toConversation(readAll(key)[id]);
}

export function storedSessionId(target: ChatTarget): string | null {
  return readConversation(target)?.sessionId ?? null;
}

/** Keeps a conversation's id, its Spark and its latest messages (without event messages). */
export function writeConversation(target: ChatTarget, conversation: CachedConversation): void {
  const { key, id } = storageSlot(target);
  const all = readAll(key);
  const sparkId = target.kind === 'test' ? id : conversation.sparkId;
  const idField = target.kind === 'test' ? 'conversationId' : 'sessionId';
  const entry = { [idField]: conversation.sessionId, sparkId, messages: cacheableMessages(conversation.messages) };
  writeItem(key, JSON.stringify({ ...all, [id]: entry }));
  // Over the quota: keep at least the id, which is what resuming needs.
  if (readItem(key) === null || toConversation(readAll(key)[id])?.sessionId !== conversation.sessionId)
    writeItem(key, JSON.stringify({ ...all, [id]: { ...entry, messages: [] } }));
}

/** Forgets a conversation (a stored id the server no longer knows, a fresh start, a restarted test). */
export function forgetConversation(target: ChatTarget): void {
  const { key, id } = storageSlot(target);
  const all = readAll(key);
  if (!(id in all)) return;
  delete all[id];
  if (Object.keys(all).length === 0) removeItem(key);
  else writeItem(key, JSON.stringify(all));
}
