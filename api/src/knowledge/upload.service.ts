import { Inject, Injectable, Logger } from '@nestjs/common';
import { MAX_UPLOAD_BYTES, uploadFieldsSchema, type UploadResult } from '@sparks/contracts';
import { documentReadMessage, DomainError, FREE_PLAN, type AppConfig, type Language } from '@sparks/core';
import {
  ConversationsRepository,
  DocumentsRepository,
  toWireMessage,
  type DocumentRow,
  type MessageRow,
} from '@sparks/db';
import { documentStorageKey, fileIdOfKey, sanitizeFileName, type FileStorage } from '@sparks/knowledge';
import { JobProducer, jobIds, publishConversationEvent } from '@sparks/queues';
import type { Request } from 'express';
import type { Redis } from 'ioredis';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import type { AuthUser } from '../auth/public.decorator';
import { CONFIG, REDIS } from '../infra/tokens';
import { receiveUpload, type ReceivedFile } from './multipart';
import { STORAGE } from './tokens';

/** Retries for failures that may pass (storage or database briefly away); bad files fail once. */
export const INGEST_JOB_OPTIONS = { attempts: 3, backoff: { type: 'exponential', delay: 2000 } };

@Injectable()
export class UploadService {
  private readonly logger = new Logger(UploadService.name);

  constructor(
    private readonly documents: DocumentsRepository,
    private readonly conversations: ConversationsRepository,
    private readonly producer: JobProducer,
    @Inject(STORAGE) private readonly storage: FileStorage,
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * POST /bucket: streams the file to a temp file (PDF by its bytes, 10 MB at most), then, for the
   * owner's Spark and within the plan's document limit, stores it under a generated id, tells the
   * conversation and queues its ingestion. Whatever fails, the temp file is removed.
   */
  async upload(req: Request, user: AuthUser): Promise<UploadResult> {
    const received = await receiveUpload(req, { tmpDir: this.storage.tmpDir, maxBytes: MAX_UPLOAD_BYTES });
    try {
      const parsed = uploadFieldsSchema.safeParse(received.fields);
      if (!parsed.success) {
        const field = parsed.error.issues[0]?.path.map(String).join('.') || undefined;
        throw DomainError.badRequest(received.fields[field ?? ''] === undefined ? 'REQUIRED' : 'INVALID_PARAMS', field);
      }
      if (!received.file) throw DomainError.badRequest('FILE_REQUIRED', 'file');
      const { sparkId, conversationId } = parsed.data;
      if (conversationId) {
        const conversation = await this.conversations.findOwned(user.id, conversationId);
        if (!conversation || conversation.sparkId !== sparkId) throw DomainError.notFound();
      }
      const name = sanitizeFileName(parsed.data.name || received.file.filename);
      const storageKey = documentStorageKey(randomUUID());
      const result = await this.documents.createWithinLimit(
        user.id,
        sparkId,
        {
          name,
          storageKey,
          size: received.file.size,
          sha256: received.file.sha256,
          conversationId: conversationId ?? null,
        },
        FREE_PLAN.limitDocuments,
      );
      if (result.kind === 'not-found') throw DomainError.notFound();
      if (result.kind === 'full') {
        throw new DomainError(402, [{ code: 'DOCUMENT_LIMIT' }, { code: 'DOCUMENT_LIMIT_DETAIL' }]);
      }
      return result.kind === 'duplicate'
        ? await this.reupload(result.document, received.file, conversationId ?? null, user.language)
        : await this.accept(result.document, received.file, conversationId ?? null);
    } finally {
      if (received.file) await fs.rm(received.file.path, { force: true });
    }
  }

  private async accept(
    document: DocumentRow,
    file: ReceivedFile,
    conversationId: string | null,
  ): Promise<UploadResult> {
    try {
      await this.storage.putFile(document.storageKey, file.path);
    } catch (err) {
      await this.documents.deleteById(document.id);
      throw err;
    }
    // The upload shows in the chat before the worker can possibly answer it.
    if (conversationId) await this.postUploadMessage(conversationId, document);
    try {
      await this.producer.enqueue('document.ingest', { documentId: document.id }, INGEST_JOB_OPTIONS);
    } catch (err) {
      this.logger.error(`could not queue the ingestion of ${document.id}: ${String(err)}`);
      await this.documents.deleteById(document.id);
      await this.storage.delete(document.storageKey).catch(() => undefined);
      throw new DomainError(503, { code: 'SERVICE_UNAVAILABLE' });
    }
    return this.result(document, false);
  }

  /**
   * The same file again in the same Spark: nothing new is stored or indexed. A file already read is
   * answered at once; one still being read answers where it was uploaded last; one that failed is
   * read again (the failure may have been ours).
   */
  private async reupload(
    existing: DocumentRow,
    file: ReceivedFile,
    conversationId: string | null,
    language: Language,
  ): Promise<UploadResult> {
    if (conversationId) await this.postUploadMessage(conversationId, existing);
    switch (existing.status) {
      case 'completed': {
        if (conversationId) {
          const withText = (await this.documents.pagesWithText(existing.id)).length;
          const pages = existing.pages ?? 0;
          const content = documentReadMessage(language, {
            name: existing.name,
            pages,
            chars: existing.chars ?? 0,
            emptyPages: Math.max(0, pages - withText),
          });
          const message = await this.conversations.addMessage(conversationId, 'ai', {
            content,
            type: 'document',
            documentId: existing.id,
            name: existing.name,
            status: 'completed',
          });
          await this.publish(conversationId, message);
        }
        return this.result(existing, true);
      }
      case 'pending':
      case 'inProgress':
        if (conversationId) await this.documents.setConversation(existing.id, conversationId);
        return this.result(existing, true);
      case 'error': {
        const reset = await this.documents.resetForRetry(existing.id, conversationId ?? existing.conversationId);
        if (!reset) return this.result(existing, true); // someone else retried it first
        if (!(await this.storage.exists(existing.storageKey)))
          await this.storage.putFile(existing.storageKey, file.path);
        // The failed job is kept for a while under the same id; it must go for the new one to be queued.
        const queue = this.producer.queue('ingestion');
        const old = await queue.getJob(jobIds['document.ingest']({ documentId: existing.id }));
        await old?.remove().catch(() => undefined);
        await this.producer.enqueue('document.ingest', { documentId: existing.id }, INGEST_JOB_OPTIONS);
        return this.result(reset, true);
      }
    }
  }

  /** Spec §4: an empty human message of type document shows as "you uploaded {document}". */
  private async postUploadMessage(conversationId: string, document: DocumentRow): Promise<void> {
    const message = await this.conversations.addMessage(conversationId, 'human', {
      content: '',
      type: 'document',
      documentId: document.id,
      name: document.name,
    });
    await this.publish(conversationId, message);
  }

  private async publish(conversationId: string, message: MessageRow): Promise<void> {
    await publishConversationEvent(this.redis, this.config.QUEUE_PREFIX, conversationId, {
      type: 'message',
      message: toWireMessage(message),
    }).catch((err: unknown) => this.logger.warn(`could not publish to ${conversationId}: ${String(err)}`));
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
