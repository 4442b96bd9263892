import { Global, Inject, Logger, Module, type OnApplicationShutdown } from '@nestjs/common';
import { loadConfig, type AppConfig } from '@sparks/core';
import { createDb, EmailsRepository, type DbHandle } from '@sparks/db';
import { createFailFastRedis, JobProducer } from '@sparks/queues';
import type { Redis } from 'ioredis';
import { CONFIG, DB, REDIS } from './tokens';

/** Process-wide resources: configuration, the database pool, Redis and the job producer. */
@Global()
@Module({
  providers: [
    { provide: CONFIG, useFactory: () => loadConfig() },
    {
      provide: DB,
      inject: [CONFIG],
      useFactory: (config: AppConfig) => createDb(config.DATABASE_URL, config.DATABASE_POOL_MAX),
    },
    {
      provide: REDIS,
      inject: [CONFIG],
      // Requests fail fast (503) while Redis is frozen or away instead of hanging.
      useFactory: (config: AppConfig) => createFailFastRedis(config.REDIS_URL, config.REDIS_COMMAND_TIMEOUT_MS),
    },
    {
      provide: JobProducer,
      inject: [REDIS, CONFIG],
      useFactory: (redis: Redis, config: AppConfig) => {
        const logger = new Logger(JobProducer.name);
        const onError = (queue: string, err: Error) => logger.warn(`${queue}: ${err.message}`);
        return new JobProducer(redis, config.QUEUE_PREFIX, onError);
      },
    },
    { provide: EmailsRepository, inject: [DB], useFactory: (h: DbHandle) => new EmailsRepository(h.db) },
  ],
  exports: [CONFIG, DB, REDIS, JobProducer, EmailsRepository],
})
export class InfraModule implements OnApplicationShutdown {
  constructor(
    @Inject(DB) private readonly dbHandle: DbHandle,
    @Inject(REDIS) private readonly redis: Redis,
    private readonly producer: JobProducer,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    await this.producer.close();
    this.redis.disconnect();
    await this.dbHandle.close();
  }
}
