import { Global, Inject, Logger, Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import type { AppConfig } from '@sparks/core';
import { systemClock, type Clock } from '@sparks/db';
import { createStorage } from '@sparks/knowledge';
import { createFailFastRedis, createRedis, logRedisErrors } from '@sparks/queues';
import type { Redis } from 'ioredis';
import { createStripeClient } from './stripe';
import { CLOCK, CONFIG, REDIS, STORAGE, STRIPE } from './tokens';

export interface InfraOptions {
  /**
   * How the process's Redis connection waits. `failFast` (the api): every command that gets no answer within
   * `REDIS_COMMAND_TIMEOUT_MS` is rejected, so a request answers 503 instead of hanging, and the connection's
   * errors are logged once per outage. `patient` (the worker): commands wait for a reconnection, as BullMQ's
   * blocking reads need.
   */
  redis: 'failFast' | 'patient';
}

function redisFor(options: InfraOptions, config: AppConfig): Redis {
  if (options.redis === 'patient') return createRedis(config.REDIS_URL);
  const redis = createFailFastRedis(config.REDIS_URL, config.REDIS_COMMAND_TIMEOUT_MS);
  logRedisErrors(redis, new Logger('Redis'));
  return redis;
}

/**
 * The infrastructure both processes build alike from `CONFIG`, global: the Redis connection (`REDIS`), the clock
 * (`CLOCK`), the Stripe client or undefined (`STRIPE`) and the file store (`STORAGE`). Imported once per process
 * with `InfraModule.forRoot`, after `ConfigModule` and `DatabaseModule`. Redis is disconnected at shutdown: Nest
 * shuts global modules down after the others, and among them in the reverse order of their import, so a module
 * imported after this one (the api's job producer) closes before the connection it uses.
 */
@Global()
@Module({})
export class InfraModule implements OnApplicationShutdown {
  constructor(@Inject(REDIS) private readonly redis: Redis) {}

  static forRoot(options: InfraOptions): DynamicModule {
    return {
      module: InfraModule,
      global: true,
      providers: [
        { provide: REDIS, inject: [CONFIG], useFactory: (config: AppConfig) => redisFor(options, config) },
        // One object per application, so that a test can move this process's clock (`jest.spyOn(clock, 'now')`)
        // without moving another's in the same Node process.
        { provide: CLOCK, useFactory: (): Clock => ({ now: () => systemClock.now() }) },
        { provide: STRIPE, inject: [CONFIG], useFactory: (config: AppConfig) => createStripeClient(config) },
        { provide: STORAGE, inject: [CONFIG], useFactory: (config: AppConfig) => createStorage(config) },
      ],
      exports: [REDIS, CLOCK, STRIPE, STORAGE],
    };
  }

  onApplicationShutdown(): void {
    this.redis.disconnect();
  }
}
