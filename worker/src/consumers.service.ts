import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import type { AppConfig } from '@sparks/core';
import { startConsumers, type JobHandlers } from '@sparks/queues';
import type { Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { CONFIG, REDIS } from '@sparks/nest';
import { UsageMeterJob } from './billing/usage-meter.job';
import { UsageRecordJob } from './billing/usage-record.job';
import { SendEmailJob } from './email/send-email.job';
import { IngestDocumentJob } from './ingestion/ingest-document.job';
import { IntegrationSyncJob } from './integrations/integration-sync.job';
import { ImportItemJob } from './integrations/import-item.job';
import { ReplyJob } from './reply/reply.job';
import { ExportAccountJob } from './privacy/export-account.job';
import { PurgeAccountJob } from './privacy/purge-account.job';
import { RetentionSweepJob } from './privacy/retention-sweep.job';
import { CheckAnswersJob } from './checks/check-answers.job';
import { DigestSweepJob } from './digest/digest-sweep.job';
import { timeJobs } from './metrics';

/** Wires every declared job to its handler and runs the BullMQ workers. */
@Injectable()
export class ConsumersService implements OnApplicationBootstrap {
  private readonly logger = new Logger(ConsumersService.name);
  private workers: Worker[] = [];

  constructor(
    @Inject(CONFIG) private readonly config: AppConfig,
    @Inject(REDIS) private readonly redis: Redis,
    private readonly sendEmail: SendEmailJob,
    private readonly reply: ReplyJob,
    private readonly ingest: IngestDocumentJob,
    private readonly usage: UsageRecordJob,
    private readonly meter: UsageMeterJob,
    private readonly sync: IntegrationSyncJob,
    private readonly importItem: ImportItemJob,
    private readonly exportAccount: ExportAccountJob,
    private readonly purgeAccount: PurgeAccountJob,
    private readonly retention: RetentionSweepJob,
    private readonly checks: CheckAnswersJob,
    private readonly digest: DigestSweepJob,
  ) {}

  handlers(): JobHandlers {
    return {
      'email.send': (payload, job) => this.sendEmail.handle(payload, job),
      'reply.generate': (payload, job) => this.reply.handle(payload, job),
      'document.ingest': (payload, job) => this.ingest.handle(payload, job),
      'usage.record': (payload) => this.usage.handle(payload),
      'usage.meter': (payload) => this.meter.handle(payload),
      'integration.sync': (payload) => this.sync.handle(payload),
      'integration.import': (payload) => this.importItem.handle(payload),
      'account.export': (payload) => this.exportAccount.handle(payload),
      'account.purge': (payload) => this.purgeAccount.handle(payload),
      'retention.sweep': () => this.retention.handle(),
      'checks.run': (payload) => this.checks.handle(payload),
      'digest.sweep': (payload) => this.digest.handle(payload),
    };
  }

  onApplicationBootstrap(): void {
    this.workers = startConsumers(this.handlers(), {
      connection: this.redis,
      prefix: this.config.QUEUE_PREFIX,
      concurrency: this.config.WORKER_CONCURRENCY,
      // Exports read and zip whole accounts: two at a time per worker is enough for a rare job.
      // Checks ask the answer engine once per check: one Spark at a time per worker, beside the replies. The digest's
      // hourly sweep walks every owner in turn: one at a time.
      queueConcurrency: {
        ingestion: this.config.INGEST_CONCURRENCY,
        usage: this.config.USAGE_CONCURRENCY,
        privacy: 2,
        checks: 1,
        digest: 1,
      },
      lockDuration: this.config.WORKER_LOCK_DURATION_MS,
      stalledInterval: this.config.WORKER_STALLED_INTERVAL_MS,
    });
    timeJobs(this.workers);
    for (const w of this.workers) {
      w.on('failed', (job, err) => this.logger.warn(`${w.name}/${job?.name} ${job?.id} failed: ${err.message}`));
      w.on('error', (err) => this.logger.error(`${w.name}: ${err.message}`));
      if (w.name === 'ingestion') w.on('failed', (job, err) => void this.ingest.onFailed(job, err));
      if (w.name === 'privacy') w.on('failed', (job, err) => void this.exportAccount.onFailed(job, err));
    }
    this.logger.log(`consuming ${this.workers.map((w) => w.name).join(', ')}`);
  }

  /** Stops taking jobs and waits for the ones in flight. */
  async drain(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.close()));
  }
}
