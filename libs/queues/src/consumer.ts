import { Worker, type Job } from 'bullmq';
import { ClosableConnection } from './connection';
import type { Redis } from 'ioredis';
import { QUEUE_NAMES, QUEUES, type JobName, type JobPayloads, type QueueName } from './queues';

export type JobHandler<J extends JobName> = (payload: JobPayloads[J], job: Job) => Promise<unknown>;
export type JobHandlers = { [J in JobName]: JobHandler<J> };

/** Throws when a declared job has no handler: a worker that cannot do its work must not start. */
export function assertHandlersComplete(handlers: Partial<Record<JobName, unknown>>): void {
  const missing: string[] = [];
  for (const queue of QUEUE_NAMES) {
    for (const job of QUEUES[queue].jobs) {
      if (typeof handlers[job] !== 'function') missing.push(`${queue}/${job}`);
    }
  }
  if (missing.length > 0) {
    throw new Error(`No handler for declared job(s): ${missing.join(', ')}`);
  }
}

export interface ConsumerOptions {
  connection: Redis;
  prefix: string;
  concurrency: number;
  /** Per-queue concurrency where it differs from `concurrency` (e.g. CPU-heavy ingestion). */
  queueConcurrency?: Partial<Record<QueueName, number>>;
  /** How long a job's lock lasts; a job whose worker died is handed to another once it expires. */
  lockDuration?: number;
  /** How often each worker looks for such stalled jobs. */
  stalledInterval?: number;
}

/** Starts one BullMQ worker per queue that has jobs, dispatching each job to its handler. */
export function startConsumers(handlers: JobHandlers, options: ConsumerOptions): Worker[] {
  assertHandlersComplete(handlers);
  const workers: Worker[] = [];
  for (const queue of QUEUE_NAMES) {
    if (QUEUES[queue].jobs.length === 0) continue;
    workers.push(
      new Worker(
        queue,
        async (job: Job) => {
          const name = job.name as JobName;
          if (!QUEUES[queue].jobs.includes(name)) {
            throw new Error(`Job ${job.name} does not belong to queue ${queue}`);
          }
          // The payload was typed by the producer for this job name; the map guarantees the pairing.
          const handler = handlers[name] as (payload: unknown, job: Job) => Promise<unknown>;
          return handler(job.data, job);
        },
        {
          connection: options.connection,
          prefix: options.prefix,
          concurrency: options.queueConcurrency?.[queue] ?? options.concurrency,
          ...(options.lockDuration ? { lockDuration: options.lockDuration } : {}),
          ...(options.stalledInterval ? { stalledInterval: options.stalledInterval } : {}),
        },
        ClosableConnection,
      ),
    );
  }
  return workers;
}
