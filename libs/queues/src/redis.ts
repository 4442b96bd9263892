import IORedis, { type Redis, type RedisOptions } from 'ioredis';

/** A connection suitable for BullMQ workers and queues (blocking commands need no retry cap). */
export function createRedis(url: string, options: RedisOptions = {}): Redis {
  return new IORedis(url, { maxRetriesPerRequest: null, enableReadyCheck: true, ...options });
}

/**
 * A connection for request handling, which must fail fast rather than wait for Redis: every command
 * that gets no answer within `commandTimeoutMs` is rejected, whether Redis is frozen or the command
 * waits in the offline queue for a reconnection (the queue stays on, so the start of the process and
 * a short reconnection lose nothing). ioredis keeps reconnecting in the background, so everything
 * works again when Redis is back.
 */
export function createFailFastRedis(url: string, commandTimeoutMs: number): Redis {
  return createRedis(url, {
    commandTimeout: commandTimeoutMs,
    maxRetriesPerRequest: 1,
    // Detects a dead peer between requests too, not only when a command is sent.
    keepAlive: 10_000,
  });
}

const UNAVAILABLE_MESSAGES = [
  'Command timed out',
  "Stream isn't writeable and enableOfflineQueue options is false",
  'Connection is closed.',
];

/** True for the errors ioredis rejects a command with when Redis is frozen, down or reconnecting. */
export function isRedisUnavailable(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  return err.name === 'MaxRetriesPerRequestError' || UNAVAILABLE_MESSAGES.includes(err.message);
}

/**
 * Logs a client's connection errors instead of leaving them unhandled (ioredis then prints
 * "Unhandled error event" on every reconnection attempt): the first error of an outage as a
 * warning, and the reconnection; ioredis keeps reconnecting by itself.
 */
export function logRedisErrors(
  redis: Redis,
  log: { warn(message: string): void; log(message: string): void },
  name = 'Redis',
): void {
  let down = false;
  redis.on('error', (err: Error) => {
    if (down) return;
    down = true;
    log.warn(`${name}: ${err.message}`);
  });
  redis.on('ready', () => {
    if (!down) return;
    down = false;
    log.log(`${name}: connected again`);
  });
}
