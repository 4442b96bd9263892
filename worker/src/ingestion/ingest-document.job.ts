import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { CONFIG, REDIS, STORAGE } from '@sparks/nest';
import { ingestionPages } from '../metrics';
import {
  documentFailedMessage,
  documentReadMessage,
  documentTopics,
  type AppConfig,
  type IngestionErrorCode,
  type Language,
} from '@sparks/core';
import {
  AccountsRepository,
  DocumentsRepository,
  ObjectivesRepository,
  SparksRepository,
  toWireMessage,
  type CompletedDocument,
  type DocumentRow,
  type MessageRow,
} from '@sparks/db';
import { DocumentIntake } from '@sparks/domain';
import {
  documentKindOfKey,
  ExtractionInterrupted,
  isOleCompound,
  isZip,
  readDocument,
  readDocx,
  readPdfDocument,
  readText,
  StoredFileMissing,
  type DocxOutcome,
  type FileStorage,
  type PdfTextReader,
} from '@sparks/knowledge';
import { FLOWS, stepsCompletedBy } from '@sparks/engine';
import { publishConversationEvent, type JobPayloads, type JobProducer } from '@sparks/queues';
import { UnrecoverableError, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { INGEST_PRODUCER, PDF_EXTRACTOR } from './tokens';

const isLastAttempt = (job: Job) => job.attemptsMade + 1 >= (job.opts.attempts ?? 1);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** At the job's time limit: how long each step of stopping it (the reading, the chunk writer, marking the document) may take. */
const STOP_GRACE_MS = 2000;

/** Whether `promise` settles within `ms` (its outcome is not needed). */
function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  const settled = promise.then(
    () => true,
    () => true,
  );
  return Promise.race([settled, late]).finally(() => clearTimeout(timer));
}

/**
 * `document.ingest`: reads a stored PDF page by page (in a bounded process or thread), cuts it into passages of
 * whole sentences tagged with their page, indexes them for full-text search in the document's
 * language and tells the owner in the chat. pending → inProgress → completed | error.
 *
 * Idempotent: the chunks are replaced, not added, in the same transaction that completes the
 * document and posts the message, so a job redelivered after a crash leaves no duplicates.
 *
 * Every document it takes ends `completed` or `error`: a job that goes on past INGEST_JOB_TIMEOUT_MS
 * (a read, a write or a store that stopped answering, while BullMQ keeps renewing the job's lock)
 * is stopped, its document marked `STALLED`, and the worker's slot freed.
 */
@Injectable()
export class IngestDocumentJob implements OnApplicationShutdown {
  private readonly logger = new Logger(IngestDocumentJob.name);

  constructor(
    private readonly documents: DocumentsRepository,
    private readonly intake: DocumentIntake,
    private readonly accounts: AccountsRepository,
    private readonly sparks: SparksRepository,
    private readonly objectives: ObjectivesRepository,
    @Inject(STORAGE) private readonly storage: FileStorage,
    @Inject(PDF_EXTRACTOR) private readonly extractor: PdfTextReader,
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(CONFIG) private readonly config: AppConfig,
    @Inject(INGEST_PRODUCER) private readonly producer: JobProducer,
  ) {}

