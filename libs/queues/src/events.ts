import type { Redis } from 'ioredis';

/**
 * What happens in a conversation while a reply or an ingestion runs, published by the worker on a
 * Redis channel per conversation and relayed by the api to open event streams.
 */
export type ConversationEvent =
  | { type: 'token'; replyTo: string; messageId: string; text: string }
  | { type: 'message'; replyTo?: string | null; message: WireMessage }
  | { type: 'error'; replyTo?: string; code: string; message: string }
  | { type: 'done'; replyTo: string; messages: WireMessage[] };

/** A chat message as the API renders it (spec §3). */
export interface WireMessage {
  _id: string;
  type: 'human' | 'ai' | 'action';
  data: { content: string; type?: string; documentId?: string; [key: string]: unknown };
  createdAt: string;
  replyTo?: string | null;
}

export const conversationChannel = (prefix: string, conversationId: string) =>
  `${prefix}:conversation:${conversationId}`;

export async function publishConversationEvent(
  redis: Redis,
  prefix: string,
  conversationId: string,
  event: ConversationEvent,
): Promise<void> {
  await redis.publish(conversationChannel(prefix, conversationId), JSON.stringify(event));
}
