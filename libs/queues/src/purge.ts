import type { Job, JobType, Queue } from 'bullmq';
import type { Redis } from 'ioredis';

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
const isUuid = (s: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(s);

/**
 * Whether a text (a Redis key, a job's id and data, an event) names one of a deleted account's ids or names. Ids
 * are UUIDs found by pattern and looked up in a set (an account may have tens of thousands of messages); the few
 * other names (its e-mail as written and as URL-encoded in rate-limit keys, its customer and payment ids) are
 * searched for as they are.
 */
export function mentionsAny(identifiers: readonly string[]): (text: string) => boolean {
  const uuids = new Set<string>();
  const names = new Set<string>();
  for (const id of identifiers) {
    if (!id) continue;
    if (isUuid(id)) uuids.add(id.toLowerCase());
    else {
      names.add(id);
      names.add(encodeURIComponent(id));
    }
  }
  const others = [...names].filter((n) => n.length >= 6);
  return (text: string) => {
    for (const match of text.matchAll(UUID)) if (uuids.has(match[0].toLowerCase())) return true;
    return others.some((n) => text.includes(n));
  };
}

/** Every state a job can be kept in; `active` ones are locked by the worker running them. */
const STATES: JobType[] = [
  'active',
  'waiting',
  'waiting-children',
  'prioritized',
  'delayed',
  'paused',
  'completed',
  'failed',
];
const PAGE = 500;

export interface RedisPurgeOutcome {
  /** Jobs removed (waiting, delayed, done or failed). */
  jobs: number;
  /** Jobs of the account a worker is running now: they cannot be removed yet. */
  running: number;
  /** Job schedulers removed (a document-sharing connection's sync). */
  schedulers: number;
  /** Entries removed from the queues' event streams. */
  events: number;
  /** Other keys removed (rate limits, sessions' hand-overs…). */
  keys: number;
}

const jobText = (job: Job) =>
  `${job.id ?? ''} ${job.repeatJobKey ?? ''} ${JSON.stringify(job.data ?? null)} ${JSON.stringify(job.returnvalue ?? null)}`;

/**
 * Removes from Redis everything that names a deleted account (issue 30): its jobs in every queue and state but
 * `active` (counted instead, for the caller to come back), the job schedulers of its connections, the entries of
 * the queues' event streams about those jobs, and every other key under the prefix whose name holds one of its ids
 * or names. Idempotent: running it again finds less, down to nothing.
 */
export async function purgeRedis(
  redis: Redis,
  prefix: string,
  queues: Queue[],
  identifiers: readonly string[],
): Promise<RedisPurgeOutcome> {
  const mentions = mentionsAny(identifiers);
  const out: RedisPurgeOutcome = { jobs: 0, running: 0, schedulers: 0, events: 0, keys: 0 };
  for (const queue of queues) {
    for (const scheduler of await queue.getJobSchedulers()) {
      if (
        scheduler.key &&
        mentions(`${scheduler.key} ${scheduler.id ?? ''} ${JSON.stringify(scheduler.template ?? {})}`)
      ) {
        if (await queue.removeJobScheduler(scheduler.key)) out.schedulers += 1;
      }
    }
    for (const state of STATES) {
      for (let start = 0; ; start += PAGE) {
        const jobs = (await queue.getJobs([state], start, start + PAGE - 1)).filter(Boolean);
        let removedHere = 0;
        for (const job of jobs) {
          if (!mentions(jobText(job))) continue;
          if (state === 'active') {
            out.running += 1;
            continue;
          }
          try {
            await job.remove();
            out.jobs += 1;
            removedHere += 1;
          } catch {
            // Taken by a worker meanwhile (locked): still running.
            out.running += 1;
          }
        }
        if (jobs.length < PAGE) break;
        // The page shifted by what was removed from it.
        start -= removedHere;
      }
    }
    out.events += await purgeEvents(redis, `${prefix}:${queue.name}:events`, mentions);
  }
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
    cursor = next;
    const doomed = keys.filter((k) => mentions(k));
    if (doomed.length > 0) out.keys += await redis.unlink(...doomed);
  } while (cursor !== '0');
  return out;
}

/** Deletes the event-stream entries that name the account (a job id such as `reply-<messageId>`). */
async function purgeEvents(redis: Redis, stream: string, mentions: (text: string) => boolean): Promise<number> {
  let removed = 0;
  let from = '-';
  for (;;) {
    const entries = await redis.xrange(stream, from, '+', 'COUNT', 1000);
    const doomed = entries.filter(([, fields]) => mentions(fields.join(' '))).map(([id]) => id);
    if (doomed.length > 0) removed += await redis.xdel(stream, ...doomed);
    if (entries.length < 1000) return removed;
    from = `(${entries[entries.length - 1][0]}`;
  }
}
