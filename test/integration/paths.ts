import path from 'node:path';

export const ROOT = path.resolve(__dirname, '..', '..');

export interface IntegrationEnv {
  DATABASE_URL: string;
  REDIS_URL: string;
  QUEUE_PREFIX: string;
  DEV_OUTBOX: string;
  LOG_LEVEL: string;
  NODE_ENV: string;
  APP_URL: string;
  DNS_SERVERS: string;
  /** Uploaded files of this run (local-disk storage shared by the api under test and the worker). */
  STORAGE_DIR: string;
  /** `test-minimal`: the api hashes passwords at argon2's lowest cost (only with NODE_ENV=test). */
  PASSWORD_HASH_COST: string;
  SPARKS_IT_ADMIN_URL: string;
  SPARKS_IT_DB: string;
  SPARKS_IT_WORKER_PID: string;
}

/** What one jest worker's test files see (global-setup.ts makes one per worker; env.ts applies it). */
export interface Slot extends IntegrationEnv {
  SPARKS_IT_WORKER_METRICS_URL: string;
}
