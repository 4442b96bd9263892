import { Global, Logger, Module, type OnApplicationShutdown } from '@nestjs/common';
import type { AppConfig } from '@sparks/core';
import { CONFIG, REDIS } from '@sparks/nest';
import { JobProducer } from '@sparks/queues';
import type { Redis } from 'ioredis';

/**
 * The api's job producer, on the Redis connection of `InfraModule` (`@sparks/nest`, shared with the worker). Imported
 * after `InfraModule`: Nest shuts global modules down in the reverse order of their import, so the producer's queues
 * close before the connection is dropped.
 */
@Global()
@Module({
  providers: [
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
  exports: [JobProducer],
})
export class ProducerModule implements OnApplicationShutdown {
  constructor(private readonly producer: JobProducer) {}

  async onApplicationShutdown(): Promise<void> {
    await this.producer.close();
  }
}
