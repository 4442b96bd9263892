import { createHash } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { MAX_UPLOAD_BYTES, MAX_UPLOAD_MB } from '@sparks/contracts';
import { documentSyncMessage, type AppConfig, type Language, type SyncSkipReason } from '@sparks/core';
import {
  AccountsRepository,
  DocumentsRepository,
  IntegrationsRepository,
  toWireMessage,
  type IntegrationConnectionRow,
  type IntegrationItemRow,
} from '@sparks/db';
import { DocumentIntake } from '@sparks/domain';
import {
  GraphError,
  OAuthError,
  readDriveDelta,
  skipReason,
  type DriveItem,
  type FileStorage,
  type MicrosoftGraph,
} from '@sparks/knowledge';
import {
  jobIds,
  JobProducer,
  publishMessage,
  queueOf,
  unscheduleIntegrationSync,
  type JobPayloads,
} from '@sparks/queues';
import type { Redis } from 'ioredis';
import { CONFIG, REDIS, STORAGE } from '@sparks/nest';
import { INGEST_PRODUCER } from '../ingestion/tokens';
import { MICROSOFT } from './tokens';

/** The job that reads one followed file (again) and replaces the document's knowledge (issue 20). */
const IMPORT_JOB = 'integration.import';

/**
 * The id of the import of one version of a file: the connection, the drive, the item and the eTag, so that a
 * sync delivered twice, or two syncs that saw the same change, queue one import of it.
 */
export function importJobId(connectionId: string, driveId: string, itemId: string, eTag: string): string {
  const version = createHash('sha256').update(`${driveId}\n${itemId}\n${eTag}`).digest('hex').slice(0, 32);
  return `import-${connectionId}-${version}`;
}

const SERVICE_NAMES: Record<string, string> = { sharepoint: 'SharePoint', onedrive: 'OneDrive' };

export interface SyncSummary {
  status: 'synced' | 'gone' | 'notConfigured';
  drives: number;
  imports: number;
  removed: number;
  skipped: number;
}

/**
 * `integration.sync {connectionId}` (issue 20): for each drive the connection follows files of, one round of
 * Graph's delta query from the saved delta link (a full enumeration the first time, and after a 410). For the
 * followed files (rows of `integration_items`) only: a new eTag queues `integration.import` of that version
 * (job id with the eTag); a file deleted at the source (or absent from a full enumeration) is removed from the
 * Spark's knowledge with its row; a version that is not a PDF or .docx, or is larger than uploads may be, is
 * recorded as skipped with its reason and the owner told in the document's conversation. The delta link is
 * saved only after the round's changes are handled, so a run that stops halfway is done again from the same
 * link; every step is idempotent. A link Graph hands back that is not under the configured Graph base is
 * refused (nothing of that drive is touched) and logged.
 */
@Injectable()
export class IntegrationSyncJob {
  private readonly logger = new Logger(IntegrationSyncJob.name);

  constructor(
    private readonly integrations: IntegrationsRepository,
    private readonly documents: DocumentsRepository,
    private readonly intake: DocumentIntake,
    private readonly accounts: AccountsRepository,
    @Inject(MICROSOFT) private readonly microsoft: MicrosoftGraph,
    @Inject(INGEST_PRODUCER) private readonly producer: JobProducer,
    @Inject(STORAGE) private readonly storage: FileStorage,
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(CONFIG) private readonly config: AppConfig,
  ) {}

  async handle(payload: JobPayloads['integration.sync']): Promise<SyncSummary> {
    const summary: SyncSummary = { status: 'synced', drives: 0, imports: 0, removed: 0, skipped: 0 };
    const connection = await this.integrations.findById(payload.connectionId);
    if (!connection) {
      // Disconnected, or the Spark was deleted: its scheduler goes too.
      await unscheduleIntegrationSync(this.producer.queue(queueOf('integration.sync')), payload.connectionId);
      return { ...summary, status: 'gone' };
    }
    if (!this.microsoft.enabled) {
      this.logger.warn(`connection ${connection.id} not synchronised: Microsoft is not configured on this worker`);
      return { ...summary, status: 'notConfigured' };
    }
    const started = new Date();
    const client = this.microsoft.graphFor(connection);
    const followed = await this.integrations.itemsOf(connection.id);
    const driveIds = [...new Set(followed.map((i) => i.driveId))];
    const saved = new Map((await this.integrations.drivesOf(connection.id)).map((d) => [d.driveId, d.deltaLink]));
    for (const driveId of saved.keys()) {
      if (!driveIds.includes(driveId)) await this.integrations.removeDrive(connection.id, driveId);
    }
    const failures: string[] = [];
    for (const driveId of driveIds) {
      try {
        const round = await readDriveDelta(client, driveId, saved.get(driveId));
        // The rows as they are now: an import may have added one while the pages were read.
        const rows = (await this.integrations.itemsOf(connection.id)).filter((r) => r.driveId === driveId);
        for (const row of rows) {
          const seen = round.items.get(row.itemId);
          // Absent from a full enumeration means gone, unless the row came after the enumeration began.
          const gone = seen ? !!seen.deleted : round.full && row.createdAt < started;
          if (gone) {
            await this.removeFollowed(connection, row);
            summary.removed += 1;
          } else if (seen && seen.eTag && seen.eTag !== row.eTag) {
            if (row.eTag === null) {
              // No version recorded: its first import is still to come (it was just picked), or the import
              // skipped it (the plan full, a duplicate…) and it waits to be picked again or to change. Neither
              // is queued by the sync; a skipped one is noted as seen in this version, so the next change counts.
              if (row.skipped) await this.integrations.markSkipped(row.id, seen.eTag, row.skipped);
              continue;
            }
            const reason = skipReason(seen, MAX_UPLOAD_BYTES);
            if (reason) {
              if (await this.integrations.markSkipped(row.id, seen.eTag, reason)) {
                await this.tellSkipped(connection, row, seen, reason);
              }
              summary.skipped += 1;
            } else {
              await this.enqueueImport(connection.id, driveId, row.itemId, seen.eTag);
              summary.imports += 1;
            }
          }
        }
        await this.integrations.saveDeltaLink(connection.id, driveId, round.deltaLink);
        summary.drives += 1;
      } catch (err) {
        const why = this.describe(err);
        this.logger.warn(`sync of connection ${connection.id}, drive ${driveId}: ${why}`);
        failures.push(why);
        // The token is spent (connect again) or Graph asks us to wait: the other drives would fail the same way.
        if ((err instanceof OAuthError && err.invalidGrant) || (err instanceof GraphError && err.kind === 'throttled'))
          break;
      }
    }
    if (failures.length > 0) throw new Error(`sync of connection ${connection.id} failed: ${failures.join('; ')}`);
    this.logger.log(
      `synced connection ${connection.id}: ${summary.drives} drive(s), ${summary.imports} import(s), ` +
        `${summary.removed} removed, ${summary.skipped} skipped`,
    );
    return summary;
  }

