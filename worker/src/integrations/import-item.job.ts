import { Inject, Injectable, Logger } from '@nestjs/common';
import { MAX_UPLOAD_BYTES, MAX_UPLOAD_MB } from '@sparks/contracts';
import {
  importSkippedMessage,
  type AppConfig,
  type DocumentSharingService,
  type ImportSkipCode,
  type Language,
} from '@sparks/core';
import {
  AccountsRepository,
  ConversationsRepository,
  DocumentsRepository,
  IntegrationsRepository,
  serviceOfPath,
  toWireMessage,
  type DocumentRow,
  type IntegrationConnectionRow,
  type ItemKey,
  type MessageRow,
} from '@sparks/db';
import { DocumentIntake } from '@sparks/domain';
import {
  displayPath,
  documentStorageKey,
  GraphError,
  importKindOf,
  INGEST_JOB_OPTIONS,
  MicrosoftGraph,
  OAuthError,
  parentFolders,
  sanitizeFileName,
  TextUploadCheck,
  UPLOAD_HEAD_LENGTH,
  uploadKind,
  type DriveItem,
  type FileStorage,
  type GraphClient,
} from '@sparks/knowledge';
import { jobIds, JobProducer, publishMessage, type JobPayloads } from '@sparks/queues';
import { UnrecoverableError } from 'bullmq';
import type { Redis } from 'ioredis';
import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { CONFIG, REDIS, STORAGE } from '@sparks/nest';
import { INGEST_PRODUCER } from '../ingestion/tokens';
import { MICROSOFT } from './tokens';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Graph's drive and item ids: letters, digits and a few marks (`b!…`, `01ABC…`), never a path. */
const GRAPH_ID = /^[\w!.\-=]{1,400}$/;

export type ImportStatus = 'queued' | 'unchanged' | 'skipped' | 'missing';

/**
 * `integration.import { connectionId, driveId, itemId }` (issue 20): one file of a Spark's SharePoint or OneDrive
 * connection becomes a document of the Spark, read by `document.ingest` like an upload, within the same limits
 * (10 MB, the reader's pages and characters, the plan's document count).
 *
 * - Dedupe: the item and its eTag are recorded (`integration_items`); the same unchanged file is not imported twice.
 * - A changed file (another eTag) replaces the file of the document it made, which is read again: its chunks are
 *   replaced when the new reading completes, never added to.
 * - What is not imported (not a PDF, .docx or text file, too large, the plan full, gone…) is recorded with its reason and told in
 *   the Spark's builder chat.
 * - The token is refreshed when needed (under the connection's lock); the download follows Graph's redirect only to
 *   the Graph host or the allowed download hosts (`GraphClient.download`).
 */
@Injectable()
export class ImportItemJob {
  private readonly logger = new Logger(ImportItemJob.name);

  constructor(
    private readonly integrations: IntegrationsRepository,
    private readonly documents: DocumentsRepository,
    private readonly intake: DocumentIntake,
    private readonly conversations: ConversationsRepository,
    private readonly accounts: AccountsRepository,
    @Inject(MICROSOFT) private readonly microsoft: MicrosoftGraph,
    @Inject(STORAGE) private readonly storage: FileStorage,
    @Inject(INGEST_PRODUCER) private readonly producer: JobProducer,
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(CONFIG) private readonly config: AppConfig,
  ) {}

