import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import type { Readable } from 'node:stream';
import path from 'node:path';
import { assertStorageKey, StoredFileMissing, type FileStorage } from './storage';

/** Files on the local disk, under one folder (`.data/uploads` by default). */
export class LocalDiskStorage implements FileStorage {
  readonly kind = 'local' as const;
  readonly root: string;
  readonly tmpDir: string;

  constructor(dir: string, tmpDir?: string) {
    this.root = path.resolve(dir);
    // Inside the store by default, so that storing a finished upload is an atomic rename.
    this.tmpDir = path.resolve(tmpDir ?? path.join(this.root, '.tmp'));
  }

  private pathOf(key: string): string {
    assertStorageKey(key);
    const file = path.resolve(this.root, key);
    if (!file.startsWith(this.root + path.sep)) throw new Error(`invalid storage key: ${key}`);
    return file;
  }

  async putFile(key: string, localPath: string): Promise<void> {
    const target = this.pathOf(key);
    await fs.mkdir(path.dirname(target), { recursive: true });
    try {
      await fs.rename(localPath, target);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
      // A temp folder on another file system: copy, then remove the original.
      await fs.copyFile(localPath, target);
      await fs.rm(localPath, { force: true });
    }
  }

  async get(key: string, options: { signal?: AbortSignal } = {}): Promise<Buffer> {
    try {
      return await fs.readFile(this.pathOf(key), { signal: options.signal });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new StoredFileMissing(key);
      throw err;
    }
  }

  async exists(key: string): Promise<boolean> {
    try {
      await fs.access(this.pathOf(key));
      return true;
    } catch {
      return false;
    }
  }

  async delete(key: string): Promise<void> {
    await fs.rm(this.pathOf(key), { force: true });
  }

  async open(key: string): Promise<Readable> {
    const file = this.pathOf(key);
    if (!(await this.exists(key))) throw new StoredFileMissing(key);
    return createReadStream(file);
  }
}
