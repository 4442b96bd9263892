import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import type { AppConfig } from '@sparks/core';
import {
  AccountsRepository,
  AnalyticsRepository,
  EmailsRepository,
  isSqlState,
  type Clock,
  type DigestCandidate,
} from '@sparks/db';
import { composeDigest, dueDigest, hasActivity, sweepMonday, zoneOrDefault, type DigestWeek } from '@sparks/domain';
import { queueOf, scheduleDigestSweep, type JobPayloads, type JobProducer } from '@sparks/queues';
import { CLOCK, CONFIG } from '@sparks/nest';
import { INGEST_PRODUCER } from '../ingestion/tokens';

const HOUR_MS = 3_600_000;
const BATCH = 200;
/** The digest tells the seven days before the owner's Monday. */
const WEEK_DAYS = 7;
/** PostgreSQL's SQLSTATE for a time zone its tzdata does not know. */
const UNKNOWN_TIME_ZONE = '22023';

export interface DigestOutcome {
  /** Digests written to the outbox and queued. */
  sent: number;
  /** Weeks with no conversation and no rating: decided, nothing sent. */
  empty: number;
  /** Weeks another sweep claimed first. */
  taken: number;
  /** Owners whose digest failed (their claim rolled back: the next sweep tries again). */
  failed: number;
}

/**
 * `digest.sweep` (issue 35 item 4), hourly through the `digest-sweep` job scheduler that every worker upserts at start:
 * the weekly digest e-mail to every owner (digest on, address verified, a Spark at least) whose Monday 08:00 has come
 * in their time zone (UTC when they have none) and whose week was not handled yet. Each owner's week is claimed in the
 * database (`digest_sent_on`) in the transaction that writes the e-mail, so two workers or a job delivered twice send
 * it once; a week without conversations or ratings is claimed and sends nothing. A sweep asked for with an ISO instant
 * (`requestedAt`) runs as of it; the scheduler's (`scheduled`) as of the clock.
 */
@Injectable()
export class DigestSweepJob implements OnApplicationBootstrap {
  private readonly logger = new Logger(DigestSweepJob.name);

  constructor(
    private readonly accounts: AccountsRepository,
    private readonly analytics: AnalyticsRepository,
    private readonly emails: EmailsRepository,
    @Inject(INGEST_PRODUCER) private readonly jobs: JobProducer,
    @Inject(CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  onApplicationBootstrap(): void {
    void scheduleDigestSweep(this.jobs.queue(queueOf('digest.sweep')), HOUR_MS).catch((err: unknown) =>
      this.logger.warn(`could not schedule the digest sweep: ${String(err)}`),
    );
  }

  async handle({ requestedAt }: JobPayloads['digest.sweep']): Promise<DigestOutcome> {
    const asOf = Date.parse(requestedAt);
    const now = Number.isFinite(asOf) ? new Date(asOf) : this.clock.now();
    const out: DigestOutcome = { sent: 0, empty: 0, taken: 0, failed: 0 };
    // Outside Sunday 18:00 – Tuesday 12:00 UTC it is Monday morning nowhere: nothing to read.
    const monday = sweepMonday(now);
    if (monday === undefined) return out;
    let after: string | undefined;
    for (let page = BATCH; page === BATCH;) {
      const batch = await this.accounts.digestCandidates({ monday, after, limit: BATCH });
      page = batch.length;
      for (const user of batch) {
        after = user.id;
        const week = dueDigest({ now, timeZone: user.timeZone, sentOn: user.digestSentOn });
        if (!week) continue;
        try {
          out[await this.digest(user, week)] += 1;
        } catch (err) {
          out.failed += 1;
          this.logger.warn(`digest of user ${user.id} failed: ${String(err)}`);
        }
      }
    }
    if (out.sent + out.empty + out.failed > 0) {
      this.logger.log(
        `digest: ${out.sent} sent, ${out.empty} empty week(s), ${out.taken} taken by another sweep, ${out.failed} failed`,
      );
    }
    return out;
  }

  /** Claims the owner's week and, with the claim, writes the e-mail when the week had activity; then queues it. */
  private async digest(user: DigestCandidate, week: DigestWeek): Promise<'sent' | 'empty' | 'taken'> {
    const claim = await this.accounts.claimDigestWeek(user.id, week.monday, async (tx) => {
      const figures = await this.period(user.id, zoneOrDefault(user.timeZone), week.to);
      if (!hasActivity(figures.totals)) return undefined;
      const mail = composeDigest({ language: user.language, figures, appUrl: this.config.APP_URL });
      const email = await this.emails.withTx(tx).create({ to: user.email, ...mail, language: user.language });
      return email.id;
    });
    if (!claim.claimed) return 'taken';
    if (claim.value === undefined) return 'empty';
    await this.jobs.enqueue('email.send', { emailId: claim.value });
    return 'sent';
  }

  /** The owner's seven days ending with `lastDay`, all their Sparks; in UTC when PostgreSQL does not know their zone. */
  private async period(userId: string, timeZone: string, lastDay: string) {
    try {
      return await this.analytics.period({ userId, days: WEEK_DAYS, timeZone, lastDay });
    } catch (err) {
      if (timeZone === 'UTC' || !isSqlState(err, UNKNOWN_TIME_ZONE)) throw err;
      return this.analytics.period({ userId, days: WEEK_DAYS, timeZone: 'UTC', lastDay });
    }
  }
}
