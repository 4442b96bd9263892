import { Inject, Injectable, Logger } from '@nestjs/common';
import { EmailsRepository, type Clock } from '@sparks/db';
import type { JobProducer } from '@sparks/queues';
import { CLOCK } from '@sparks/nest';
import { PeriodicSweep } from '../infra/periodic';
import { INGEST_PRODUCER } from '../ingestion/tokens';

const SWEEP_INTERVAL_MS = 60_000;
/** Older than this and still pending: its `email.send` was likely never queued. */
export const EMAIL_SWEEP_AGE_MS = 5 * 60_000;

/**
 * Every e-mail is a row written first and an `email.send` job queued after the row's commit. A process
 * that stops between the two (or a queue that refuses the job) leaves a row that nobody sends. Once a
 * minute the worker queues `email.send` again for mail pending for more than five minutes: the job id is
 * the e-mail's (`email-<id>`), so a job still waiting or being retried is not queued twice, and the job
 * itself skips a mail already sent.
 */
@Injectable()
export class EmailSweep extends PeriodicSweep {
  private readonly logger = new Logger(EmailSweep.name);

  constructor(
    private readonly emails: EmailsRepository,
    @Inject(INGEST_PRODUCER) private readonly jobs: JobProducer,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {
    super(SWEEP_INTERVAL_MS);
  }

  /** Queues the stale pending mail; answers how many were handed to the queue. */
  async sweep(): Promise<number> {
    try {
      const ids = await this.emails.pendingBefore(new Date(this.clock.now().getTime() - EMAIL_SWEEP_AGE_MS));
      for (const emailId of ids) await this.jobs.enqueue('email.send', { emailId });
      if (ids.length > 0) this.logger.warn(`queued ${ids.length} pending e-mail(s) again`);
      return ids.length;
    } catch (err) {
      this.logger.warn(`e-mail sweep failed: ${String(err)}`);
      return 0;
    }
  }
}
