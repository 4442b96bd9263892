import { Inject, Injectable } from '@nestjs/common';
import { RESEND_COOLDOWN_SECONDS } from '@sparks/contracts';
import { renderEmail, type AppConfig } from '@sparks/core';
import type { UserRow } from '@sparks/db';
import type { Redis } from 'ioredis';
import { CONFIG, REDIS } from '@sparks/nest';
import { MailService } from '../mail/mail.service';
import { newCode, sha256 } from './secrets';

/** E-mails of login codes per account in one window of the sign-in limits; past it, none (silently). */
const LOGIN_CODE_MAILS_PER_WINDOW = 5;

/**
 * The codes a login needs past the account-wide limit of failed passwords, from an IP the account does
 * not know (docs/decisions.md). Only the mailbox's owner reads them, so others' guesses cannot lock the
 * owner out. Every code sent lives two windows and none replaces another: whoever makes the api send
 * more (up to LOGIN_CODE_MAILS_PER_WINDOW, one per RESEND_COOLDOWN_SECONDS) cannot spoil the one the
 * owner holds. Kept in Redis as SHA-256 digests in a sorted set scored by expiry.
 */
@Injectable()
export class LoginCodes {
  private readonly prefix: string;

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(CONFIG) private readonly config: AppConfig,
    private readonly mail: MailService,
  ) {
    this.prefix = `${config.QUEUE_PREFIX}:${config.RATE_LIMIT_NAMESPACE}:login-code`;
  }

  private key(account: string, kind: 'codes' | 'mails' | 'cooldown'): string {
    return `${this.prefix}:${kind}:${encodeURIComponent(account)}`;
  }

  private get lifetimeMs(): number {
    return 2 * this.config.AUTH_RATE_WINDOW_SECONDS * 1000;
  }

  /** E-mails a new code to the user, unless one went out in the last cooldown or the window's cap is reached. */
  async send(user: UserRow): Promise<void> {
    const account = user.username;
    const cool = await this.redis.set(this.key(account, 'cooldown'), '1', 'EX', RESEND_COOLDOWN_SECONDS, 'NX');
    if (cool !== 'OK') return;
    const mails = this.key(account, 'mails');
    const [, [, sent]] = (await this.redis
      .multi()
      .set(mails, '0', 'EX', this.config.AUTH_RATE_WINDOW_SECONDS, 'NX')
      .incr(mails)
      .exec()) as [[null, unknown], [null, number]];
    if (sent > LOGIN_CODE_MAILS_PER_WINDOW) return;
    const code = newCode();
    const codes = this.key(account, 'codes');
    const now = Date.now();
    await this.redis
      .multi()
      .zremrangebyscore(codes, '-inf', now)
      .zadd(codes, now + this.lifetimeMs, sha256(code))
      .pexpire(codes, this.lifetimeMs)
      .exec();
    const minutes = Math.round(this.lifetimeMs / 60_000);
    const { subject, text } = renderEmail('loginCode', user.language, { code, minutes });
    await this.mail.send({ to: user.email, subject, text, language: user.language });
  }

  /** Whether `code` is a live login code of the account. */
  async valid(account: string, code: string): Promise<boolean> {
    if (!/^\d{6}$/.test(code)) return false;
    const expires = await this.redis.zscore(this.key(account, 'codes'), sha256(code));
    return expires !== null && Number(expires) > Date.now();
  }

  /** A code that signed in works once. */
  async spend(account: string, code: string): Promise<void> {
    await this.redis.zrem(this.key(account, 'codes'), sha256(code));
  }
}
