import { Inject, Injectable } from '@nestjs/common';
import type { AppConfig } from '@sparks/core';
import { CONFIG, REDIS } from '@sparks/nest';
import { publishConversationEvent, type ConversationEvent } from '@sparks/queues';
import type { Redis } from 'ioredis';

/** Publishes a conversation's reply events on its Redis channel, for the api to relay to the open event stream. */
@Injectable()
export class ConversationEvents {
  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(CONFIG) private readonly config: AppConfig,
  ) {}

  publish(conversationId: string, event: ConversationEvent): Promise<void> {
    return publishConversationEvent(this.redis, this.config.QUEUE_PREFIX, conversationId, event);
  }
}
