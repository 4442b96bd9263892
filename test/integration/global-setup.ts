import { spawn, spawnSync } from 'node:child_process';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { runMigrations } from '../../libs/db/src/migrate';
import { startDnsServer } from './fixtures/dns';
import { ROOT, type IntegrationEnv } from './paths';

/**
 * One database and one real worker process for the whole integration run. Tests isolate
 * themselves by making their own data (fresh users, sparks…) rather than by database.
 */
export default async function globalSetup(): Promise<void> {
  const adminUrl = process.env.TEST_ADMIN_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
  const runId = `${process.pid}_${Date.now()}`;
  const dbName = `sparks_it_${runId}`;

  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${dbName}"`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${dbName}`;
  const databaseUrl = url.toString();
  await runMigrations(databaseUrl);

  const workerMain = path.join(ROOT, 'worker', 'dist', 'main.js');
  // Incremental: a no-op when the worker is up to date, a rebuild when its sources changed.
  spawnSync(path.join(ROOT, 'node_modules', '.bin', 'tsc'), ['-b', 'worker/tsconfig.json'], {
    cwd: ROOT,
    stdio: 'inherit',
  });

  // A real DNS server on loopback: known test domains exist, every other name is NXDOMAIN.
  const dns = await startDnsServer();
  (globalThis as { __sparksDns?: { close(): Promise<void> } }).__sparksDns = dns;

  const env: Omit<IntegrationEnv, 'SPARKS_IT_WORKER_PID'> = {
    SPARKS_IT_ADMIN_URL: adminUrl,
    SPARKS_IT_DB: dbName,
    DATABASE_URL: databaseUrl,
    REDIS_URL: redisUrl,
    QUEUE_PREFIX: `it_${runId}`,
    DEV_OUTBOX: 'true',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    NODE_ENV: 'test',
    APP_URL: 'http://localhost:3000',
    DNS_SERVERS: `127.0.0.1:${dns.port}`,
    STORAGE_DIR: path.join(os.tmpdir(), `sparks_it_${runId}`, 'storage'),
  };
  // The worker's own /metrics (metrics.it.ts scrapes it), on a port free now.
  const metricsPort = await new Promise<number>((resolve) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
  const worker = spawn(process.execPath, [workerMain], {
    cwd: ROOT,
    env: {
      ...process.env,
      ...env,
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'warn',
      WORKER_METRICS_PORT: String(metricsPort),
      HOST: '127.0.0.1',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  await new Promise((resolve) => setTimeout(resolve, 300));
  if (worker.exitCode !== null) throw new Error('the worker process did not start');

  // Test files inherit this environment (jest creates their process objects after global setup).
  Object.assign(process.env, env, {
    SPARKS_IT_WORKER_PID: String(worker.pid),
    SPARKS_IT_WORKER_METRICS_URL: `http://127.0.0.1:${metricsPort}/metrics`,
  });
}
