import IORedis, { type Redis, type RedisOptions } from 'ioredis';

/** A connection suitable for BullMQ workers and queues (blocking commands need no retry cap). */
export function createRedis(url: string, options: RedisOptions = {}): Redis {
  return new IORedis(url, { maxRetriesPerRequest: null, enableReadyCheck: true, ...options });
}
