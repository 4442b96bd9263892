import { Inject, Injectable, Logger } from '@nestjs/common';
import { DomainError, renderEmail, type AppConfig } from '@sparks/core';
import { AccountsRepository, type SparkRow } from '@sparks/db';
import type { Redis } from 'ioredis';
import { CONFIG, REDIS } from '@sparks/nest';
import { MailService } from '../mail/mail.service';

const DAY_SECONDS = 86_400;

/**
 * Takes one from today's count unless it reached the limit: answers the new count, or -1 when the limit was
 * reached (nothing taken). The key lives two days, so yesterday's count is gone without a sweep.
 */
const TAKE = `
local n = tonumber(redis.call('GET', KEYS[1]) or '0')
if n >= tonumber(ARGV[1]) then return -1 end
n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('EXPIRE', KEYS[1], ARGV[2]) end
return n
`;

/** The UTC day of `now` (`2026-11-28`) and the seconds left until the next one begins. */
export function utcDay(now: Date): { day: string; secondsLeft: number } {
  const next = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  return { day: now.toISOString().slice(0, 10), secondsLeft: Math.max(1, Math.ceil((next - now.getTime()) / 1000)) };
}

/**
 * The owner-set daily limit of a published Spark's widget (issue 30): every visitor message counts one, per Spark
 * and UTC day, in Redis (shared by every api replica, atomic under parallel sends). Past the limit a visitor gets
 * 429 DEPLOYMENT_DAILY_LIMIT with Retry-After (the seconds to the next UTC day), and the owner is e-mailed once that
 * day, in their language, through the e-mail outbox. The owner's preview (no deployment) does not count.
 */
@Injectable()
export class DeploymentCap {
  private readonly logger = new Logger(DeploymentCap.name);

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(CONFIG) private readonly config: AppConfig,
    private readonly accounts: AccountsRepository,
    private readonly mail: MailService,
  ) {}

  private key(sparkId: string, day: string, what: 'count' | 'told'): string {
    return `${this.config.QUEUE_PREFIX}:widget-day:${what}:${sparkId}:${day}`;
  }

  /** Visitor messages taken today against the Spark's limit. */
  async usedToday(sparkId: string, now = new Date()): Promise<number> {
    return Number((await this.redis.get(this.key(sparkId, utcDay(now).day, 'count'))) ?? 0);
  }

  /** Counts one visitor message of a published Spark, or throws 429 DEPLOYMENT_DAILY_LIMIT past its limit. */
  async take(spark: SparkRow, now = new Date()): Promise<void> {
    const { day, secondsLeft } = utcDay(now);
    const taken = Number(
      await this.redis.eval(TAKE, 1, this.key(spark.id, day, 'count'), spark.widgetDailyLimit, 2 * DAY_SECONDS),
    );
    if (taken >= 0) return;
    await this.tellOwner(spark, day);
    throw new DomainError({ code: 'DEPLOYMENT_DAILY_LIMIT', params: { seconds: secondsLeft } });
  }

  /** The owner's e-mail, once a day: the first refusal of the day sets the mark, and only it writes the mail. */
  private async tellOwner(spark: SparkRow, day: string): Promise<void> {
    try {
      const first = await this.redis.set(this.key(spark.id, day, 'told'), '1', 'EX', 2 * DAY_SECONDS, 'NX');
      if (first !== 'OK') return;
      const owner = await this.accounts.findUserById(spark.userId);
      if (!owner) return;
      const { subject, text } = renderEmail('dailyLimit', owner.language, {
        spark: spark.name,
        limit: spark.widgetDailyLimit,
        link: `${this.config.APP_URL}/deploy`,
      });
      await this.mail.send({ to: owner.email, subject, text, language: owner.language });
    } catch (err) {
      // The visitor still gets the refusal; the owner's mail is tried again by the next refusal only if it was not marked.
      this.logger.error({ err, sparkId: spark.id }, 'could not tell the owner of the daily limit');
    }
  }
}