  private describe(err: unknown): string {
    if (err instanceof GraphError) {
      const wait = err.retryAfterMs !== undefined ? ` (Retry-After ${Math.round(err.retryAfterMs / 1000)} s)` : '';
      return `${err.kind}: ${err.message}${wait}`;
    }
    if (err instanceof OAuthError)
      return err.invalidGrant ? `the owner must connect again: ${err.message}` : err.message;
    return err instanceof Error ? err.message : String(err);
  }

  /** Queues the import of this version of the file; a second sync that saw the same version queues nothing. */
  private async enqueueImport(connectionId: string, driveId: string, itemId: string, eTag: string): Promise<void> {
    await this.producer
      .queue(queueOf('integration.sync'))
      .add(IMPORT_JOB, { connectionId, driveId, itemId }, { jobId: importJobId(connectionId, driveId, itemId, eTag) });
  }

  /** The file was deleted at the source: its document leaves the Spark's knowledge, and the row goes. */
  private async removeFollowed(connection: IntegrationConnectionRow, row: IntegrationItemRow): Promise<void> {
    const doc = row.documentId ? await this.documents.findById(row.documentId) : undefined;
    if (doc) {
      const removed = await this.documents.deleteOwned(doc.userId, doc.sparkId, doc.id);
      if (removed) {
        await this.producer.requestChecks(doc.sparkId);
        const job = await this.producer
          .queue(queueOf('document.ingest'))
          .getJob(jobIds['document.ingest']({ documentId: doc.id }));
        await job?.remove().catch(() => undefined);
        await this.storage
          .delete(doc.storageKey)
          .catch((err: unknown) => this.logger.warn(`could not delete the file of document ${doc.id}: ${String(err)}`));
        const language = await this.languageOf(doc.userId);
        await this.post(doc.conversationId, {
          content: documentSyncMessage(language, { event: 'deleted', name: doc.name, service: this.brand(connection) }),
          sync: 'deleted',
          name: doc.name,
        });
      }
    }
    await this.integrations.removeItem(row.id);
  }

  private async tellSkipped(
    connection: IntegrationConnectionRow,
    row: IntegrationItemRow,
    item: DriveItem,
    reason: SyncSkipReason,
  ): Promise<void> {
    this.logger.log(`connection ${connection.id}: new version of item ${row.itemId} skipped (${reason})`);
    const doc = row.documentId ? await this.documents.findById(row.documentId) : undefined;
    if (!doc) return;
    const language = await this.languageOf(doc.userId);
    await this.post(doc.conversationId, {
      content: documentSyncMessage(language, {
        event: 'skipped',
        reason,
        maxMb: MAX_UPLOAD_MB,
        name: item.name || doc.name,
        service: this.brand(connection),
      }),
      sync: 'skipped',
      reason,
      documentId: doc.id,
      name: doc.name,
    });
  }

  private brand(connection: IntegrationConnectionRow): string {
    return SERVICE_NAMES[connection.service] ?? 'Microsoft 365';
  }

  private async languageOf(userId: string): Promise<Language> {
    return (await this.accounts.findUserById(userId))?.language ?? 'es';
  }

  /** A plain text message from the assistant (not a document card: the chat would show it as an upload). */
  private async post(conversationId: string | null, data: Record<string, unknown> & { content: string }) {
    const message = await this.intake.post(conversationId, { type: 'ai', data });
    if (!message) return;
    await publishMessage(this.redis, this.config.QUEUE_PREFIX, message.conversationId, toWireMessage(message), (t) =>
      this.logger.warn(t),
    );
  }
}
