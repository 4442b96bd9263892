import { Inject, Injectable } from '@nestjs/common';
import { renderEmail, type AppConfig } from '@sparks/core';
import { StripeLinkRepository, UsageRepository, type Clock, type RecordOutcome } from '@sparks/db';
import type { JobPayloads, JobProducer } from '@sparks/queues';
import { CLOCK, CONFIG } from '@sparks/nest';
import { INGEST_PRODUCER } from '../ingestion/tokens';
import { usageEvents } from '../metrics';

/** A message's outcome, and the usage event to report to Stripe (an overage one not reported yet). */
interface Recorded {
  outcome: RecordOutcome;
  meterEventId?: string;
}

/** Messages recorded in one transaction at most. */
const BATCH_MAX = 1000;

/**
 * `usage.record` (the `usage` queue): turns the settled hold of one answered message into its
 * usage event and counts it, in one transaction (idempotent by the message id). When the count
 * crosses 80 % or 100 % of the period's plan interactions, the owner gets the e-mail once per
 * period, in their language.
 */
@Injectable()
export class UsageRecordJob {
  constructor(
    private readonly usage: UsageRepository,
    private readonly stripeLink: StripeLinkRepository,
    @Inject(INGEST_PRODUCER) private readonly jobs: JobProducer,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(CONFIG) private readonly config: AppConfig,
  ) {}

  /** Messages waiting for the next batch, each with the job that waits for its outcome. */
  private pending: Array<{ messageId: string; done: (o: Recorded) => void; fail: (e: unknown) => void }> = [];
  /** A batch is being recorded: the jobs arriving meanwhile wait and make the next one. */
  private recording = false;
  private scheduled = false;

  /**
   * One message's outcome, recorded together with the other `usage.record` jobs of this worker (a
   * group commit: one batch in a transaction at a time, up to `BATCH_MAX` messages; the jobs that
   * arrive while it runs are the next batch). Batches side by side would only queue on the same
   * tenants' row locks, and a lone job still goes at once. A batch that fails fails all its jobs,
   * which BullMQ retries; recording is idempotent by message id.
   */
  private recordBatched(messageId: string): Promise<Recorded> {
    return new Promise((done, fail) => {
      this.pending.push({ messageId, done, fail });
      this.schedule();
    });
  }

  /** The next batch after this turn of the event loop, so that jobs arriving together go together. */
  private schedule(): void {
    if (this.recording || this.scheduled || this.pending.length === 0) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      void this.flush();
    });
  }

  private async flush(): Promise<void> {
    if (this.recording || this.pending.length === 0) return;
    this.recording = true;
    const batch = this.pending.splice(0, BATCH_MAX);
    try {
      const ids = [...new Set(batch.map((b) => b.messageId))];
      // The 80 % / 100 % alert e-mails are written in the recording's transaction (the owner's language).
      const outcomes = await this.usage.recordMany(ids, this.clock.now(), (alert) =>
        renderEmail(alert.level === 80 ? 'usage80' : 'usage100', alert.language, {
          used: alert.used,
          limit: alert.limit,
          plan: alert.plan,
          link: `${this.config.APP_URL}/billing`,
        }),
      );
      // With Stripe, the overage interactions to report, looked up for the whole batch after the commit
      // whether or not this run recorded them: a retry after a failed enqueue still reports them.
      const unreported = this.config.STRIPE_ENABLED ? await this.stripeLink.unreportedOverageOf(ids) : undefined;
      // The same message twice in a batch: only the first carries the outcome (and its alerts).
      const seen = new Set<string>();
      for (const b of batch) {
        const first = !seen.has(b.messageId);
        seen.add(b.messageId);
        b.done({
          outcome: first ? outcomes.get(b.messageId)! : { recorded: false, alerts: [] },
          meterEventId: first ? unreported?.get(b.messageId) : undefined,
        });
      }
    } catch (err) {
      for (const b of batch) b.fail(err);
    } finally {
      this.recording = false;
      this.schedule();
    }
  }

  async handle(payload: JobPayloads['usage.record']): Promise<void> {
    const { outcome, meterEventId } = await this.recordBatched(payload.messageId);
    // Only an event this job inserted: a redelivered job (already recorded, or its hold gone) counts nothing.
    if (outcome.recorded && outcome.source) usageEvents.inc({ source: outcome.source });
    // An overage interaction is reported to Stripe by its own job (`usage.meter`, job id from the usage
    // event); a reported one is not queued again.
    if (meterEventId) await this.jobs.enqueue('usage.meter', { usageEventId: meterEventId });
    // Queued after the commit; a mail whose job was never queued (a crash right here) is queued by the
    // e-mail sweep (worker/src/email/email-sweep.service.ts).
    for (const emailId of outcome.emailIds ?? []) await this.jobs.enqueue('email.send', { emailId });
  }
}
