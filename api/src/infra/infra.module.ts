import { Global, Inject, Logger, Module, type OnApplicationShutdown } from '@nestjs/common';
import type { AppConfig } from '@sparks/core';
import { createFailFastRedis, JobProducer, logRedisErrors } from '@sparks/queues';
import type { Redis } from 'ioredis';
import { CONFIG, REDIS } from './tokens';

/**
 * The api's process-wide Redis resources: the connection and the job producer. Configuration and
 * the database come from `ConfigModule` and `DatabaseModule` (`@sparks/nest`), shared with the worker.
 */
@Global()
@Module({
  providers: [
    {
      provide: REDIS,
      inject: [CONFIG],
      // Requests fail fast (503) while Redis is frozen or away instead of hanging.
      useFactory: (config: AppConfig) => {
        const redis = createFailFastRedis(config.REDIS_URL, config.REDIS_COMMAND_TIMEOUT_MS);
        logRedisErrors(redis, new Logger('Redis'));
        return redis;
      },
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
  ],
  exports: [REDIS, JobProducer],
})
export class InfraModule implements OnApplicationShutdown {
  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    private readonly producer: JobProducer,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    await this.producer.close();
    this.redis.disconnect();
  }
}
