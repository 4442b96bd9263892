import { Inject, Injectable, Logger } from '@nestjs/common';
import { MAX_UPLOAD_BYTES, uploadFieldsSchema, type UploadResult } from '@sparks/contracts';
import { documentReadMessage, DomainError, type AppConfig } from '@sparks/core';
import { DocumentsRepository, toWireMessage, type DocumentRow, type MessageRow } from '@sparks/db';
import { DocumentIntake, type NewMessage } from '@sparks/domain';
import {
  documentStorageKey,
  fileIdOfKey,
  INGEST_JOB_OPTIONS,
  sanitizeFileName,
  type FileStorage,
} from '@sparks/knowledge';
import { JobProducer, jobIds, publishMessage } from '@sparks/queues';
import type { Request } from 'express';
import type { Redis } from 'ioredis';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import { CONFIG, REDIS, STORAGE } from '@sparks/nest';
import type { AuthUser } from '../auth/public.decorator';
import { receiveUpload, type ReceivedFile } from './multipart';

/** docs/product.md §4: an empty human message of type document shows as "you uploaded {document}". */
const uploadMessage = (document: DocumentRow): NewMessage => ({
  type: 'human',
  data: { content: '', type: 'document', documentId: document.id, name: document.name },
});

@Injectable()
export class UploadService {
  private readonly logger = new Logger(UploadService.name);

  constructor(
    private readonly documents: DocumentsRepository,
    private readonly intake: DocumentIntake,
    private readonly producer: JobProducer,
    @Inject(STORAGE) private readonly storage: FileStorage,
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * POST /bucket: streams the file to a temp file (a PDF by its bytes, a .docx, .txt or .md by its name and
   * bytes; 10 MB at most), then, for the
   * owner's Spark and within the plan's document limit, stores it under a generated id, tells the
   * conversation and queues its ingestion. All or nothing: the document and its message are written
   * in one transaction, and when storing the file or queueing the job fails they are taken back
   * (503 UPLOAD_FAILED). Whatever happens, the temp file is removed. A crash between the steps
   * leaves a `pending` document that the worker's sweep queues (see the worker's `IngestionSweep`).
   */
  async upload(req: Request, user: AuthUser): Promise<UploadResult> {
    const received = await receiveUpload(req, {
      tmpDir: this.storage.tmpDir,
      maxBytes: MAX_UPLOAD_BYTES,
      idleTimeoutMs: this.config.UPLOAD_IDLE_TIMEOUT_MS,
    });
    try {
      const parsed = uploadFieldsSchema.safeParse(received.fields);
      if (!parsed.success) {
        const field = parsed.error.issues[0]?.path.map(String).join('.') || undefined;
        throw DomainError.invalid(received.fields[field ?? ''] === undefined ? 'REQUIRED' : 'INVALID_PARAMS', field);
      }
      const file = received.file;
      if (!file) throw DomainError.invalid('FILE_REQUIRED', 'file');
      const { sparkId } = parsed.data;
      const conversationId = parsed.data.conversationId ?? null;
      const name = sanitizeFileName(parsed.data.name || file.filename);
      const storageKey = documentStorageKey(randomUUID(), file.kind);
      const result = await this.step('write the document', () =>
        this.intake.createWithinLimit(
          user.id,
          sparkId,
          { name, storageKey, size: file.size, sha256: file.sha256, conversationId },
          'plan',
          conversationId ? { conversationId, messages: (doc) => [uploadMessage(doc)] } : undefined,
        ),
      );
      if (result.kind === 'not-found') throw DomainError.notFound();
      if (result.kind === 'full') {
        throw new DomainError([
          { code: 'DOCUMENT_LIMIT', params: { limit: result.limit } },
          { code: 'DOCUMENT_LIMIT_DETAIL', params: { limit: result.limit } },
        ]);
      }
      return result.kind === 'duplicate'
        ? await this.reupload(user, result.document, file, conversationId)
        : await this.accept(result.document, result.messages, file);
    } finally {
      if (received.file) await fs.rm(received.file.path, { force: true });
    }
  }

