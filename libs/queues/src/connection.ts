import { RedisConnection } from 'bullmq';

/**
 * BullMQ's connection wrapper, minus one crash: a queue checks the Redis version as it starts, and
 * when it is closed before that check answers, closing the client rejects the check after the
 * queue has already dropped its listeners — BullMQ then emits an `error` nobody listens to, which
 * Node throws at whatever happens to be running. With no listener left, the error is dropped: the
 * queue or worker is closed and nobody is waiting for it. Used by every queue and worker we start.
 */
export class ClosableConnection extends RedisConnection {
  override emit(event: string | symbol, ...args: unknown[]): boolean {
    if (event === 'error' && this.listenerCount('error') === 0) return false;
    return super.emit(event, ...args);
  }
}
