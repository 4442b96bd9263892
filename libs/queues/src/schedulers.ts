import type { Queue } from 'bullmq';

/**
 * The job scheduler that runs `integration.sync` for one document-sharing connection (issue 20): one per
 * connection, created when the Spark connects, removed when it disconnects (and by the sync itself when it
 * finds the connection gone, e.g. after the Spark's deletion). Its id derives from the connection's, so
 * connecting again only updates it.
 */
export const integrationSyncSchedulerId = (connectionId: string) => `integration-sync-${connectionId}`;

/** Creates or updates the connection's scheduler: a sync now, then one every `everyMs`. */
export async function scheduleIntegrationSync(queue: Queue, connectionId: string, everyMs: number): Promise<void> {
  await queue.upsertJobScheduler(
    integrationSyncSchedulerId(connectionId),
    { every: everyMs },
    {
      name: 'integration.sync',
      data: { connectionId },
      // A run that fails is not retried: the next one starts from the same saved delta link.
      opts: { attempts: 1, removeOnComplete: { count: 20 }, removeOnFail: { count: 50, age: 7 * 24 * 3600 } },
    },
  );
}

/** Removes the connection's scheduler; answers whether there was one. */
export function unscheduleIntegrationSync(queue: Queue, connectionId: string): Promise<boolean> {
  return queue.removeJobScheduler(integrationSyncSchedulerId(connectionId));
}

export async function hasIntegrationSyncScheduler(queue: Queue, connectionId: string): Promise<boolean> {
  return (await queue.getJobScheduler(integrationSyncSchedulerId(connectionId))) !== undefined;
}

/** The job scheduler of the hourly `retention.sweep` (issue 30): one for the whole deployment, created by every worker. */
export const RETENTION_SWEEP_SCHEDULER_ID = 'retention-sweep';

/** Creates or updates the retention sweep's scheduler (every worker does at start: upserting twice changes nothing). */
export async function scheduleRetentionSweep(queue: Queue, everyMs: number): Promise<void> {
  await queue.upsertJobScheduler(
    RETENTION_SWEEP_SCHEDULER_ID,
    { every: everyMs },
    {
      name: 'retention.sweep',
      data: { requestedAt: 'scheduled' },
      opts: { attempts: 1, removeOnComplete: { count: 24 }, removeOnFail: { count: 50, age: 7 * 24 * 3600 } },
    },
  );
}

/** The job scheduler of the hourly `digest.sweep` (issue 35 item 4): one for the whole deployment, created by every worker. */
export const DIGEST_SWEEP_SCHEDULER_ID = 'digest-sweep';

/** Creates or updates the weekly digest's sweep scheduler (every worker does at start: upserting twice changes nothing). */
export async function scheduleDigestSweep(queue: Queue, everyMs: number): Promise<void> {
  await queue.upsertJobScheduler(
    DIGEST_SWEEP_SCHEDULER_ID,
    { every: everyMs },
    {
      name: 'digest.sweep',
      data: { requestedAt: 'scheduled' },
      opts: { attempts: 1, removeOnComplete: { count: 24 }, removeOnFail: { count: 50, age: 7 * 24 * 3600 } },
    },
  );
}
