import { Inject, Injectable, Logger } from '@nestjs/common';
import {
  CODE_LENGTH,
  confirmsDeletion,
  RESEND_COOLDOWN_SECONDS,
  type AccountDeleted,
  type DeleteAccountRequest,
  type DeletionMethod,
} from '@sparks/contracts';
import { DomainError, renderEmail, type AppConfig } from '@sparks/core';
import { AccountsRepository, PrivacyRepository, type UserRow } from '@sparks/db';
import { JobProducer } from '@sparks/queues';
import type { Redis } from 'ioredis';
import { timingSafeEqual } from 'node:crypto';
import { CONFIG, REDIS } from '@sparks/nest';
import { verifyPassword } from '../auth/passwords';
import { RateLimiter } from '../auth/rate-limiter.service';
import { newCode, sha256 } from '../auth/secrets';
import { PAYMENT_PROVIDER, type PaymentProvider } from '../billing/payment-provider';
import { MailService } from '../mail/mail.service';

const CODE_TTL_SECONDS = 10 * 60;
const CODE_MAX_ATTEMPTS = 5;

interface StoredCode {
  hash: string;
  attempts: number;
  sentAt: number;
}

const sameHash = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/**
 * `DELETE /account` (issue 30): the account and everything it owns go, after the user typed their e-mail address
 * and proved it is them — their password, or for an account that signs in only with Google a code e-mailed to it
 * (`POST /account/deletion-code`, kept hashed in Redis for 10 minutes, 5 tries). The paid subscription is cancelled
 * with the payment provider first (a provider that does not answer keeps the account: 503); then one transaction
 * removes every row (every session ends with the user's row), and the worker's `account.purge` removes the stored
 * files, the queued jobs and the Redis keys.
 */
@Injectable()
export class AccountDeletionService {
  private readonly logger = new Logger(AccountDeletionService.name);

  constructor(
    private readonly accounts: AccountsRepository,
    private readonly privacy: PrivacyRepository,
    private readonly limiter: RateLimiter,
    private readonly mail: MailService,
    private readonly jobs: JobProducer,
    @Inject(PAYMENT_PROVIDER) private readonly provider: PaymentProvider,
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(CONFIG) private readonly config: AppConfig,
  ) {}

  private codeKey(userId: string): string {
    return `${this.config.QUEUE_PREFIX}:account-delete:${userId}`;
  }

  private async user(userId: string): Promise<UserRow> {
    const user = await this.accounts.findUserById(userId);
    if (!user) throw DomainError.notFound();
    return user;
  }

  async method(userId: string): Promise<DeletionMethod> {
    return { method: (await this.user(userId)).passwordHash ? 'password' : 'code' };
  }

  /** E-mails a code to an account that signs in only with Google (one every 30 s). */
  async sendCode(userId: string, ip: string): Promise<{ sent: true; cooldownSeconds: number }> {
    const user = await this.user(userId);
    if (user.passwordHash) throw DomainError.of('DELETION_NEEDS_PASSWORD');
    await this.limiter.guard('delete-code', userId, ip);
    const key = this.codeKey(userId);
    const previous = await this.redis.get(key);
    const sentAt = previous ? (JSON.parse(previous) as StoredCode).sentAt : 0;
    const waited = (Date.now() - sentAt) / 1000;
    if (waited < RESEND_COOLDOWN_SECONDS) {
      throw DomainError.of('RESEND_TOO_SOON', { seconds: Math.ceil(RESEND_COOLDOWN_SECONDS - waited) });
    }
    const code = newCode();
    const stored: StoredCode = { hash: sha256(code), attempts: 0, sentAt: Date.now() };
    await this.redis.set(key, JSON.stringify(stored), 'EX', CODE_TTL_SECONDS);
    const { subject, text } = renderEmail('deleteCode', user.language, { code, minutes: CODE_TTL_SECONDS / 60 });
    await this.mail.send({ to: user.email, subject, text, language: user.language });
    return { sent: true, cooldownSeconds: RESEND_COOLDOWN_SECONDS };
  }

  /** Checks the code once; five wrong ones end it. */
  private async checkCode(userId: string, code: string | undefined): Promise<void> {
    if (!code?.trim()) throw DomainError.invalid('REQUIRED', 'code');
    const key = this.codeKey(userId);
    const raw = await this.redis.get(key);
    const stored = raw ? (JSON.parse(raw) as StoredCode) : undefined;
    const typed = code.trim();
    if (stored && typed.length === CODE_LENGTH && sameHash(sha256(typed), stored.hash)) {
      await this.redis.del(key);
      return;
    }
    if (stored) {
      stored.attempts += 1;
      if (stored.attempts >= CODE_MAX_ATTEMPTS) await this.redis.del(key);
      else await this.redis.set(key, JSON.stringify(stored), 'KEEPTTL');
    }
    throw DomainError.invalid('INVALID_CODE', 'code');
  }

  async delete(userId: string, input: DeleteAccountRequest, ip: string): Promise<AccountDeleted> {
    const user = await this.user(userId);
    await this.limiter.guard('delete-account', userId, ip);
    if (!confirmsDeletion(input.confirmation, user.email)) {
      throw DomainError.invalid('DELETE_CONFIRMATION_MISMATCH', 'confirmation');
    }
    if (user.passwordHash) {
      if (!input.password) throw DomainError.invalid('REQUIRED', 'password');
      if (!(await verifyPassword(user.passwordHash, input.password))) {
        throw DomainError.invalid('WRONG_PASSWORD', 'password');
      }
    } else {
      await this.checkCode(userId, input.code);
    }
    const [tenant] = await this.accounts.tenantsOf(userId);
    const subscriptionCanceled = tenant ? await this.provider.cancelForDeletion(tenant) : null;
    const deleted = await this.privacy.deleteAccount(userId);
    if (!deleted) throw DomainError.notFound();
    this.logger.log(
      `account ${userId} deleted (${deleted.identifiers} ids, ${deleted.storageKeys} files to purge; ` +
        `subscription cancelled: ${subscriptionCanceled ?? 'none'})`,
    );
    try {
      await this.jobs.enqueue('account.purge', { purgeId: deleted.purgeId });
    } catch (err) {
      // The rows are gone; the worker's retention sweep queues the purge of a deletion left unfinished.
      this.logger.warn(`could not queue the purge ${deleted.purgeId}: ${String(err)}`);
    }
    return { deleted: true, subscriptionCanceled };
  }
}
