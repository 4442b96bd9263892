import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { assertStorageKey, contentTypeOfKey, StoredFileMissing, type FileStorage } from './storage';

export interface S3StorageOptions {
  bucket: string;
  region: string;
  endpoint?: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  forcePathStyle?: boolean;
  /** Prepended to every key, e.g. `sparks/` to share a bucket. */
  prefix?: string;
  tmpDir?: string;
}

const isMissing = (err: unknown) => {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e.name === 'NoSuchKey' || e.name === 'NotFound' || e.$metadata?.httpStatusCode === 404;
};

/** Files in any S3-compatible store (AWS S3, MinIO, Cloudflare R2, Ceph…), through the AWS SDK v3. */
export class S3Storage implements FileStorage {
  readonly kind = 's3' as const;
  readonly tmpDir: string;
  private readonly client: S3Client;

  constructor(private readonly options: S3StorageOptions) {
    const config: S3ClientConfig = {
      region: options.region,
      endpoint: options.endpoint,
      forcePathStyle: options.forcePathStyle,
      // Checksums only where S3 requires them: many S3-compatible stores reject the newer ones.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    };
    if (options.accessKeyId && options.secretAccessKey) {
      config.credentials = { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey };
    }
    this.client = new S3Client(config);
    this.tmpDir = path.resolve(options.tmpDir ?? path.join(os.tmpdir(), 'sparks-uploads'));
  }

  private keyOf(key: string): string {
    assertStorageKey(key);
    return `${this.options.prefix ?? ''}${key}`;
  }

  async putFile(key: string, localPath: string): Promise<void> {
    // Uploads are at most 10 MB, exports as large as the account: one PUT with a known length works with every
    // S3-compatible store (a single PUT takes up to 5 GB).
    const body = await fs.readFile(localPath);
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.options.bucket,
        Key: this.keyOf(key),
        Body: body,
        ContentLength: body.length,
        ContentType: contentTypeOfKey(key),
      }),
    );
    await fs.rm(localPath, { force: true });
  }

  async get(key: string, options: { signal?: AbortSignal } = {}): Promise<Buffer> {
    try {
      const res = await this.client.send(new GetObjectCommand({ Bucket: this.options.bucket, Key: this.keyOf(key) }), {
        abortSignal: options.signal,
      });
      if (!res.Body) throw new StoredFileMissing(key);
      return Buffer.from(await res.Body.transformToByteArray());
    } catch (err) {
      if (isMissing(err)) throw new StoredFileMissing(key);
      throw err;
    }
  }

  async exists(key: string): Promise<boolean> {
    try {
      await this.client.send(new HeadObjectCommand({ Bucket: this.options.bucket, Key: this.keyOf(key) }));
      return true;
    } catch (err) {
      if (isMissing(err)) return false;
      throw err;
    }
  }

  async open(key: string): Promise<Readable> {
    try {
      const res = await this.client.send(new GetObjectCommand({ Bucket: this.options.bucket, Key: this.keyOf(key) }));
      if (!res.Body) throw new StoredFileMissing(key);
      return res.Body instanceof Readable ? res.Body : Readable.fromWeb(res.Body.transformToWebStream() as never);
    } catch (err) {
      if (isMissing(err)) throw new StoredFileMissing(key);
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.options.bucket, Key: this.keyOf(key) }));
  }

  destroy(): void {
    this.client.destroy();
  }
}
