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
}

export type JobName = keyof JobPayloads;

export const QUEUES = {
  ingestion: { jobs: ['document.ingest'] as JobName[] },
  'assistant-reply': { jobs: ['reply.generate'] as JobName[] },
  usage: { jobs: ['usage.record', 'usage.meter'] as JobName[] },
  email: { jobs: ['email.send'] as JobName[] },
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
};
