#!/usr/bin/env node
// `npm start`: installs what is missing, builds, and runs api + worker + the SPA on one origin.
// With no DATABASE_URL it serves an embedded PostgreSQL (PGlite, data in .data/pglite) over the
// wire protocol; with no REDIS_URL it runs a private redis-server (data in .data/redis).
// Flags: --no-install, --no-build (used by the browser tests, which build beforehand).
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  ensureInstalled,
  findRedisServer,
  freePort,
  isRoot,
  log,
  newestMtime,
  run,
  startRedis,
  stopChild,
  waitFor,
} from './lib/services.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = new Set(process.argv.slice(2));
const dataDir = path.resolve(root, process.env.SPARKS_DATA_DIR ?? '.data');
const port = Number(process.env.PORT ?? 3000);

const children = [];
let pgServer = null;
let pglite = null;
let shuttingDown = false;

async function shutdown(code) {
  if (shuttingDown) return;
  shuttingDown = true;
  log('stopping…');
  // Api and worker first (they finish what is in flight), then the stores they use.
  const [redis, ...apps] = children.slice().sort((a) => (a.role === 'redis' ? -1 : 1));
  await Promise.all(apps.map((c) => stopChild(c.proc, 12000)));
  if (redis) await stopChild(redis.proc, 5000);
  if (pgServer) await pgServer.stop().catch(() => undefined);
  if (pglite) await pglite.close().catch(() => undefined);
  log('stopped.');
  process.exit(code);
}
process.on('SIGINT', () => void shutdown(0));
process.on('SIGTERM', () => void shutdown(0));

function spawnApp(role, script, env) {
  const proc = spawn(process.execPath, [script], { cwd: root, env, stdio: 'inherit' });
  proc.on('exit', (code, signal) => {
    if (!shuttingDown) {
      log(`${role} exited unexpectedly (${code ?? signal}); stopping everything.`);
      void shutdown(1);
    }
  });
  children.push({ role, proc });
  return proc;
}

async function embeddedPostgres() {
  const { PGlite } = await import('@electric-sql/pglite');
  const { PGLiteSocketServer } = await import('@electric-sql/pglite-socket');
  // btree_gin: the chunk search indexes start with spark_id (libs/db migration 0004).
  const { btree_gin } = await import('@electric-sql/pglite/contrib/btree_gin');
  const dir = path.join(dataDir, 'pglite');
  fs.mkdirSync(dir, { recursive: true });
  pglite = await PGlite.create(dir, { extensions: { btree_gin } });
  const pgPort = await freePort();
  pgServer = new PGLiteSocketServer({ db: pglite, port: pgPort, host: '127.0.0.1', maxConnections: 64 });
  await pgServer.start();
  log(`embedded PostgreSQL (PGlite) on 127.0.0.1:${pgPort}, data in ${path.relative(root, dir)}/`);
  return `postgres://postgres@127.0.0.1:${pgPort}/postgres`;
}

async function embeddedRedis() {
  const bin = findRedisServer({ install: true });
  if (!bin) {
    const hint = isRoot
      ? 'apt-get install -y redis-server'
      : 'sudo apt-get install -y redis-server   (or: brew install redis)';
    console.error(
      `[sparks] redis-server was not found. Install it with:\n\n    ${hint}\n\nor set REDIS_URL to a Redis you run.`,
    );
    process.exit(1);
  }
  const redisPort = await freePort();
  const proc = await startRedis({ bin, port: redisPort, dir: path.join(dataDir, 'redis'), persist: true });
  children.push({ role: 'redis', proc });
  proc.on('exit', () => {
    if (!shuttingDown) {
      log('redis-server exited unexpectedly; stopping everything.');
      void shutdown(1);
    }
  });
  log(`private redis-server on 127.0.0.1:${redisPort}, data in ${path.relative(root, path.join(dataDir, 'redis'))}/`);
  return `redis://127.0.0.1:${redisPort}`;
}

function build() {
  const tsc = path.join(root, 'node_modules', '.bin', 'tsc');
  log('building api and worker…');
  run(tsc, ['-b', 'api/tsconfig.json', 'worker/tsconfig.json'], { cwd: root });
  const webIndex = path.join(root, 'web', 'dist', 'index.html');
  const webSources = ['web/src', 'web/public', 'web/index.html', 'web/vite.config.ts', 'libs/contracts/src'].map((p) =>
    path.join(root, p),
  );
  if (!fs.existsSync(webIndex) || newestMtime(webSources) > fs.statSync(webIndex).mtimeMs) {
    log('building the web app…');
    run('npm', ['run', 'build', '-w', 'web'], { cwd: root });
  }
}

async function main() {
  if (!args.has('--no-install')) ensureInstalled(root);
  if (!args.has('--no-build')) build();

  const databaseUrl = process.env.DATABASE_URL || (await embeddedPostgres());
  const redisUrl = process.env.REDIS_URL || (await embeddedRedis());
  const embedded = !process.env.DATABASE_URL;
  // Sessions survive a restart: the signing secret is made once and kept with the data.
  const secretFile = path.join(dataDir, 'jwt-secret');
  if (!process.env.JWT_SECRET && !fs.existsSync(secretFile)) {
    fs.mkdirSync(dataDir, { recursive: true });
    fs.writeFileSync(secretFile, randomBytes(32).toString('hex'), { mode: 0o600 });
  }
  const jwtSecret = process.env.JWT_SECRET || fs.readFileSync(secretFile, 'utf8').trim();
  const env = {
    ...process.env,
    PORT: String(port),
    DATABASE_URL: databaseUrl,
    REDIS_URL: redisUrl,
    // The embedded default keeps mail in the dev outbox (off by itself when SMTP_URL is set).
    DEV_OUTBOX: process.env.DEV_OUTBOX ?? 'true',
    // PGlite serves one session at a time; a small pool queues less on it.
    DATABASE_POOL_MAX: process.env.DATABASE_POOL_MAX ?? (embedded ? '4' : '10'),
    WEB_DIST: path.join(root, 'web', 'dist'),
    JWT_SECRET: jwtSecret,
    // Uploaded documents live with the rest of the data (unless S3 is configured).
    STORAGE_DIR: process.env.STORAGE_DIR ?? path.join(dataDir, 'uploads'),
  };

  spawnApp('api', path.join(root, 'api', 'dist', 'main.js'), env);
  await waitFor(
    async () => {
      try {
        const res = await fetch(`http://127.0.0.1:${port}/api/v1/health`);
        return res.ok;
      } catch {
        return false;
      }
    },
    'the api to answer /api/v1/health',
    90000,
  );
  spawnApp('worker', path.join(root, 'worker', 'dist', 'main.js'), env);
  const url = process.env.APP_URL ?? `http://localhost:${port}`;
  log(
    `Sparks is running at ${url}  (API docs: ${url}/api/docs${env.DEV_OUTBOX === 'true' && !process.env.SMTP_URL ? `, dev outbox: ${url}/api/v1/dev/outbox` : ''}). Ctrl-C stops it.`,
  );
}

main().catch((err) => {
  console.error('[sparks]', err instanceof Error ? err.message : err);
  void shutdown(1);
});
