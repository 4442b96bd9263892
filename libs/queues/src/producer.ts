import { Queue, type JobsOptions } from 'bullmq';
import { ClosableConnection } from './connection';
import type { Redis } from 'ioredis';
import { jobIds, QUEUE_NAMES, queueOf, type JobName, type JobPayloads, type QueueName } from './queues';

export const DEFAULT_JOB_OPTIONS: JobsOptions = {
  attempts: 5,
  backoff: { type: 'exponential', delay: 1000 },
  removeOnComplete: { age: 24 * 3600, count: 1000 },
  removeOnFail: { age: 7 * 24 * 3600 },
};

/**
 * Options of particular jobs, under the caller's. `integration.import` keeps no finished job under its id: the same
 * file enqueued again (changed since, by the sync job) must run again, not be taken for a duplicate of the last run.
 */
export const JOB_OPTIONS: Partial<Record<JobName, JobsOptions>> = {
  'integration.import': {
    attempts: 3,
    backoff: { type: 'exponential', delay: 2000 },
    removeOnComplete: true,
    removeOnFail: true,
  },
  // Waits out the account's jobs still running (a reply on a slow model): about two hours of tries in all.
  'account.purge': { attempts: 12, backoff: { type: 'exponential', delay: 2000 } },
  'account.export': { attempts: 3, backoff: { type: 'exponential', delay: 5000 } },
  'checks.run': {
    attempts: 3,
    backoff: { type: 'exponential', delay: 5000 },
    removeOnComplete: true,
    removeOnFail: 100,
  },
};

/** How long knowledge changes close together wait for each other before their checks run once (ms). */
export const CHECKS_DEBOUNCE_MS = 3000;

/** Enqueues declared jobs; one instance per process. Queue errors (Redis away) go to `onError`. */
export class JobProducer {
  private readonly queues = new Map<QueueName, Queue>();

  constructor(
    connection: Redis,
    prefix: string,
    private readonly onError: (queue: QueueName, err: Error) => void = () => undefined,
  ) {
    for (const name of QUEUE_NAMES) {
      const queue = new Queue(name, { connection, prefix, defaultJobOptions: DEFAULT_JOB_OPTIONS }, ClosableConnection);
      queue.on('error', (err) => onError(name, err));
      this.queues.set(name, queue);
    }
  }

  queue(name: QueueName): Queue {
    return this.queues.get(name)!;
  }

  async enqueue<J extends JobName>(job: J, payload: JobPayloads[J], options: JobsOptions = {}): Promise<string> {
    const jobId = jobIds[job](payload);
    await this.queue(queueOf(job)).add(job, payload, { jobId, ...JOB_OPTIONS[job], ...options });
    return jobId;
  }

  /**
   * The Spark's knowledge changed (a document read, removed or synced, an owner's answer written or taken back): its
   * answer checks run again, once for changes that come close together (BullMQ's debounce: a request waiting is
   * replaced by the next, which waits again). A Spark without checks costs a job that finds none. Never throws: the
   * change itself is done, and a request Redis did not take goes to `onError` (the next change asks again).
   */
  async requestChecks(sparkId: string, delay = CHECKS_DEBOUNCE_MS): Promise<void> {
    await this.enqueue(
      'checks.run',
      { sparkId, requestedAt: Date.now() },
      { delay, deduplication: { id: `checks-${sparkId}`, ttl: delay, extend: true, replace: true } },
    ).catch((err: unknown) =>
      this.onError(queueOf('checks.run'), new Error(`checks of ${sparkId} not asked for: ${String(err)}`)),
    );
  }

  async close(): Promise<void> {
    await Promise.all([...this.queues.values()].map((q) => q.close()));
  }
}