  async handle(payload: JobPayloads['document.ingest'], job: Job): Promise<{ status: string }> {
    // A job for no document (deleted since, or a payload that names none): nothing to do, nothing to retry.
    if (!UUID.test(payload.documentId)) {
      this.logger.warn(`job ${job.id} names no document (${JSON.stringify(payload.documentId)}); dropped`);
      return { status: 'missing' };
    }
    const found = await this.documents.findById(payload.documentId);
    if (!found) return { status: 'missing' };
    if (found.status === 'completed') {
      await this.completeKnowledgeStep(found); // in case the first run died right after completing
      return { status: found.status };
    }
    if (found.status === 'error') return { status: found.status };
    const doc = await this.documents.markInProgress(found.id);
    if (!doc) return { status: 'missing' }; // deleted or finished meanwhile
    const owner = await this.accounts.findUserById(doc.userId);
    const language: Language = owner?.language ?? 'es';

    const stop = new AbortController();
    const work = this.ingest(doc, language, job, stop.signal);
    const limit = this.config.INGEST_JOB_TIMEOUT_MS;
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), limit)));
    try {
      const first = await Promise.race([work, timedOut]);
      if (first !== 'timeout') return first;
    } finally {
      clearTimeout(timer);
    }
    this.logger.error(`document ${doc.id}: its job did not end within ${limit} ms (INGEST_JOB_TIMEOUT_MS); stopped`);
    stop.abort();
    // The reading, the download and the chunk writer are stopped (its statement cancelled on the
    // server, which frees the document row); what does not stop in time is left behind.
    if (!(await settlesWithin(work, 4 * STOP_GRACE_MS))) {
      this.logger.error(`document ${doc.id}: its stopped job is still waiting; its connection is left to it`);
    }
    if (!(await settlesWithin(this.fail(doc, language, 'STALLED'), 2 * STOP_GRACE_MS))) {
      this.logger.error(`document ${doc.id}: could not be marked as failed yet; the sweep will end it`);
    }
    throw new UnrecoverableError('STALLED');
  }

  /** The reading of a document taken by `handle`; `signal` stops it (then it throws, and marks nothing). */
  private async ingest(
    doc: DocumentRow,
    language: Language,
    job: Job,
    signal: AbortSignal,
  ): Promise<{ status: string }> {
    try {
      let bytes: Buffer;
      try {
        bytes = await this.storage.get(doc.storageKey, { signal });
      } catch (err) {
        if (err instanceof StoredFileMissing) return await this.failPermanently(doc, language, 'FILE_MISSING');
        throw err;
      }
      const spark = await this.sparks.findById(doc.sparkId);
      const fallback = spark?.options.language ?? language;
      // A Word document (uploaded, or imported from SharePoint or OneDrive): read whole with mammoth, not streamed.
      if (isZip(bytes) || isOleCompound(bytes)) {
        const outcome = await readDocx(bytes, {
          maxPages: this.config.INGEST_MAX_PAGES,
          maxChars: this.config.INGEST_MAX_CHARS,
          maxInflatedBytes: this.config.INGEST_MAX_MEMORY_MB * 1024 * 1024,
        });
        return await this.ingestWhole(doc, outcome, 'DOCX_MALFORMED', language, fallback);
      }
      // Text uploaded as .txt or .md (the upload checked it is UTF-8; its key keeps the kind).
      const stored = documentKindOfKey(doc.storageKey);
      if (stored === 'txt' || stored === 'md') {
        const outcome = readText(bytes, {
          maxPages: this.config.INGEST_MAX_PAGES,
          maxChars: this.config.INGEST_MAX_CHARS,
        });
        return await this.ingestWhole(doc, outcome, 'TEXT_MALFORMED', language, fallback);
      }
      // The chunks of the pages read so far are written while poppler reads the rest.
      const writer = this.intake.openChunkWriter(doc.id);
      // A writer stuck in a statement holds the document row: stopping it must end its statement too.
      let cancelled: Promise<boolean> | undefined;
      const cancel = () => (cancelled ??= writer.cancel(STOP_GRACE_MS));
      const onStop = () => void cancel();
      signal.addEventListener('abort', onStop, { once: true });
      let done: CompletedDocument | undefined;
      try {
        const { outcome, read, streamed } = await readPdfDocument(
          this.extractor,
          bytes,
          spark?.options.language ?? language,
          // Pages poppler had already sent when the job was stopped are dropped with the writer.
          (chunks, config) => {
            if (!signal.aborted) writer.write(chunks, config);
          },
          signal,
        );
        if (outcome.fallback) {
          this.logger.log(`document ${doc.id} read with pdf.js: poppler ${outcome.fallback.slice(0, 200)}`);
        }
        if (!outcome.ok || !read) {
          await writer.abort(); // what was written for a reading that did not count goes first
          if (!outcome.ok) return await this.failPermanently(doc, language, outcome.code, outcome.params);
          return await this.failPermanently(doc, language, 'NO_TEXT', { pages: outcome.pageCount });
        }

        const figures = { pages: read.pages, chars: read.chars, language: read.language, config: read.config };
        const message = readMessage(doc, language, read);
        // Not streamed (read by pdf.js, or again by pdf.js after poppler): the whole document replaces
        // whatever was written.
        done = await writer.complete(figures, message, streamed ? undefined : read.chunks);
        if (done) ingestionPages.inc(read.pages);
      } finally {
        signal.removeEventListener('abort', onStop);
        // Never left open: its transaction would hold a connection and block the document's deletion.
        if (signal.aborted) await cancel();
        else await writer.abort();
      }
      if (done?.message) await this.publish(done.message);
      if (done) await this.completeKnowledgeStep(done.document);
      if (done) await this.knowledgeChanged(done.document);
      return { status: done ? 'completed' : 'missing' };
    } catch (err) {
      // Stopped at the job's time limit: `handle` marks the document.
      if (err instanceof UnrecoverableError || signal.aborted) throw err;
      // Worth another try (storage or database away, a thread lost); after the last one, tell the owner.
      if (isLastAttempt(job)) await this.fail(doc, language, 'INGESTION_FAILED');
      throw err instanceof ExtractionInterrupted ? new Error(`extraction interrupted: ${err.message}`) : err;
    }
  }

  /**
   * `ingest` for a .docx or a text file, read whole: its text in parts that stand for pages, written at once
   * (docs/decisions.md). A file its reader found malformed fails as `malformed`, which names its kind.
   */
  private async ingestWhole(
    doc: DocumentRow,
    outcome: DocxOutcome,
    malformed: 'DOCX_MALFORMED' | 'TEXT_MALFORMED',
    language: Language,
    fallback: Language,
  ): Promise<{ status: string }> {
    if (!outcome.ok) {
      const code = outcome.code === 'MALFORMED' ? malformed : outcome.code;
      return this.failPermanently(doc, language, code, 'params' in outcome ? outcome.params : undefined);
    }
    const read = readDocument(outcome.pages, fallback);
    if (!read) return this.failPermanently(doc, language, 'NO_TEXT', { pages: outcome.pages.length });
    const done = await this.intake.complete(
      doc.id,
      { pages: read.pages, chars: read.chars, language: read.language, config: read.config, chunks: read.chunks },
      readMessage(doc, language, read),
    );
    if (!done) return { status: 'missing' };
    ingestionPages.inc(read.pages);
    if (done.message) await this.publish(done.message);
    await this.completeKnowledgeStep(done.document);
    await this.knowledgeChanged(done.document);
    return { status: 'completed' };
  }

  /** A document read (added, replaced or synced) changes the Spark's knowledge: its answer checks run again. */
  private async knowledgeChanged(doc: DocumentRow): Promise<void> {
    await this.producer.requestChecks(doc.sparkId);
  }

  /** A Spark with a document it has read has done the builder's knowledge step (docs/product.md §4 objectives). */
  private async completeKnowledgeStep(doc: DocumentRow): Promise<void> {
    for (const flow of FLOWS.filter((f) => f.objectivesKey === 'spark')) {
      for (const stepId of stepsCompletedBy(flow, 'document.completed')) {
        await this.objectives.setStatus(doc.userId, doc.sparkId, flow.name, stepId, 'completed', doc.sparkId);
      }
    }
  }

  /**
   * A job that failed for good outside the handler (its workers died more often than BullMQ allows)
   * must not leave the document "inProgress" forever.
   */
  async onFailed(job: Job | undefined, err: Error): Promise<void> {
    if (!job || err instanceof UnrecoverableError) return;
    if (job.attemptsMade < (job.opts.attempts ?? 1) && !/stalled/i.test(err.message)) return;
    try {
      const doc = await this.documents.findById((job.data as JobPayloads['document.ingest']).documentId);
      if (!doc || doc.status === 'completed' || doc.status === 'error') return;
      const owner = await this.accounts.findUserById(doc.userId);
      await this.fail(doc, owner?.language ?? 'es', 'INGESTION_FAILED');
    } catch (e) {
      this.logger.error(`could not mark the failed ingestion ${job.id}: ${String(e)}`);
    }
  }

  /** Ends a document that no job will finish (see `IngestionSweep`), telling its owner. */
  async endUnfinished(doc: DocumentRow): Promise<void> {
    const owner = await this.accounts.findUserById(doc.userId);
    await this.fail(doc, owner?.language ?? 'es', 'INGESTION_FAILED');
  }

  private async failPermanently(
    doc: DocumentRow,
    language: Language,
    code: IngestionErrorCode,
    params?: Record<string, string | number>,
  ): Promise<never> {
    await this.fail(doc, language, code, params);
    throw new UnrecoverableError(code);
  }

  private async fail(
    doc: DocumentRow,
    language: Language,
    code: IngestionErrorCode,
    params: Record<string, string | number> = {},
  ): Promise<void> {
    const pages = typeof params.pages === 'number' ? params.pages : null;
    const content = documentFailedMessage(language, { name: doc.name, code, params });
    const done = await this.intake.fail(
      doc.id,
      code,
      { pages },
      {
        type: 'ai',
        data: { content, type: 'document', documentId: doc.id, name: doc.name, status: 'error', error: code },
      },
    );
    this.logger.log(`document ${doc.id} could not be read: ${code}`);
    if (done?.message) await this.publish(done.message);
    // Nothing is kept of a file that cannot be read; uploading it again stores it again.
    await this.storage
      .delete(doc.storageKey)
      .catch((err: unknown) => this.logger.warn(`could not delete the file of document ${doc.id}: ${String(err)}`));
  }

  private async publish(message: MessageRow): Promise<void> {
    await publishConversationEvent(this.redis, this.config.QUEUE_PREFIX, message.conversationId, {
      type: 'message',
      message: toWireMessage(message),
    }).catch((err: unknown) => this.logger.warn(`could not publish to ${message.conversationId}: ${String(err)}`));
  }

  async onApplicationShutdown(): Promise<void> {
    await this.extractor.close();
  }
}

/** The builder chat's "I've read …" message for a document read whole (a PDF or a .docx). */
function readMessage(doc: DocumentRow, language: Language, read: NonNullable<ReturnType<typeof readDocument>>) {
  const content = documentReadMessage(language, {
    name: doc.name,
    pages: read.pages,
    chars: read.chars,
    emptyPages: read.emptyPages.length,
    topics: documentTopics(read.chunks.slice(0, 5).map((chunk) => chunk.content)),
  });
  return {
    type: 'ai' as const,
    data: {
      content,
      type: 'document',
      documentId: doc.id,
      name: doc.name,
      status: 'completed',
      pages: read.pages,
      chars: read.chars,
      emptyPages: read.emptyPages,
    },
  };
}
