import type { ChatMessageView, ConversationEvent } from '@sparks/contracts';
import type { Redis } from 'ioredis';

/** The events and messages are defined once, in `@sparks/contracts` (chat.ts). */
export type { ConversationEvent } from '@sparks/contracts';
/** A chat message as the API renders it (docs/product.md §3). */
export type WireMessage = ChatMessageView;

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

/**
 * Tells the open chats of a conversation about a message already stored. A failure only goes to `warn`:
 * the message is kept, and the chat shows it on its next read of the conversation.
 */
export async function publishMessage(
  redis: Redis,
  prefix: string,
  conversationId: string,
  message: WireMessage,
  warn: (text: string) => void,
): Promise<void> {
  await publishConversationEvent(redis, prefix, conversationId, { type: 'message', message }).catch((err: unknown) =>
    warn(`could not publish to ${conversationId}: ${String(err)}`),
  );
}
