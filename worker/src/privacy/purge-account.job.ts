import { Inject, Injectable, Logger } from '@nestjs/common';
import type { AppConfig } from '@sparks/core';
import { PrivacyRepository } from '@sparks/db';
import type { FileStorage } from '@sparks/knowledge';
import { purgeRedis, QUEUE_NAMES, type JobProducer, type RedisPurgeOutcome } from '@sparks/queues';
import type { Redis } from 'ioredis';
import { CONFIG, REDIS, STORAGE } from '@sparks/nest';
import { INGEST_PRODUCER } from '../ingestion/tokens';

/**
 * `account.purge` (issue 30): after an account's rows were deleted, removes what it left elsewhere, as its
 * `account_purges` row lists: the stored files (documents, exports), then every job, job scheduler, event and
 * Redis key that names one of its ids or its e-mail. A job of the account that a worker is running cannot be
 * removed yet: the purge fails and BullMQ tries again later (backoff), until none is left; then the row goes.
 */
@Injectable()
export class PurgeAccountJob {
  private readonly logger = new Logger(PurgeAccountJob.name);

  constructor(
    private readonly privacy: PrivacyRepository,
    @Inject(STORAGE) private readonly storage: FileStorage,
    @Inject(INGEST_PRODUCER) private readonly jobs: JobProducer,
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(CONFIG) private readonly config: AppConfig,
  ) {}

  async handle({ purgeId }: { purgeId: string }): Promise<RedisPurgeOutcome | undefined> {
    const purge = await this.privacy.findPurge(purgeId);
    if (!purge) return undefined;
    for (const key of purge.storageKeys) await this.storage.delete(key);
    const outcome = await purgeRedis(
      this.redis,
      this.config.QUEUE_PREFIX,
      QUEUE_NAMES.map((name) => this.jobs.queue(name)),
      purge.identifiers,
    );
    if (outcome.running > 0) {
      throw new Error(`${outcome.running} job(s) of the deleted account are running; the purge is tried again`);
    }
    await this.privacy.deletePurge(purgeId);
    this.logger.log(
      `purged deleted account ${purgeId}: ${purge.storageKeys.length} file(s), ${outcome.jobs} job(s), ` +
        `${outcome.schedulers} scheduler(s), ${outcome.events} event(s), ${outcome.keys} key(s)`,
    );
    return outcome;
  }
}
