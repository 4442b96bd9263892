import { Inject, Injectable, Logger } from '@nestjs/common';
import type { AppConfig } from '@sparks/core';
import type { Redis } from 'ioredis';
import { CONFIG, REDIS } from '@sparks/nest';

/** The most recent refused sites kept per Spark, and for how long one is shown after its last try. */
const KEEP = 5;
const KEEP_SECONDS = 7 * 86_400;
/** An origin as a browser sends it: scheme, host and port only. */
const ORIGIN = /^https?:\/\/[a-z0-9.-]+(?::\d{1,5})?$|^https?:\/\/\[[0-9a-f:]+\](?::\d{1,5})?$/i;

export interface RefusedSite {
  origin: string;
  lastTriedAt: string;
}

/**
 * The sites whose pages asked for a published Spark's widget and were refused because they are not on its allow-list
 * (issue 34, item 7: a www / non-www mix-up is otherwise invisible). Only the widget's config request is noted — the
 * one every page view makes first — and only for a live deployment, with the origin the browser sent; the owner sees
 * the last few on /deploy and may allow one there. Nothing here changes the allow-list: a stranger can at most make
 * an origin appear among the suggestions (kept 7 days, at most 5, newest first).
 */
@Injectable()
export class RefusedSites {
  private readonly logger = new Logger(RefusedSites.name);

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(CONFIG) private readonly config: AppConfig,
  ) {}

  private key(sparkId: string): string {
    return `${this.config.QUEUE_PREFIX}:widget-refused:${sparkId}`;
  }

  /** Notes a refused origin (best effort: a Redis failure never changes the visitor's answer). */
  async note(sparkId: string, origin: string, now = new Date()): Promise<void> {
    if (origin.length > 200 || !ORIGIN.test(origin)) return;
    const key = this.key(sparkId);
    try {
      await this.redis
        .multi()
        .zadd(key, now.getTime(), origin.toLowerCase())
        .zremrangebyrank(key, 0, -(KEEP + 1))
        .zremrangebyscore(key, '-inf', now.getTime() - KEEP_SECONDS * 1000)
        .expire(key, KEEP_SECONDS)
        .exec();
    } catch (err) {
      this.logger.warn({ err, sparkId }, 'could not note a refused site');
    }
  }

  /** The refused sites not on the allow-list now, newest first. */
  async list(sparkId: string, allowed: readonly string[], now = new Date()): Promise<RefusedSite[]> {
    const raw = await this.redis.zrevrangebyscore(
      this.key(sparkId),
      '+inf',
      now.getTime() - KEEP_SECONDS * 1000,
      'WITHSCORES',
    );
    const sites: RefusedSite[] = [];
    for (let i = 0; i + 1 < raw.length; i += 2) {
      if (!allowed.includes(raw[i]))
        sites.push({ origin: raw[i], lastTriedAt: new Date(Number(raw[i + 1])).toISOString() });
    }
    return sites;
  }

  /** Forgets a site (allowed now, or the Spark deleted/unpublished). */
  async forget(sparkId: string, origin?: string): Promise<void> {
    if (origin) await this.redis.zrem(this.key(sparkId), origin);
    else await this.redis.del(this.key(sparkId));
  }
}
