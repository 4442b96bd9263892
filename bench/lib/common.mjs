// Shared helpers of the benchmarks: statistics, scratch databases, Redis key cleanup, child
// processes, and a cleanup registry that runs on success, on failure and on Ctrl-C.
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
/** `require` from the repository root: pg, ioredis and the built libs (libs/*\/dist). */
export const rootRequire = createRequire(path.join(ROOT, 'package.json'));

export const PG_ADMIN_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';

// — statistics —

/** Nearest-rank percentile of an ascending array. */
function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
}

export function summarize(samples) {
  const s = [...samples].sort((a, b) => a - b);
  const mean = s.reduce((a, b) => a + b, 0) / Math.max(1, s.length);
  return {
    n: s.length,
    min: s[0] ?? NaN,
    p50: percentile(s, 50),
    p95: percentile(s, 95),
    p99: percentile(s, 99),
    max: s[s.length - 1] ?? NaN,
    mean,
  };
}

export const ms = (v) => (Number.isFinite(v) ? (v >= 100 ? v.toFixed(0) : v.toFixed(1)) : '–');

/** A Markdown table: `columns` are [header, (row) => cell]. */
export function table(columns, rows) {
  const head = `| ${columns.map(([h]) => h).join(' | ')} |`;
  const rule = `| ${columns.map(() => '---').join(' | ')} |`;
  const body = rows.map((r) => `| ${columns.map(([, f]) => f(r)).join(' | ')} |`);
  return [head, rule, ...body].join('\n');
}

export const STAT_COLUMNS = [
  ['n', (r) => String(r.n)],
  ['p50 ms', (r) => ms(r.p50)],
  ['p95 ms', (r) => ms(r.p95)],
  ['p99 ms', (r) => ms(r.p99)],
  ['max ms', (r) => ms(r.max)],
];

/** Deterministic pseudo-random numbers (mulberry32), so that every run builds the same corpus. */
export function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const sleep = (msec) => new Promise((r) => setTimeout(r, msec));

export function log(...args) {
  process.stderr.write(`[${new Date().toISOString().slice(11, 19)}] ${args.join(' ')}\n`);
}

// — the machine —

/** CPU seconds (user + system) a process has used so far, from /proc; NaN when it is gone. */
export function cpuSeconds(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return NaN;
  }
}

/** Busy and total CPU seconds of the whole machine so far (all cores), from /proc/stat. */
export function machineCpu() {
  try {
    const [, ...v] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).map(Number);
    const total = v.slice(0, 8).reduce((a, b) => a + b, 0);
    return { busy: (total - v[3] - v[4]) / 100, total: total / 100 };
  } catch {
    return { busy: NaN, total: NaN };
  }
}

/**
 * Measures, between `start()` and `stop()`, the CPU (in cores: 1 = one core busy all along) used by
 * named processes, by this process, by the PostgreSQL backends serving `database` (seen through
 * `pool`), and by the whole machine — to tell our load from whatever else runs on the host.
 */
export function cpuMeter({ pids = {}, pool, database } = {}) {
  const backends = async () => {
    if (!pool) return new Map();
    const r = await pool.query('SELECT pid FROM pg_stat_activity WHERE datname = $1', [database]);
    return new Map(r.rows.map((row) => [row.pid, cpuSeconds(row.pid)]));
  };
  let begin;
  return {
    async start() {
      begin = {
        at: performance.now(),
        procs: Object.fromEntries(Object.entries(pids).map(([k, pid]) => [k, cpuSeconds(pid)])),
        self: process.cpuUsage(),
        pg: await backends(),
        machine: machineCpu(),
      };
    },
    async stop() {
      const wall = (performance.now() - begin.at) / 1000;
      const out = {};
      for (const [k, pid] of Object.entries(pids)) out[k] = (cpuSeconds(pid) - begin.procs[k]) / wall;
      const self = process.cpuUsage(begin.self);
      out.client = (self.user + self.system) / 1e6 / wall;
      if (pool) {
        let pg = 0;
        for (const [pid, now] of await backends()) {
          const before = begin.pg.get(pid) ?? 0;
          if (Number.isFinite(now) && Number.isFinite(before)) pg += now - before;
        }
        out.postgres = pg / wall;
      }
      const m = machineCpu();
      out.machine = (m.busy - begin.machine.busy) / wall;
      out.cores = os.cpus().length;
      out.wall = wall;
      return out;
    },
  };
}

/**
 * CPU over several timed stretches only (not the pauses between them): `measure(fn)` runs `fn`
 * under a fresh meter; `result()` is the wall-time-weighted average of all of them.
 */
export function cpuOverRounds(makeMeter) {
  const sums = {};
  let wall = 0;
  let cores;
  return {
    async measure(fn) {
      const m = makeMeter();
      await m.start();
      const value = await fn();
      const c = await m.stop();
      for (const [k, v] of Object.entries(c)) if (k !== 'cores' && k !== 'wall') sums[k] = (sums[k] ?? 0) + v * c.wall;
      wall += c.wall;
      cores = c.cores;
      return value;
    },
    result() {
      return { ...Object.fromEntries(Object.entries(sums).map(([k, v]) => [k, v / wall])), cores, wall };
    },
  };
}

/** "api 0.31 · worker 0.12 · … · machine 1.97/2" */
export function formatCpu(c) {
  const ours = Object.entries(c).filter(([k]) => !['cores', 'wall', 'machine'].includes(k));
  const others = c.machine - ours.reduce((a, [, v]) => a + v, 0);
  return [
    ...ours.map(([k, v]) => `${k} ${v.toFixed(2)}`),
    `other processes ${Math.max(0, others).toFixed(2)}`,
    `machine ${c.machine.toFixed(2)}/${c.cores}`,
  ].join(' · ');
}

