import { Inject, Injectable } from '@nestjs/common';
import { DomainError, type AppConfig } from '@sparks/core';
import type { Redis } from 'ioredis';
import { CONFIG, REDIS } from '../infra/tokens';

/** Fixed-window counters in Redis, shared by every api replica. */
@Injectable()
export class RateLimiter {
  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(CONFIG) private readonly config: AppConfig,
  ) {}

  private key(parts: string[]): string {
    return `${this.config.QUEUE_PREFIX}:${this.config.RATE_LIMIT_NAMESPACE}:${parts.join(':')}`;
  }

  /** Counts one hit; throws 429 once the window holds more than `max`. */
  async hit(parts: string[], max: number, windowSeconds = this.config.AUTH_RATE_WINDOW_SECONDS): Promise<void> {
    const key = this.key(parts);
    const [[, count]] = (await this.redis.multi().incr(key).expire(key, windowSeconds, 'NX').exec()) as [
      [null, number],
      [null, number],
    ];
    if (count > max) throw new DomainError(429, { code: 'TOO_MANY_REQUESTS' });
  }

  /** Throws 429 when the window is already full, without counting. */
  async check(parts: string[], max: number): Promise<void> {
    const count = Number(await this.redis.get(this.key(parts)));
    if (count >= max) throw new DomainError(429, { code: 'TOO_MANY_REQUESTS' });
  }

  async reset(parts: string[]): Promise<void> {
    await this.redis.del(this.key(parts));
  }

  /** Per account and per IP, the pair every sign-in endpoint uses. */
  async guard(action: string, account: string, ip: string): Promise<void> {
    await this.hit([action, 'ip', ip], this.config.AUTH_RATE_IP_MAX);
    await this.hit([action, 'acct', account || '-'], this.config.AUTH_RATE_ACCOUNT_MAX);
  }
}
