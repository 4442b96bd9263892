import type { AppConfig } from '@sparks/core';
import { LocalDiskStorage } from './local-disk.storage';
import { S3Storage } from './s3.storage';
import type { FileStorage } from './storage';

type StorageConfig = Pick<
  AppConfig,
  | 'STORAGE_DRIVER'
  | 'STORAGE_DIR'
  | 'UPLOAD_TMP_DIR'
  | 'S3_BUCKET'
  | 'S3_REGION'
  | 'S3_ENDPOINT'
  | 'S3_ACCESS_KEY_ID'
  | 'S3_SECRET_ACCESS_KEY'
  | 'S3_FORCE_PATH_STYLE'
  | 'S3_PREFIX'
>;

/** The store the configuration names: local disk by default, S3-compatible when a bucket is set. */
export function createStorage(config: StorageConfig): FileStorage {
  if (config.STORAGE_DRIVER === 's3') {
    if (!config.S3_BUCKET) throw new Error('STORAGE_DRIVER=s3 needs S3_BUCKET');
    return new S3Storage({
      bucket: config.S3_BUCKET,
      region: config.S3_REGION,
      endpoint: config.S3_ENDPOINT,
      accessKeyId: config.S3_ACCESS_KEY_ID,
      secretAccessKey: config.S3_SECRET_ACCESS_KEY,
      forcePathStyle: config.S3_FORCE_PATH_STYLE,
      prefix: config.S3_PREFIX,
      tmpDir: config.UPLOAD_TMP_DIR,
    });
  }
  return new LocalDiskStorage(config.STORAGE_DIR, config.UPLOAD_TMP_DIR);
}
