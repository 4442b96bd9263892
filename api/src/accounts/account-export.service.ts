import { Inject, Injectable, Logger } from '@nestjs/common';
import { EXPORT_LINK_DAYS, type AccountExportQueued } from '@sparks/contracts';
import { DomainError, type AppConfig } from '@sparks/core';
import { AccountDataRepository, AccountsRepository, PrivacyRepository } from '@sparks/db';
import { writeAccountExport, ZipSink } from '@sparks/domain';
import { contentTypeOfKey, readIfStored, StoredFileMissing, type FileStorage } from '@sparks/knowledge';
import { JobProducer } from '@sparks/queues';
import type { Response } from 'express';
import { pipeline } from 'node:stream/promises';
import { CONFIG, STORAGE } from '@sparks/nest';
import { sha256 } from '../auth/secrets';

/** `sparks-data-2026-11-28.zip`: what the browser saves the export as. */
const fileName = (now: Date) => `sparks-data-${now.toISOString().slice(0, 10)}.zip`;

/**
 * `GET /account/export` (issue 30): everything of the account as one zip. An account whose files and messages weigh
 * up to EXPORT_INLINE_MAX_BYTES is zipped while the browser waits (streamed as it is made, nothing kept); a larger
 * one is built by the worker (`account.export`), which e-mails a link that works for EXPORT_LINK_DAYS days.
 */
@Injectable()
export class AccountExportService {
  private readonly logger = new Logger(AccountExportService.name);

  constructor(
    private readonly data: AccountDataRepository,
    private readonly privacy: PrivacyRepository,
    private readonly accounts: AccountsRepository,
    private readonly jobs: JobProducer,
    @Inject(STORAGE) private readonly storage: FileStorage,
    @Inject(CONFIG) private readonly config: AppConfig,
  ) {}

  /** Answers the zip itself (200), or 202 with where its link will be sent. */
  async export(userId: string, res: Response): Promise<void> {
    const user = await this.accounts.findUserById(userId);
    if (!user) throw DomainError.notFound();
    if ((await this.data.estimateBytes(userId)) > this.config.EXPORT_INLINE_MAX_BYTES) {
      const queued = await this.queue(userId, user.email);
      res.status(202).json({ data: queued });
      return;
    }
    const now = new Date();
    res.status(200);
    res.setHeader('Content-Type', 'application/zip');
    res.setHeader('Content-Disposition', `attachment; filename="${fileName(now)}"`);
    res.setHeader('Cache-Control', 'no-store');
    const zip = new ZipSink(res);
    const read = (key: string) => readIfStored(this.storage, key);
    try {
      await writeAccountExport(zip, this.data, read, userId, now);
    } catch (err) {
      // Headers are gone: the download is cut, so the browser shows it failed rather than saving half a zip.
      this.logger.error({ err }, `export of ${userId} failed while streaming`);
      zip.abort(err as Error);
    }
  }

  private async queue(userId: string, email: string): Promise<AccountExportQueued> {
    const { row } = await this.privacy.startExport(userId);
    // Queued again when it was already there: the job id is the export's, so a waiting job is not doubled.
    await this.jobs.enqueue('account.export', { exportId: row.id });
    return { status: 'queued', exportId: row.id, email, linkDays: EXPORT_LINK_DAYS };
  }

  /** The e-mailed link: the zip while its secret matches and it lives; 404 EXPORT_LINK_INVALID otherwise. */
  async download(exportId: string, token: string, res: Response): Promise<void> {
    const row = await this.privacy.downloadable(exportId, sha256(token), new Date());
    if (!row?.storageKey) throw DomainError.notFound('EXPORT_LINK_INVALID');
    let body;
    try {
      body = await this.storage.open(row.storageKey);
    } catch (err) {
      if (err instanceof StoredFileMissing) throw DomainError.notFound('EXPORT_LINK_INVALID');
      throw err;
    }
    res.status(200);
    res.setHeader('Content-Type', contentTypeOfKey(row.storageKey));
    res.setHeader('Content-Disposition', `attachment; filename="${fileName(row.createdAt)}"`);
    res.setHeader('Cache-Control', 'no-store');
    if (row.size) res.setHeader('Content-Length', String(row.size));
    await pipeline(body, res).catch((err: unknown) => {
      // The browser went away mid-download: nothing to answer.
      this.logger.warn(`download of export ${exportId} cut: ${String(err)}`);
    });
  }
}