  /** A new document, written with its message: its file is stored and its job queued, or it is taken back. */
  private async accept(document: DocumentRow, messages: MessageRow[], file: ReceivedFile): Promise<UploadResult> {
    try {
      await this.step('store the file', () => this.storage.putFile(document.storageKey, file.path));
      await this.step('queue the reading', () =>
        this.producer.enqueue('document.ingest', { documentId: document.id }, INGEST_JOB_OPTIONS),
      );
    } catch (err) {
      await this.intake
        .discardUpload(
          document.id,
          messages.map((m) => m.id),
        )
        .catch((e: unknown) => this.logger.error(`could not take back the upload ${document.id}: ${String(e)}`));
      await this.storage.delete(document.storageKey).catch(() => undefined);
      throw err;
    }
    // Shown once it is sure to stay; the worker needs far longer than this to read anything.
    for (const message of messages) await this.publish(message);
    return this.result(document, false);
  }

  /**
   * The same file again in the same Spark: nothing new is stored or indexed. A file already read is
   * answered at once; one still being read answers where it was uploaded last; one that failed is
   * read again (the failure may have been ours), or left as it was if that cannot be queued.
   */
  private async reupload(
    user: AuthUser,
    existing: DocumentRow,
    file: ReceivedFile,
    conversationId: string | null,
  ): Promise<UploadResult> {
    // What the "read" message says, should the document be completed.
    const withText = existing.status === 'completed' ? (await this.documents.pagesWithText(existing.id)).length : 0;
    const messagesFor = (doc: DocumentRow): NewMessage[] => {
      if (doc.status !== 'completed') return [uploadMessage(doc)];
      const pages = doc.pages ?? 0;
      const content = documentReadMessage(user.language, {
        name: doc.name,
        pages,
        chars: doc.chars ?? 0,
        emptyPages: Math.max(0, pages - withText),
      });
      return [
        uploadMessage(doc),
        { type: 'ai', data: { content, type: 'document', documentId: doc.id, name: doc.name, status: 'completed' } },
      ];
    };
    const done = await this.step('write the document', () =>
      this.intake.announceDuplicate(user.id, existing.id, {
        retry: true,
        announce: conversationId ? { conversationId, messages: messagesFor } : undefined,
      }),
    );
    // The conversation is not the owner's in this Spark, or the document was deleted meanwhile.
    if (done.kind === 'not-found') throw DomainError.notFound();
    if (done.retried) {
      const previous = done.retried;
      let stored = false;
      try {
        if (!(await this.step('find the file', () => this.storage.exists(existing.storageKey)))) {
          await this.step('store the file', () => this.storage.putFile(existing.storageKey, file.path));
          stored = true;
        }
        // The failed job is kept for a while under the same id; it must go for the new one to be queued.
        await this.step('queue the reading', async () => {
          const queue = this.producer.queue('ingestion');
          await (await queue.getJob(jobIds['document.ingest']({ documentId: existing.id })))?.remove();
          await this.producer.enqueue('document.ingest', { documentId: existing.id }, INGEST_JOB_OPTIONS);
        });
      } catch (err) {
        await this.intake
          .undoRetry(
            existing.id,
            previous,
            done.messages.map((m) => m.id),
          )
          .catch((e: unknown) => this.logger.error(`could not put back document ${existing.id}: ${String(e)}`));
        if (stored) await this.storage.delete(existing.storageKey).catch(() => undefined);
        throw err;
      }
    }
    for (const message of done.messages) await this.publish(message);
    return this.result(done.document, true);
  }

  /**
   * One step of an upload. A failure that is not a rule of the product (the database, the store or
   * the queue failing) is logged and answered 503 UPLOAD_FAILED: nothing was kept, try again.
   */
  private async step<T>(what: string, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      if (err instanceof DomainError) throw err;
      this.logger.error(`upload: could not ${what}: ${String(err)}`);
      throw new DomainError({ code: 'UPLOAD_FAILED' });
    }
  }

  private async publish(message: MessageRow): Promise<void> {
    await publishMessage(this.redis, this.config.QUEUE_PREFIX, message.conversationId, toWireMessage(message), (t) =>
      this.logger.warn(t),
    );
  }

  private result(document: DocumentRow, duplicate: boolean): UploadResult {
    return {
      _id: document.id,
      bucketFileId: fileIdOfKey(document.storageKey),
      name: document.name,
      status: document.status,
      duplicate,
    };
  }
}
