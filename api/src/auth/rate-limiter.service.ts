import { Inject, Injectable } from '@nestjs/common';
import { DomainError, type AppConfig } from '@sparks/core';
import type { Redis } from 'ioredis';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { CONFIG, REDIS } from '@sparks/nest';

/** Someone trying a password: the account (as typed), its current password and the client IP. */
export interface LoginAttempt {
  account: string;
  /**
   * Changes whenever the account's password does (a digest of its hash, `-` when there is none), so
   * setting a new password starts every count of failures on the account afresh.
   */
  passwordTag: string;
  ip: string;
}

interface Limit {
  limiter: RateLimiterRedis;
  key: string;
}

const tooMany = (msBeforeNext: number) =>
  new DomainError({
    code: 'TOO_MANY_REQUESTS',
    // `seconds` becomes the Retry-After header (see AllExceptionsFilter).
    params: { seconds: Math.max(1, Math.ceil(msBeforeNext / 1000)) },
  });

/** Counts one point; answers how long to wait when that went past the limit, undefined when it did not. */
async function take({ limiter, key }: Limit): Promise<number | undefined> {
  try {
    await limiter.consume(key);
    return undefined;
  } catch (rejection) {
    if (rejection instanceof RateLimiterRes) return rejection.msBeforeNext;
    throw rejection;
  }
}

/**
 * The sign-in rate limits, on rate-limiter-flexible's Redis store (shared by every api replica). Keys
 * are `<QUEUE_PREFIX>:<RATE_LIMIT_NAMESPACE>:<limit>:<key>`, each counting in a fixed window of
 * AUTH_RATE_WINDOW_SECONDS from its first point.
 *
 * Logins follow the library's login-protection pattern: failures are counted per account and IP pair
 * (cleared by a success) and per IP (a slow brute force over many accounts), so a guesser locks out
 * only their own IP. A third count, per account over all IPs, stops a guess spread over many IPs; past
 * it only IPs that signed in to the account before may try on a password alone, and any other IP
 * must bring a code e-mailed to the address (LoginCodes), so others' guesses never lock the owner
 * out. A password reset starts all three afresh for the account.
 */
