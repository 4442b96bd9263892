import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import type { AppConfig } from '@sparks/core';
import { conversationChannel, logRedisErrors, type ConversationEvent } from '@sparks/queues';
import type { Redis } from 'ioredis';
import { CONFIG, REDIS } from '@sparks/nest';

type Listener = (event: ConversationEvent) => void;

/**
 * One Redis subscriber connection per api process, shared by every open chat: a channel is
 * subscribed while at least one request listens to it.
 */
@Injectable()
export class ConversationEventsService implements OnApplicationShutdown {
  private readonly logger = new Logger(ConversationEventsService.name);
  private readonly subscriber: Redis;
  private readonly listeners = new Map<string, Set<Listener>>();

  constructor(
    @Inject(REDIS) redis: Redis,
    @Inject(CONFIG) private readonly config: AppConfig,
  ) {
    // A duplicate has the options of `redis` but none of its listeners: its own errors (Redis
    // frozen or gone) are logged here, never left unhandled.
    this.subscriber = redis.duplicate();
    logRedisErrors(this.subscriber, this.logger, 'Redis subscriber');
    this.subscriber.on('message', (channel: string, payload: string) => {
      const set = this.listeners.get(channel);
      if (!set) return;
      let event: ConversationEvent;
      try {
        event = JSON.parse(payload) as ConversationEvent;
      } catch {
        this.logger.warn(`unreadable event on ${channel}`);
        return;
      }
      for (const listener of set) listener(event);
    });
  }

  /** Resolves once Redis confirmed the subscription, so no event published afterwards is missed. */
  async listen(conversationId: string, listener: Listener): Promise<() => Promise<void>> {
    const channel = conversationChannel(this.config.QUEUE_PREFIX, conversationId);
    let set = this.listeners.get(channel);
    if (!set) {
      set = new Set();
      this.listeners.set(channel, set);
    }
    set.add(listener);
    const stop = async () => {
      const current = this.listeners.get(channel);
      if (!current) return;
      current.delete(listener);
      if (current.size === 0) {
        this.listeners.delete(channel);
        await this.subscriber.unsubscribe(channel).catch(() => undefined);
      }
    };
    try {
      await this.subscriber.subscribe(channel);
    } catch (err) {
      // Redis away: no listener is left behind for a stream that never opens.
      await stop();
      throw err;
    }
    return stop;
  }

  onApplicationShutdown(): void {
    this.subscriber.disconnect();
  }
}