  async handle(payload: JobPayloads['integration.import']): Promise<{ status: ImportStatus; reason?: string }> {
    const { connectionId, driveId, itemId } = payload;
    if (!UUID.test(String(connectionId)) || !GRAPH_ID.test(String(driveId)) || !GRAPH_ID.test(String(itemId))) {
      this.logger.warn(`integration.import with unusable ids ${JSON.stringify(payload).slice(0, 300)}: dropped`);
      return { status: 'missing' };
    }
    const connection = await this.integrations.findById(connectionId);
    if (!connection) return { status: 'missing' }; // disconnected meanwhile
    if (!this.microsoft.enabled) throw new UnrecoverableError('Microsoft is not configured on this worker');
    const key: ItemKey = { connectionId, driveId, itemId };
    const owner = await this.accounts.findUserById(connection.userId);
    const language: Language = owner?.language ?? 'es';
    const followed = await this.integrations.findItem(key);
    const graph = this.microsoft.graphFor(connection);

    let item: DriveItem;
    try {
      item = await graph.get<DriveItem>(`/drives/${encodeURIComponent(driveId)}/items/${encodeURIComponent(itemId)}`);
    } catch (err) {
      const code = this.skipCodeOf(err);
      if (!code) throw err;
      const name = followed?.path.split('/').pop() ?? itemId;
      return this.skip(connection, key, followed?.path ?? name, name, language, code, followed?.documentId ?? null);
    }
    const filePath = followed?.path ?? (await this.pathOf(graph, driveId, item));
    const name = sanitizeFileName(item.name);
    if (item.deleted || item.folder || !item.file) {
      return this.skip(connection, key, filePath, name, language, 'NOT_FOUND', followed?.documentId ?? null);
    }
    const kind = importKindOf(item.name);
    if (!kind) return this.skip(connection, key, filePath, name, language, 'UNSUPPORTED', null);

    const existing = followed?.documentId ? await this.documents.findById(followed.documentId) : undefined;
    const eTag = item.eTag ?? null;
    if (existing && existing.status !== 'error' && eTag !== null && followed?.eTag === eTag) {
      return { status: 'unchanged' };
    }
    if ((item.size ?? 0) > MAX_UPLOAD_BYTES) {
      return this.skip(connection, key, filePath, name, language, 'FILE_TOO_LARGE', existing?.id ?? null);
    }

    let bytes: Buffer;
    try {
      bytes = await graph.download(driveId, itemId, MAX_UPLOAD_BYTES);
    } catch (err) {
      if (err instanceof GraphError && err.kind === 'tooLarge') {
        return this.skip(connection, key, filePath, name, language, 'FILE_TOO_LARGE', existing?.id ?? null);
      }
      if (err instanceof GraphError && err.kind === 'refused') {
        this.logger.warn(`integration.import ${connectionId}/${driveId}/${itemId}: ${err.message}`);
        return this.skip(connection, key, filePath, name, language, 'REFUSED', existing?.id ?? null);
      }
      const code = this.skipCodeOf(err);
      if (!code) throw err;
      return this.skip(connection, key, filePath, name, language, code, existing?.id ?? null);
    }
    // The bytes decide, as for an upload: a PDF starts with %PDF-, a .docx is a ZIP (or, password-protected, an OLE
    // file), text is UTF-8 without NUL.
    const text = new TextUploadCheck();
    const fits =
      uploadKind(bytes.subarray(0, UPLOAD_HEAD_LENGTH), item.name) === kind &&
      (kind === 'pdf' || kind === 'docx' || (text.push(bytes) && text.end()));
    if (!fits) return this.skip(connection, key, filePath, name, language, 'UNSUPPORTED', existing?.id ?? null);

    const sha256 = createHash('sha256').update(bytes).digest('hex');
    if (existing && existing.sha256 === sha256 && existing.status !== 'error') {
      // Touched but not changed (a rename, a metadata edit): nothing to read again.
      await this.record(key, filePath, eTag, existing.id, null);
      return { status: 'unchanged' };
    }
    const conversation = await this.conversations.latest(connection.userId, {
      kind: 'builder',
      sparkId: connection.sparkId,
    });
    const storageKey = documentStorageKey(randomUUID(), kind);
    await this.store(storageKey, bytes);
    const values = { name, storageKey, size: bytes.length, sha256, conversationId: conversation?.id ?? null };
    try {
      const document = existing ? await this.replace(existing, values) : await this.create(connection, values);
      if (document === 'missing') {
        await this.storage.delete(storageKey).catch(() => undefined);
        return { status: 'missing' };
      }
      if ('skip' in document) {
        await this.storage.delete(storageKey).catch(() => undefined);
        const params: Record<string, number> = 'limit' in document ? { limit: Number(document.limit) } : {};
        return this.skip(connection, key, filePath, name, language, document.skip, existing?.id ?? null, params);
      }
      if (document.kind === 'linked') {
        // The same content was already in the Spark (uploaded, or imported from elsewhere): followed, not copied.
        await this.storage.delete(storageKey).catch(() => undefined);
        await this.record(key, filePath, eTag, document.document.id, null);
        return { status: 'unchanged' };
      }
      await this.record(key, filePath, eTag, document.document.id, null);
      return { status: 'queued' };
    } catch (err) {
      await this.storage.delete(storageKey).catch(() => undefined);
      throw err;
    }
  }

  /** A new document within the plan's limit, queued for reading; or why not. */
  private async create(
    connection: IntegrationConnectionRow,
    values: Parameters<DocumentIntake['createWithinLimit']>[2],
  ): Promise<
    | { kind: 'new' | 'linked'; document: DocumentRow }
    | { skip: ImportSkipCode }
    | { skip: ImportSkipCode; limit: number }
    | 'missing'
  > {
    const result = await this.intake.createWithinLimit(connection.userId, connection.sparkId, values, 'plan');
    if (result.kind === 'not-found') return 'missing';
    if (result.kind === 'full') return { skip: 'DOCUMENT_LIMIT', limit: result.limit };
    if (result.kind === 'duplicate') return { kind: 'linked', document: result.document };
    try {
      await this.producer.enqueue('document.ingest', { documentId: result.document.id }, INGEST_JOB_OPTIONS);
    } catch (err) {
      // Left `pending`, the worker's sweep queues it; but the import is retried first.
      await this.intake.discardUpload(result.document.id, []).catch(() => undefined);
      throw err;
    }
    return { kind: 'new', document: result.document };
  }

