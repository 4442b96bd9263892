import { Inject, Injectable, Logger } from '@nestjs/common';
import { EXPORT_LINK_DAYS } from '@sparks/contracts';
import { renderEmail, type AppConfig } from '@sparks/core';
import { AccountDataRepository, AccountsRepository, EmailsRepository, PrivacyRepository, type Clock } from '@sparks/db';
import { writeAccountExport, ZipSink } from '@sparks/domain';
import { exportStorageKey, readIfStored, type FileStorage } from '@sparks/knowledge';
import type { JobProducer } from '@sparks/queues';
import type { Job } from 'bullmq';
import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { CLOCK, CONFIG, STORAGE } from '@sparks/nest';
import { INGEST_PRODUCER } from '../ingestion/tokens';

/**
 * `account.export` (issue 30): builds the zip of an account too large to be zipped while the browser waits, stores
 * it (`exports/{id}.zip`), and e-mails the account a link with a fresh secret (only its SHA-256 is kept) that works
 * for EXPORT_LINK_DAYS days. A job run again for an export already built does nothing; an account deleted meanwhile
 * leaves no file behind.
 */
@Injectable()
export class ExportAccountJob {
  private readonly logger = new Logger(ExportAccountJob.name);

  constructor(
    private readonly privacy: PrivacyRepository,
    private readonly data: AccountDataRepository,
    private readonly accounts: AccountsRepository,
    private readonly emails: EmailsRepository,
    @Inject(STORAGE) private readonly storage: FileStorage,
    @Inject(INGEST_PRODUCER) private readonly jobs: JobProducer,
    @Inject(CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async handle({ exportId }: { exportId: string }): Promise<{ size: number } | undefined> {
    const row = await this.privacy.findExport(exportId);
    if (!row || row.status !== 'pending') return undefined;
    const user = await this.accounts.findUserById(row.userId);
    if (!user) return undefined;
    await fs.mkdir(this.storage.tmpDir, { recursive: true });
    const tmp = path.join(this.storage.tmpDir, `export-${exportId}-${randomBytes(6).toString('hex')}.zip`);
    const key = exportStorageKey(exportId);
    try {
      const now = this.clock.now();
      await writeAccountExport(
        new ZipSink(createWriteStream(tmp)),
        this.data,
        (key) => readIfStored(this.storage, key),
        row.userId,
        now,
      );
      const { size } = await fs.stat(tmp);
      await this.storage.putFile(key, tmp);
      const token = randomBytes(32).toString('base64url');
      const expiresAt = new Date(now.getTime() + EXPORT_LINK_DAYS * 86_400_000);
      const ready = await this.privacy.markExportReady(exportId, {
        storageKey: key,
        size,
        tokenHash: createHash('sha256').update(token).digest('hex'),
        expiresAt,
      });
      if (!ready) {
        // The account was deleted while its export was being built.
        await this.storage.delete(key);
        return undefined;
      }
      const link = `${this.config.APP_URL}/api/v1/account/exports/${exportId}/download?token=${token}`;
      const expires = expiresAt.toISOString().slice(0, 16).replace('T', ' ');
      const { subject, text } = renderEmail('exportReady', user.language, { link, expires });
      const email = await this.emails.create({ to: user.email, subject, text, language: user.language });
      await this.jobs.enqueue('email.send', { emailId: email.id });
      this.logger.log(`export ${exportId} ready (${size} bytes)`);
      return { size };
    } finally {
      await fs.rm(tmp, { force: true });
    }
  }

  /** The last attempt failed: the export is marked so (the account can ask again at once). */
  async onFailed(job: Job | undefined, err: Error): Promise<void> {
    if (!job || job.name !== 'account.export' || job.attemptsMade < (job.opts.attempts ?? 1)) return;
    const { exportId } = job.data as { exportId: string };
    await this.privacy.markExportFailed(exportId, err.message.slice(0, 500)).catch(() => undefined);
  }
}
