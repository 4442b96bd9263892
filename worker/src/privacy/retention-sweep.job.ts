import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { DeployRepository, PrivacyRepository, type Clock } from '@sparks/db';
import type { FileStorage } from '@sparks/knowledge';
import { queueOf, scheduleRetentionSweep, type JobProducer } from '@sparks/queues';
import { CLOCK, STORAGE } from '@sparks/nest';
import { INGEST_PRODUCER } from '../ingestion/tokens';

const HOUR_MS = 3_600_000;
const BATCH = 500;
/** A purge still there this long after the account's deletion: its job was never queued, or it gave up. */
const PURGE_STALE_MS = 10 * 60_000;

export interface RetentionOutcome {
  conversations: number;
  visitors: number;
  exports: number;
  purges: number;
}

/**
 * `retention.sweep` (issue 30), hourly through the `retention-sweep` job scheduler that every worker upserts at
 * start: deletes website visitors' conversations older than their Spark's retention (and visitors left with none),
 * the exports whose link expired (file and row), and queues again the purges of deleted accounts left unfinished.
 */
@Injectable()
export class RetentionSweepJob implements OnApplicationBootstrap {
  private readonly logger = new Logger(RetentionSweepJob.name);

  constructor(
    private readonly deploy: DeployRepository,
    private readonly privacy: PrivacyRepository,
    @Inject(STORAGE) private readonly storage: FileStorage,
    @Inject(INGEST_PRODUCER) private readonly jobs: JobProducer,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  onApplicationBootstrap(): void {
    void scheduleRetentionSweep(this.jobs.queue(queueOf('retention.sweep')), HOUR_MS).catch((err: unknown) =>
      this.logger.warn(`could not schedule the retention sweep: ${String(err)}`),
    );
  }

  async handle(): Promise<RetentionOutcome> {
    const now = this.clock.now();
    const out: RetentionOutcome = { conversations: 0, visitors: 0, exports: 0, purges: 0 };
    for (let n = BATCH; n === BATCH;) {
      n = await this.deploy.sweepVisitorConversations(now, BATCH);
      out.conversations += n;
    }
    for (let n = BATCH; n === BATCH;) {
      n = await this.deploy.sweepIdleVisitors(now, BATCH);
      out.visitors += n;
    }
    for (const row of await this.privacy.staleExports(now)) {
      if (row.storageKey) await this.storage.delete(row.storageKey);
      await this.privacy.deleteExport(row.id);
      out.exports += 1;
    }
    const queue = this.jobs.queue(queueOf('account.purge'));
    for (const purgeId of await this.privacy.stalePurges(new Date(now.getTime() - PURGE_STALE_MS))) {
      const job = await queue.getJob(`purge-${purgeId}`);
      if (job && (await job.isFailed())) await job.retry();
      else if (!job) await this.jobs.enqueue('account.purge', { purgeId });
      out.purges += 1;
    }
    if (out.conversations + out.visitors + out.exports + out.purges > 0) {
      this.logger.log(
        `retention: ${out.conversations} visitor conversation(s), ${out.visitors} visitor(s), ` +
          `${out.exports} expired export(s) deleted; ${out.purges} purge(s) queued again`,
      );
    }
    return out;
  }
}
