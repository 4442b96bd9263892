import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { DocumentsRepository, type DocumentRow } from '@sparks/db';
import { INGEST_JOB_OPTIONS } from '@sparks/knowledge';
import { jobIds, type JobProducer } from '@sparks/queues';
import { IngestDocumentJob } from './ingest-document.job';
import { INGEST_PRODUCER } from './tokens';

/** How often each worker looks for documents that no job will finish. */
const SWEEP_INTERVAL_MS = 60_000;
/**
 * A document untouched for less than this is left alone: an upload may still be queueing it (the
 * api writes the document, then stores the file and queues the job), or a job still reading it.
 */
const SWEEP_AFTER_MS = 10 * 60_000;
/** Documents looked at in one sweep (the next sweep takes the rest). */
const SWEEP_BATCH = 100;

/** Job states in which a job will still run (or is running). */
const ALIVE = new Set(['waiting', 'active', 'delayed', 'prioritized', 'waiting-children']);

/**
 * Makes sure every document ends: at start and then every minute, a document left `pending` with
 * no job (the api died between writing it and queueing its job) is queued, and one left
 * `inProgress` by a job that is over (its worker died for good, or could not mark it) ends as
 * `error`. Every worker sweeps; the job id and the status checks make it safe for them to race.
 */
@Injectable()
export class IngestionSweep implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(IngestionSweep.name);
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;

  constructor(
    private readonly documents: DocumentsRepository,
    private readonly ingest: IngestDocumentJob,
    @Inject(INGEST_PRODUCER) private readonly producer: JobProducer,
  ) {}

  onApplicationBootstrap(): void {
    this.start();
    this.timer = setInterval(() => this.start(), SWEEP_INTERVAL_MS);
    this.timer.unref();
  }

  private start(): void {
    this.running ??= this.sweep()
      .then((n) => {
        if (n > 0) this.logger.log(`sweep: ${n} unfinished document(s) queued again or ended`);
      })
      .catch((err: unknown) => this.logger.warn(`sweep failed: ${String(err)}`))
      .finally(() => (this.running = undefined));
  }

  /** One pass; answers how many documents it acted on. */
  async sweep(): Promise<number> {
    const before = new Date(Date.now() - SWEEP_AFTER_MS);
    let acted = 0;
    for (const doc of await this.documents.listUnfinished(before, SWEEP_BATCH)) {
      try {
        if (await this.settle(doc)) acted += 1;
      } catch (err) {
        this.logger.warn(`sweep: document ${doc.id}: ${String(err)}`);
      }
    }
    return acted;
  }

  private async settle(doc: DocumentRow): Promise<boolean> {
    const queue = this.producer.queue('ingestion');
    const job = await queue.getJob(jobIds['document.ingest']({ documentId: doc.id }));
    if (job && ALIVE.has(await job.getState())) return false;
    if (doc.status === 'pending') {
      // A finished job under the same id would make the new one a no-op.
      await job?.remove();
      await this.producer.enqueue('document.ingest', { documentId: doc.id }, INGEST_JOB_OPTIONS);
      this.logger.warn(`document ${doc.id} was pending with no job: queued`);
    } else {
      await this.ingest.endUnfinished(doc);
      this.logger.warn(`document ${doc.id} was left inProgress by a job that is over: marked as failed`);
    }
    return true;
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
    await this.producer.close().catch(() => undefined);
  }
}