@Injectable()
export class RateLimiter {
  private readonly prefix: string;
  private readonly limiters = new Map<string, RateLimiterRedis>();

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(CONFIG) private readonly config: AppConfig,
  ) {
    this.prefix = `${config.QUEUE_PREFIX}:${config.RATE_LIMIT_NAMESPACE}`;
  }

  private limiter(name: string, points: number, duration = this.config.AUTH_RATE_WINDOW_SECONDS): RateLimiterRedis {
    let limiter = this.limiters.get(name);
    if (!limiter) {
      limiter = new RateLimiterRedis({
        storeClient: this.redis,
        keyPrefix: `${this.prefix}:${name}`,
        points,
        duration,
      });
      this.limiters.set(name, limiter);
    }
    return limiter;
  }

  /** Every request to a sign-in endpoint counts, per client IP and (when known) per account. */
  async guard(action: string, account: string | undefined, ip: string): Promise<void> {
    const byIp = await take({ limiter: this.limiter(`${action}:ip`, this.config.AUTH_RATE_IP_MAX), key: ip });
    if (byIp !== undefined) throw tooMany(byIp);
    if (account === undefined) return;
    const byAccount = await take({
      limiter: this.limiter(`${action}:acct`, this.config.AUTH_RATE_ACCOUNT_MAX),
      key: account || '-',
    });
    if (byAccount !== undefined) throw tooMany(byAccount);
  }

  /**
   * Whether one more e-mail of `action` may go to the account in this window (at most `max`). Used
   * where the request is answered the same either way, so the cap tells nobody anything and blocks
   * nothing already sent.
   */
  async mayMail(action: string, account: string, max: number): Promise<boolean> {
    return (await take({ limiter: this.limiter(`${action}:mail`, max), key: account })) === undefined;
  }

  /**
   * The website widget's limits (public API), each counting per minute: one point per request on
   * every key given (`visitor`, `ip`, `token`…, with its own maximum). The first one past its limit
   * answers 429 with Retry-After.
   */
  async perMinute(action: string, keys: Array<{ name: string; key: string; max: number }>): Promise<void> {
    return this.perWindow(action, keys, 60);
  }

  /** The same, counting per hour (the widget's new visitors, issue 30). */
  async perHour(action: string, keys: Array<{ name: string; key: string; max: number }>): Promise<void> {
    return this.perWindow(`${action}:h`, keys, 3600);
  }

  private async perWindow(
    action: string,
    keys: Array<{ name: string; key: string; max: number }>,
    seconds: number,
  ): Promise<void> {
    for (const { name, key, max } of keys) {
      const wait = await take({ limiter: this.limiter(`${action}:${name}:${max}`, max, seconds), key });
      if (wait !== undefined) throw tooMany(wait);
    }
  }

  private loginLimits(attempt: LoginAttempt): { ip: Limit; pair: Limit; account: Limit } {
    const account = `${encodeURIComponent(attempt.account)}:${attempt.passwordTag}`;
    return {
      ip: { limiter: this.limiter('login:ip', this.config.AUTH_RATE_IP_MAX), key: attempt.ip },
      pair: { limiter: this.limiter('login:pair', this.config.AUTH_RATE_ACCOUNT_MAX), key: `${account}:${attempt.ip}` },
      account: { limiter: this.limiter('login:acct', this.config.AUTH_RATE_LOGIN_ACCOUNT_MAX), key: account },
    };
  }

  private knownKey(attempt: LoginAttempt): string {
    return `${this.prefix}:login:known:${encodeURIComponent(attempt.account)}:${attempt.ip}`;
  }

  /**
   * Lets a login attempt check its password (`open`), or throws 429. The attempt counts as a failure
   * from the start and `loginSucceeded` gives the points back: counting only after the password check
   * (as the library's example does) would let a burst of parallel guesses all pass the check first.
   * `code`: the account is past its limit over all IPs and this IP never signed in to it; the
   * password may be checked only with a code e-mailed to the address (or `notChecked` gives back
   * what was taken).
   */
  async beginLogin(attempt: LoginAttempt): Promise<'open' | 'code'> {
    const limits = this.loginLimits(attempt);
    const taken: Limit[] = [];
    // Refused before any password was checked: what the earlier limits took is no failure.
    const refuse = async (wait: number) => {
      await Promise.all(taken.map(({ limiter, key }) => limiter.reward(key, 1)));
      return tooMany(wait);
    };
    for (const limit of [limits.ip, limits.pair]) {
      const wait = await take(limit);
      if (wait !== undefined) throw await refuse(wait);
      taken.push(limit);
    }
    const wait = await take(limits.account);
    if (wait !== undefined && (await this.redis.exists(this.knownKey(attempt))) !== 1) return 'code';
    return 'open';
  }

  /** Nothing was checked (a code was asked for): the attempt's IP and pair points are given back. */
  async notChecked(attempt: LoginAttempt): Promise<void> {
    const limits = this.loginLimits(attempt);
    await Promise.all([limits.ip.limiter.reward(limits.ip.key, 1), limits.pair.limiter.reward(limits.pair.key, 1)]);
  }

  /** The password was right: the pair's failures are forgotten and the account knows this IP. */
  async loginSucceeded(attempt: LoginAttempt): Promise<void> {
    const limits = this.loginLimits(attempt);
    await Promise.all([
      limits.ip.limiter.reward(limits.ip.key, 1),
      limits.pair.limiter.delete(limits.pair.key),
      limits.account.limiter.reward(limits.account.key, 1),
      this.redis.set(this.knownKey(attempt), '1', 'EX', this.config.REFRESH_TOKEN_TTL_DAYS * 86_400),
    ]);
  }
}