/**
 * Waits until the machine is nearly idle (under `maxBusy` cores busy over 5 s), for at most
 * `timeoutMinutes`; answers whether it got there.
 */
export async function waitForIdle({ maxBusy = 0.3, timeoutMinutes = 15 } = {}) {
  const deadline = Date.now() + timeoutMinutes * 60_000;
  for (let i = 0; Date.now() < deadline && i < 10_000; i++) {
    const a = machineCpu();
    await sleep(5000);
    const b = machineCpu();
    const busy = (b.busy - a.busy) / 5;
    if (busy < maxBusy) return true;
    if (i % 6 === 0) log(`machine busy (${busy.toFixed(2)} cores): waiting for it to calm down`);
  }
  return false;
}

function tryRun(cmd, args) {
  try {
    return execFileSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return 'not found';
  }
}

export function machine() {
  return {
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model ?? 'unknown',
    memory: `${(os.totalmem() / 2 ** 30).toFixed(1)} GiB`,
    node: process.version,
    postgres: tryRun('psql', ['--version']),
    redis: tryRun('redis-server', ['--version']),
    os: `${os.type()} ${os.release()}`,
  };
}

// — cleanup —

const cleanups = [];
let cleaning;

/** Registers `fn` to run at the end (last registered runs first), whatever happens. */
export function onCleanup(label, fn) {
  cleanups.push({ label, fn });
}

/**
 * Runs the registered cleanups now (at the end they run anyway), for a script that must clean up before it goes on.
 * @public
 */
export function runCleanups() {
  if (!cleaning) {
    cleaning = (async () => {
      while (cleanups.length > 0) {
        const { label, fn } = cleanups.pop();
        try {
          await fn();
        } catch (err) {
          log(`cleanup "${label}" failed: ${err instanceof Error ? err.message : err}`);
        }
      }
    })();
  }
  return cleaning;
}

/**
 * Runs `main` and always cleans up: on return, on a thrown error, on SIGINT/SIGTERM, and on an
 * uncaught error. Exit code 0 only when `main` succeeded.
 */
export function runBench(main) {
  let exiting = false;
  const bail = async (code, why) => {
    if (exiting) return;
    exiting = true;
    if (why) log(why);
    await runCleanups();
    process.exit(code);
  };
  process.on('SIGINT', () => void bail(130, 'interrupted: cleaning up'));
  process.on('SIGTERM', () => void bail(143, 'terminated: cleaning up'));
  process.on('uncaughtException', (err) => void bail(1, `uncaught: ${err?.stack ?? err}`));
  process.on('unhandledRejection', (err) => void bail(1, `unhandled rejection: ${err?.stack ?? err}`));
  main().then(
    () => bail(0),
    (err) => bail(1, `failed: ${err?.stack ?? err}`),
  );
}

/** `--json <file>`: where to write the machine-readable results as well. */
export function writeJsonIfAsked(result) {
  const i = process.argv.indexOf('--json');
  if (i > 0 && process.argv[i + 1]) {
    writeFileSync(process.argv[i + 1], JSON.stringify(result, null, 2));
    log(`results written to ${process.argv[i + 1]}`);
  }
}

// — scratch database —

/** Creates `bench_<name>_<pid>`, migrates it, and registers its removal. Answers its URL. */
export async function scratchDatabase(name) {
  const { Client } = rootRequire('pg');
  const { runMigrations } = rootRequire('./libs/db/dist/index.js');
  const db = `bench_${name}_${process.pid}`;
  const admin = new Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${db}`);
    await admin.query(`CREATE DATABASE ${db}`);
  } finally {
    await admin.end();
  }
  onCleanup(`drop database ${db}`, async () => {
    // BENCH_KEEP_DB=1 keeps it, to look into what a run left (drop it by hand afterwards).
    if (process.env.BENCH_KEEP_DB === '1') return log(`kept database ${db}`);
    const c = new Client({ connectionString: PG_ADMIN_URL });
    await c.connect();
    try {
      await c.query(`DROP DATABASE IF EXISTS ${db} WITH (FORCE)`);
      log(`dropped database ${db}`);
    } finally {
      await c.end();
    }
  });
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${db}`;
  await runMigrations(url.toString());
  return url.toString();
}

// — Redis —

/** A queue prefix of our own, and the removal of every `<prefix>:*` key at the end. */
export function scratchRedisPrefix(name) {
  const prefix = `bench-${name}-${process.pid}`;
  onCleanup(`delete redis keys ${prefix}:*`, () => deleteRedisKeys(prefix));
  return prefix;
}

async function deleteRedisKeys(prefix) {
  const Redis = rootRequire('ioredis');
  const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 2 });
  await redis.connect();
  let deleted = 0;
  try {
    let cursor = '0';
    // Bounded: SCAN walks the keyspace once; the guard only stops a misbehaving server.
    for (let rounds = 0; rounds < 100_000; rounds++) {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
      if (keys.length > 0) deleted += await redis.unlink(...keys);
      cursor = next;
      if (cursor === '0') break;
    }
  } finally {
    redis.disconnect();
  }
  log(`deleted ${deleted} redis keys ${prefix}:*`);
}

/**
 * A multipart/form-data body of `fields` and one PDF `file` ({ name, bytes }), as the upload route
 * (`POST /api/v1/bucket`) takes it. Answers `{ body, type }` (the Content-Type with its boundary).
 */
export function multipart(fields, file) {
  const boundary = `----bench${randomUUID()}`;
  const chunks = [];
  for (const [k, v] of Object.entries(fields)) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  }
  chunks.push(
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: application/pdf\r\n\r\n`,
    ),
    file.bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  );
  return { body: Buffer.concat(chunks), type: `multipart/form-data; boundary=${boundary}` };
}
