import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import {
  documentFailedMessage,
  documentReadMessage,
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
import {
  ExtractionInterrupted,
  readPdfDocument,
  StoredFileMissing,
  type FileStorage,
  type PdfTextReader,
} from '@sparks/knowledge';
import { FLOWS, stepsCompletedBy } from '@sparks/engine';
import { publishConversationEvent, type JobPayloads } from '@sparks/queues';
import { UnrecoverableError, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { CONFIG, REDIS } from '../infra/tokens';
import { PDF_EXTRACTOR, STORAGE } from './tokens';

const isLastAttempt = (job: Job) => job.attemptsMade + 1 >= (job.opts.attempts ?? 1);

/**
 * `document.ingest`: reads a stored PDF page by page (in a bounded process or thread), cuts it into passages of
 * whole sentences tagged with their page, indexes them for full-text search in the document's
 * language and tells the owner in the chat. pending → inProgress → completed | error.
 *
 * Idempotent: the chunks are replaced, not added, in the same transaction that completes the
 * document and posts the message, so a job redelivered after a crash leaves no duplicates.
 */
@Injectable()
export class IngestDocumentJob implements OnApplicationShutdown {
  private readonly logger = new Logger(IngestDocumentJob.name);

  constructor(
    private readonly documents: DocumentsRepository,
    private readonly accounts: AccountsRepository,
    private readonly sparks: SparksRepository,
    private readonly objectives: ObjectivesRepository,
    @Inject(STORAGE) private readonly storage: FileStorage,
    @Inject(PDF_EXTRACTOR) private readonly extractor: PdfTextReader,
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(CONFIG) private readonly config: AppConfig,
  ) {}

  async handle(payload: JobPayloads['document.ingest'], job: Job): Promise<{ status: string }> {
    const found = await this.documents.findById(payload.documentId);
    // Deleted meanwhile, or a redelivery of a job already done: nothing to do.
    if (!found) return { status: 'deleted' };
    if (found.status === 'completed') {
      await this.completeKnowledgeStep(found); // in case the first run died right after completing
      return { status: found.status };
    }
    if (found.status === 'error') return { status: found.status };
    const doc = (await this.documents.markInProgress(found.id)) ?? found;
    const owner = await this.accounts.findUserById(doc.userId);
    const language: Language = owner?.language ?? 'es';

    try {
      let bytes: Buffer;
      try {
        bytes = await this.storage.get(doc.storageKey);
      } catch (err) {
        if (err instanceof StoredFileMissing) return await this.failPermanently(doc, language, 'FILE_MISSING');
        throw err;
      }
      const spark = await this.sparks.findById(doc.sparkId);
      // The chunks of the pages read so far are written while poppler reads the rest.
      const writer = this.documents.openChunkWriter(doc.id);
      let done: CompletedDocument | undefined;
      try {
        const { outcome, read, streamed } = await readPdfDocument(
          this.extractor,
          bytes,
          spark?.options.language ?? language,
          writer.write,
        );
        if (outcome.fallback) {
          this.logger.log(`document ${doc.id} read with pdf.js: poppler ${outcome.fallback.slice(0, 200)}`);
        }
        if (!outcome.ok || !read) {
          await writer.abort(); // what was written for a reading that did not count goes first
          if (!outcome.ok) return await this.failPermanently(doc, language, outcome.code, outcome.params);
          return await this.failPermanently(doc, language, 'NO_TEXT', { pages: outcome.pageCount });
        }

        const content = documentReadMessage(language, {
          name: doc.name,
          pages: read.pages,
          chars: read.chars,
          emptyPages: read.emptyPages.length,
        });
        const figures = { pages: read.pages, chars: read.chars, language: read.language, config: read.config };
        const message = {
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
        // Not streamed (read by pdf.js, or again by pdf.js after poppler): the whole document replaces
        // whatever was written.
        done = await writer.complete(figures, message, streamed ? undefined : read.chunks);
      } finally {
        // Never left open: its transaction would hold a connection and block the document's deletion.
        await writer.abort();
      }
      if (done?.message) await this.publish(done.message);
      if (done) await this.completeKnowledgeStep(done.document);
      return { status: done ? 'completed' : 'deleted' };
    } catch (err) {
      if (err instanceof UnrecoverableError) throw err;
      // Worth another try (storage or database away, a thread lost); after the last one, tell the owner.
      if (isLastAttempt(job)) await this.fail(doc, language, 'INGESTION_FAILED');
      throw err instanceof ExtractionInterrupted ? new Error(`extraction interrupted: ${err.message}`) : err;
    }
  }

  /** A Spark with a document it has read has done the builder's knowledge step (spec §4 objectives). */
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
    const done = await this.documents.fail(
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
