import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { AppConfig } from '@sparks/core';
import type { FileStorage } from '@sparks/knowledge';
import fs from 'node:fs/promises';
import path from 'node:path';
import { CONFIG, STORAGE } from '@sparks/nest';
import { TMP_UPLOAD_NAME } from './multipart';

/** How often the temp folder is looked at, besides at start. */
const SWEEP_INTERVAL_MS = 10 * 60_000;
/**
 * A temp file untouched for this long belongs to no upload in progress: a live upload writes to it
 * at least every UPLOAD_IDLE_TIMEOUT_MS, and a received one is stored within seconds.
 */
const STALE_AFTER_MS = 10 * 60_000;

/**
 * Removes the temp files that uploads cut short by a crash left in UPLOAD_TMP_DIR (a running api
 * removes its own): at start, then every ten minutes. Only `<uuid>.upload` files are touched, and
 * only old ones, so that several apis may share the folder.
 */
@Injectable()
export class UploadTmpSweeper implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(UploadTmpSweeper.name);
  private timer?: NodeJS.Timeout;

  constructor(
    @Inject(STORAGE) private readonly storage: FileStorage,
    @Inject(CONFIG) private readonly config: AppConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.sweep();
    this.timer = setInterval(() => void this.sweep(), SWEEP_INTERVAL_MS);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }

  /** Answers how many files it removed. */
  async sweep(): Promise<number> {
    const dir = this.storage.tmpDir;
    const staleBefore = Date.now() - Math.max(STALE_AFTER_MS, 4 * this.config.UPLOAD_IDLE_TIMEOUT_MS);
    let names: string[];
    try {
      names = await fs.readdir(dir);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') this.logger.warn(`cannot read ${dir}: ${String(err)}`);
      return 0;
    }
    let removed = 0;
    for (const name of names.filter((n) => TMP_UPLOAD_NAME.test(n))) {
      const file = path.join(dir, name);
      try {
        if ((await fs.stat(file)).mtimeMs >= staleBefore) continue;
        await fs.rm(file, { force: true });
        removed += 1;
      } catch {
        // Gone meanwhile (its upload ended): nothing to do.
      }
    }
    if (removed > 0) this.logger.log(`removed ${removed} temp file(s) of uploads that never ended`);
    return removed;
  }
}
