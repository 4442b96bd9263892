import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { runMigrations } from '../../libs/db/src/migrate';
import { startDnsServer } from './fixtures/dns';
import { ROOT, type IntegrationEnv, type Slot } from './paths';

function freePort(): Promise<number> {
  return new Promise<number>((resolve) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/**
 * One slot per jest worker: its own database, queue prefix, file store and real worker process, so the
 * test files of two jest workers never see each other's data, jobs or triggers (a run with --runInBand
 * has one slot, as before). Tests isolate themselves further by making their own data (fresh users,
 * sparks…) rather than by database. env.ts gives each test file the slot of its jest worker.
 */
async function startSlot(adminUrl: string, redisUrl: string, runId: string, index: number, dnsPort: number) {
  const id = index === 0 ? runId : `${runId}_w${index + 1}`;
  const dbName = `sparks_it_${id}`;
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${dbName}"`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${dbName}`;
  const databaseUrl = url.toString();
  await runMigrations(databaseUrl);

  const env: Omit<IntegrationEnv, 'SPARKS_IT_WORKER_PID'> = {
    SPARKS_IT_ADMIN_URL: adminUrl,
    SPARKS_IT_DB: dbName,
    DATABASE_URL: databaseUrl,
    REDIS_URL: redisUrl,
    QUEUE_PREFIX: `it_${id}`,
    DEV_OUTBOX: 'true',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    NODE_ENV: 'test',
    APP_URL: 'http://localhost:3000',
    DNS_SERVERS: `127.0.0.1:${dnsPort}`,
    STORAGE_DIR: path.join(os.tmpdir(), `sparks_it_${id}`, 'storage'),
    // Users made in tests get a cheap password hash (refused outside NODE_ENV=test: libs/core config).
    PASSWORD_HASH_COST: 'test-minimal',
  };
  // The worker's own /metrics (metrics.it.ts scrapes it), on a port free now.
  const metricsPort = await freePort();
  const worker: ChildProcess = spawn(process.execPath, [path.join(ROOT, 'worker', 'dist', 'main.js')], {
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
  const slot: Slot = {
    ...env,
    SPARKS_IT_WORKER_PID: String(worker.pid),
    SPARKS_IT_WORKER_METRICS_URL: `http://127.0.0.1:${metricsPort}/metrics`,
  };
  return { slot, worker };
}

export default async function globalSetup(globalConfig?: { maxWorkers?: number }): Promise<void> {
  const adminUrl = process.env.TEST_ADMIN_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
  const runId = `${process.pid}_${Date.now()}`;

  // Incremental: a no-op when the worker is up to date, a rebuild when its sources changed.
  spawnSync(path.join(ROOT, 'node_modules', '.bin', 'tsc'), ['-b', 'worker/tsconfig.json'], {
    cwd: ROOT,
    stdio: 'inherit',
  });

  // A real DNS server on loopback: known test domains exist, every other name is NXDOMAIN.
  const dns = await startDnsServer();
  (globalThis as { __sparksDns?: { close(): Promise<void> } }).__sparksDns = dns;

  const count = Math.max(1, globalConfig?.maxWorkers ?? 1);
  const started = [];
  for (let i = 0; i < count; i++) started.push(await startSlot(adminUrl, redisUrl, runId, i, dns.port));
  await new Promise((resolve) => setTimeout(resolve, 300));
  if (started.some(({ worker }) => worker.exitCode !== null)) throw new Error('a worker process did not start');

  const slots = started.map(({ slot }) => slot);
  // Test files inherit this environment (jest creates their process objects after global setup): the first
  // slot's values as before, and every slot for env.ts to pick the jest worker's own.
  // The security scoreboard is one file for the run, whichever slot a case ran in.
  Object.assign(process.env, slots[0], {
    SPARKS_IT_SLOTS: JSON.stringify(slots),
    SPARKS_IT_SCOREBOARD: path.join(path.dirname(slots[0].STORAGE_DIR), 'security-scoreboard.jsonl'),
  });
}