  /** A changed file: the document's file replaced and read again (its knowledge replaced, not duplicated). */
  private async replace(
    existing: DocumentRow,
    values: Parameters<DocumentsRepository['replaceFile']>[1],
  ): Promise<{ kind: 'new'; document: DocumentRow } | { skip: ImportSkipCode } | 'missing'> {
    const done = await this.documents.replaceFile(existing.id, values);
    if (done.kind !== 'replaced') return done.kind === 'duplicate' ? { skip: 'DUPLICATE' } : 'missing';
    const queue = this.producer.queue('ingestion');
    // The finished job of the last reading is kept under the same id: it must go for the new one to be queued.
    await (await queue.getJob(jobIds['document.ingest']({ documentId: existing.id })))?.remove().catch(() => undefined);
    await this.producer.enqueue('document.ingest', { documentId: existing.id }, INGEST_JOB_OPTIONS);
    await this.storage
      .delete(done.previous.storageKey)
      .catch((err: unknown) => this.logger.warn(`could not delete the old file of ${existing.id}: ${String(err)}`));
    return { kind: 'new', document: done.document };
  }

  /** Skipped for good: recorded with the reason, told in the builder chat. */
  private async skip(
    connection: IntegrationConnectionRow,
    key: ItemKey,
    filePath: string,
    name: string,
    language: Language,
    code: ImportSkipCode,
    documentId: string | null,
    params: Record<string, number> = {},
  ): Promise<{ status: 'skipped'; reason: ImportSkipCode }> {
    // The eTag is not recorded: the same version is looked at again when it is picked again or changes.
    await this.record(key, filePath, null, documentId, code);
    const service: DocumentSharingService = serviceOfPath(filePath);
    const content = importSkippedMessage(language, { name, service, code, params: { max: MAX_UPLOAD_MB, ...params } });
    await this.tell(connection, content, {
      type: 'importSkipped',
      reason: code,
      name,
      source: { service, path: filePath },
    });
    this.logger.log(`integration.import ${key.connectionId}/${key.driveId}/${key.itemId} skipped: ${code}`);
    return { status: 'skipped', reason: code };
  }

  private async record(
    key: ItemKey,
    filePath: string,
    eTag: string | null,
    documentId: string | null,
    skipped: string | null,
  ): Promise<void> {
    await this.integrations.recordImport({ ...key, path: filePath, eTag, documentId, skipped });
  }

  /** Posts an assistant message in the Spark's builder chat (the newest one), and tells the open chats. */
  private async tell(connection: IntegrationConnectionRow, content: string, extra: Record<string, unknown>) {
    const conversation = await this.conversations.latest(connection.userId, {
      kind: 'builder',
      sparkId: connection.sparkId,
    });
    if (!conversation) return;
    const message: MessageRow = await this.conversations.addMessage(conversation.id, 'ai', { content, ...extra });
    await publishMessage(this.redis, this.config.QUEUE_PREFIX, conversation.id, toWireMessage(message), (t) =>
      this.logger.warn(t),
    );
  }

  /** A Graph or sign-in failure that retrying will not cure, as a skip reason; undefined for one worth a retry. */
  private skipCodeOf(err: unknown): ImportSkipCode | undefined {
    if (err instanceof OAuthError) return err.invalidGrant ? 'RECONNECT' : undefined;
    if (!(err instanceof GraphError)) return undefined;
    if (err.kind === 'notFound') return 'NOT_FOUND';
    if (err.kind === 'unauthorized') return 'RECONNECT';
    if (err.kind === 'refused') return 'REFUSED';
    return undefined;
  }

  /**
   * The path of a file nobody picked (found by the sync job): from its drive (a SharePoint library's site, or a
   * OneDrive) and the item's parent folders.
   */
  private async pathOf(graph: GraphClient, driveId: string, item: DriveItem): Promise<string> {
    const drive = await graph.get<{ name?: string; driveType?: string; sharePointIds?: { siteId?: string } }>(
      `/drives/${encodeURIComponent(driveId)}?$select=id,name,driveType,sharePointIds`,
    );
    const folders = parentFolders(item);
    if (drive.driveType !== 'documentLibrary') return displayPath({}, folders, item.name);
    const siteId = drive.sharePointIds?.siteId;
    const site = siteId
      ? await graph
          .get<{ displayName?: string; name?: string }>(`/sites/${encodeURIComponent(siteId)}`)
          .catch(() => undefined)
      : undefined;
    return displayPath(
      { site: site?.displayName || site?.name || drive.name || 'SharePoint', library: drive.name },
      folders,
      item.name,
    );
  }

  private async store(storageKey: string, bytes: Buffer): Promise<void> {
    await fs.mkdir(this.storage.tmpDir, { recursive: true });
    const tmp = path.join(this.storage.tmpDir, `${randomUUID()}.upload`);
    try {
      await fs.writeFile(tmp, bytes);
      await this.storage.putFile(storageKey, tmp);
    } finally {
      await fs.rm(tmp, { force: true });
    }
  }
}
