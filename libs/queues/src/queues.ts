/**
 * The one place where queues and their jobs are declared. The worker refuses to boot when a job
 * declared here has no handler, and the api can only enqueue what is declared here.
 *
 * Jobs are added to a queue by the issue that implements their handler; a queue with no jobs yet
 * is declared so that operators see the whole topology from the first release.
 */
export interface JobPayloads {
  'email.send': { emailId: string };
  'reply.generate': { conversationId: string; messageId: string };
  'document.ingest': { documentId: string };
  /** Records the usage event of one answered message (issue 15). */
  'usage.record': { messageId: string };
  /** Reports one overage interaction to Stripe as a billing meter event (only with Stripe configured). */
  'usage.meter': { usageEventId: string };
  /**
   * Follows Graph's delta query for the drives of one document-sharing connection (issue 20): re-reads
   * changed files, removes deleted ones. Run by a job scheduler per connection (`scheduleIntegrationSync`).
   */
  'integration.sync': { connectionId: string };
  /**
   * Imports one file of a document-sharing connection (issue 20): downloads it from Graph, stores it and hands it to
   * `document.ingest`; dedupes on the drive item and its eTag, and a changed eTag replaces the document's knowledge.
   * Enqueued by the builder chat's file picker and by the sync job. Ids only.
   */
  'integration.import': { connectionId: string; driveId: string; itemId: string };
  /**
   * Builds an account's export as a zip in the file store and e-mails its link (issue 30): `GET /account/export`
   * for an account too large to zip while the browser waits.
   */
  'account.export': { exportId: string };
  /**
   * Removes what a deleted account left outside PostgreSQL (issue 30): its stored files, its queued jobs and its
   * Redis keys, listed by the `account_purges` row its deletion wrote.
   */
  'account.purge': { purgeId: string };
  /**
   * Deletes what has outlived its time (issue 30): website visitors' conversations older than their Spark's
   * retention, expired exports; queues purges again that did not finish. Run hourly by the `retention-sweep`
   * job scheduler; `requestedAt` names a run asked for by hand.
   */
  'retention.sweep': { requestedAt: string };
  /**
   * Asks a Spark's answer checks again after its knowledge changed (issue 35 item 3) and tells its chat which answers
   * changed. `requestedAt` (ms) makes each request a job of its own; requests close together are one run
   * (`requestChecks`, debounced).
   */
  'checks.run': { sparkId: string; requestedAt: number };
  /**
   * Sends the weekly digest e-mail (issue 35 item 4) to every owner whose Monday 08:00 has come in their time zone and
   * whose week was not handled yet. Run hourly by the `digest-sweep` job scheduler (`requestedAt`: `scheduled`, the
   * clock's now); a sweep asked for by hand names its instant in ISO 8601 and runs as of it.
   */
  'digest.sweep': { requestedAt: string };
}

export type JobName = keyof JobPayloads;

export const QUEUES = {
  ingestion: { jobs: ['document.ingest'] as JobName[] },
  'assistant-reply': { jobs: ['reply.generate'] as JobName[] },
  usage: { jobs: ['usage.record', 'usage.meter'] as JobName[] },
  email: { jobs: ['email.send'] as JobName[] },
  digest: { jobs: ['digest.sweep'] as JobName[] },
  integrations: { jobs: ['integration.sync', 'integration.import'] as JobName[] },
  privacy: { jobs: ['account.export', 'account.purge', 'retention.sweep'] as JobName[] },
  checks: { jobs: ['checks.run'] as JobName[] },
} as const;

export type QueueName = keyof typeof QUEUES;
export const QUEUE_NAMES = Object.keys(QUEUES) as QueueName[];

export function queueOf(job: JobName): QueueName {
  for (const name of QUEUE_NAMES) {
    if (QUEUES[name].jobs.includes(job)) return name;
  }
  throw new Error(`Job ${job} is not declared in any queue`);
}

/** Job ids derived from the entity, so that a retry or a double click never duplicates work. */
export const jobIds: { [J in JobName]: (payload: JobPayloads[J]) => string } = {
  'email.send': (p) => `email-${p.emailId}`,
  'reply.generate': (p) => `reply-${p.messageId}`,
  'document.ingest': (p) => `ingest-${p.documentId}`,
  'usage.record': (p) => `usage-${p.messageId}`,
  'usage.meter': (p) => `meter-${p.usageEventId}`,
  'integration.sync': (p) => `sync-${p.connectionId}`,
  // Graph's ids may hold characters BullMQ does not take in a job id (`:`): encoded.
  'integration.import': (p) =>
    `import-${p.connectionId}-${encodeURIComponent(p.driveId)}-${encodeURIComponent(p.itemId)}`,
  'account.export': (p) => `export-${p.exportId}`,
  'account.purge': (p) => `purge-${p.purgeId}`,
  'retention.sweep': (p) => `retention-${p.requestedAt.replace(/[^0-9A-Za-z-]/g, '-')}`,
  'checks.run': (p) => `checks-${p.sparkId}-${p.requestedAt}`,
  'digest.sweep': (p) => `digest-${p.requestedAt.replace(/[^0-9A-Za-z-]/g, '-')}`,
};
