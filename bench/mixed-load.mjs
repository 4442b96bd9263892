#!/usr/bin/env node
// The mixed load of issue 13 against the stack `npm start` runs: many clients at once, each reading its
// profile and its Sparks, with PDF uploads (a 2,000-page one among them) now and then. It checks what a
// load test of latency alone would miss: every answer belongs to the client that asked (profile,
// Spark list, the text of each uploaded document), no 5xx, no 401 on a valid token, no request left
// hanging, and every uploaded document ends `completed` or `error`.
//
//   node bench/mixed-load.mjs                  the embedded default (npm start: embedded PostgreSQL
//                                              and a private redis-server, scratch data folder)
//   node bench/mixed-load.mjs --reference      the same, then `npm start` on the machine's PostgreSQL
//                                              (DATABASE_URL, BENCH_PG_URL), side by side
//   node bench/mixed-load.mjs --url http://127.0.0.1:3000   a stack already running (dev outbox on)
//
// Options: --clients 40 --requests 600 --upload-every 40 --pages 2000 --settle-seconds 600
//          --json <file> (also writes the raw results; the integration test reads them)
// Exit code 1 when any check fails.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import {
  PG_ADMIN_URL,
  ROOT,
  log,
  machine,
  STAT_COLUMNS,
  onCleanup,
  rootRequire,
  runBench,
  scratchDatabase,
  sleep,
  summarize,
  table,
  writeJsonIfAsked,
  multipart,
} from './lib/common.mjs';

const argv = process.argv.slice(2);
const opt = (name, fallback) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 && argv[i + 1] !== undefined ? argv[i + 1] : fallback;
};
const CLIENTS = Number(opt('clients', 40));
const REQUESTS = Number(opt('requests', 600));
const UPLOAD_EVERY = Number(opt('upload-every', 40));
const PAGES = Number(opt('pages', 2000));
const SETTLE_MS = Number(opt('settle-seconds', 600)) * 1000;
const URL_GIVEN = opt('url', undefined);
const PASSWORD = 'Mixed-load-1!';
/** A request slower than this counts as hanging (the issue saw requests hang over 30 s). */
const HANG_MS = 30_000;

const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });

/** One HTTP call: `{ status, body, ms }`; a network failure or a 60 s wait answers status 0. */
function call(base, method, urlPath, { token, json, raw, contentType } = {}) {
  const payload = json !== undefined ? Buffer.from(JSON.stringify(json)) : raw;
  const t0 = performance.now();
  return new Promise((resolve) => {
    const req = http.request(
      `${base}${urlPath}`,
      {
        method,
        agent,
        timeout: 60_000,
        headers: {
          ...(payload
            ? {
                'Content-Type': json !== undefined ? 'application/json' : contentType,
                'Content-Length': payload.length,
              }
            : {}),
          ...(token ? { Authorization: `Bearer ${token}` } : {}),
        },
      },
      (res) => {
        const parts = [];
        res.on('data', (c) => parts.push(c));
        res.on('end', () => {
          let body = Buffer.concat(parts).toString('utf8');
          try {
            body = JSON.parse(body);
          } catch {
            // not JSON
          }
          resolve({ status: res.statusCode, body, ms: performance.now() - t0 });
        });
        res.on('error', (err) => resolve({ status: 0, body: err.message, ms: performance.now() - t0 }));
      },
    );
    req.on('timeout', () => req.destroy(new Error('timed out after 60 s')));
    req.on('error', (err) => resolve({ status: 0, body: err.message, ms: performance.now() - t0 }));
    req.end(payload);
  });
}

function pdf(pages) {
  const PDFDocument = rootRequire('pdfkit');
  const doc = new PDFDocument({ autoFirstPage: false, compress: true });
  const parts = [];
  doc.on('data', (c) => parts.push(c));
  const done = new Promise((resolve) => doc.on('end', () => resolve(Buffer.concat(parts))));
  pages.forEach((text) => {
    doc.addPage({ size: 'A5' });
    doc.fontSize(10).text(text);
  });
  doc.end();
  return done;
}

/** Runs `fn` over `items`, at most `limit` at a time. */
async function pooled(items, limit, fn) {
  const out = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i], i);
      }
    }),
  );
  return out;
}

async function signUp(base, i, runTag) {
  const username = `mixed.${runTag}.${i}@example.com`;
  const register = await call(base, 'POST', '/api/v1/auth/register', {
    json: { username, email: username, password: PASSWORD, config: { language: i % 2 ? 'en' : 'es' } },
  });
  if (register.status !== 201)
    throw new Error(`register ${username}: HTTP ${register.status} ${JSON.stringify(register.body)}`);
  let code;
  for (let t = 0; t < 300 && !code; t++) {
    const mail = await call(base, 'GET', `/api/v1/dev/outbox?to=${encodeURIComponent(username)}`);
    code = (mail.body?.data ?? []).map((m) => /\b(\d{6})\b/.exec(m.text)?.[1]).find(Boolean);
    if (!code) await sleep(100);
  }
  if (!code) throw new Error(`no verification mail for ${username} (is the dev outbox on and the worker running?)`);
  const verified = await call(base, 'POST', '/api/v1/auth/verify-code', {
    json: { username, code, password: PASSWORD },
  });
  if (verified.status !== 200) throw new Error(`verify ${username}: HTTP ${verified.status}`);
  const token = verified.body.data.access_token;
  const marker = `owner-${runTag}-${i}`;
  const profile = await call(base, 'PATCH', '/api/v1/account/profile', { token, json: { firstname: `Client${i}` } });
  if (profile.status !== 200) throw new Error(`profile ${username}: HTTP ${profile.status}`);
  const spark = await call(base, 'POST', '/api/v1/sparks', { token, json: { name: `Spark ${marker}` } });
  if (spark.status !== 201) throw new Error(`spark ${username}: HTTP ${spark.status} ${JSON.stringify(spark.body)}`);
  return { i, username, token, marker, userId: profile.body.data.id, sparkIds: new Set([spark.body.data._id]) };
}

/** The load itself, against `base`. Answers the counts and latencies the report and the test read. */
async function runLoad(base, label) {
  const runTag = `${process.pid}${Date.now().toString(36)}`;
  log(`${label}: signing up ${CLIENTS} clients…`);
  const clients = await pooled(
    Array.from({ length: CLIENTS }, (_, i) => i),
    8,
    (i) => signUp(base, i, runTag),
  );
  log(`${label}: making the PDFs (one of ${PAGES} pages)…`);
  const big = await pdf(
    Array.from(
      { length: PAGES },
      (_, p) => `Page ${p + 1}. Opening hours, prices and the menu of the day, line ${p * 7}.`,
    ),
  );
  const counts = { requests: 0, wrongOwner: 0, server5xx: 0, unauthorized: 0, otherErrors: 0, hanging: 0, uploads: 0 };
  const problems = [];
  const latency = { profile: [], sparks: [], upload: [] };
  const documents = [];
  let sent = 0;
  const note = (what) => {
    if (problems.length < 50) problems.push(what);
  };
  const judge = (kind, client, res) => {
    counts.requests += 1;
    latency[kind].push(res.ms);
    if (res.ms > HANG_MS) counts.hanging += 1;
    if (res.status >= 500) {
      counts.server5xx += 1;
      note(`${kind} by client ${client.i}: HTTP ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
      return false;
    }
    if (res.status === 401) {
      counts.unauthorized += 1;
      note(`${kind} by client ${client.i}: 401 on a valid token`);
      return false;
    }
    if (res.status < 200 || res.status >= 300) {
      counts.otherErrors += 1;
      note(`${kind} by client ${client.i}: HTTP ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
      return false;
    }
    return true;
  };

  log(`${label}: ${REQUESTS} requests from ${CLIENTS} clients at once…`);
  const t0 = performance.now();
  await Promise.all(
    clients.map(async (client) => {
      for (let n = 0; n < Math.ceil(REQUESTS / CLIENTS); n++) {
        const seq = sent++;
        if (seq >= REQUESTS) return;
        if (UPLOAD_EVERY > 0 && seq % UPLOAD_EVERY === UPLOAD_EVERY - 1) {
          // Uploads alternate: the big PDF, then a one-page PDF that names its owner.
          const own = (seq / UPLOAD_EVERY) % 2 >= 1;
          const bytes = own ? await pdf([`This document belongs to ${client.marker}.`]) : big;
          const sparkId = [...client.sparkIds][0];
          const form = multipart(
            { sparkId, name: own ? `${client.marker}.pdf` : 'big.pdf' },
            { name: 'doc.pdf', bytes },
          );
          const res = await call(base, 'POST', '/api/v1/bucket', {
            token: client.token,
            raw: form.body,
            contentType: form.type,
          });
          if (judge('upload', client, res)) {
            counts.uploads += 1;
            documents.push({ client, sparkId, id: res.body.data._id, own });
          }
        } else if (seq % 2 === 0) {
          const res = await call(base, 'GET', '/api/v1/account/profile', { token: client.token });
          if (
            judge('profile', client, res) &&
            (res.body.data.username !== client.username || res.body.data.firstname !== `Client${client.i}`)
          ) {
            counts.wrongOwner += 1;
            note(`profile of client ${client.i} answered ${res.body.data.username}`);
          }
        } else {
          const res = await call(base, 'GET', '/api/v1/sparks', { token: client.token });
          if (judge('sparks', client, res)) {
            const items = res.body.data;
            const foreign = items.filter((s) => !client.sparkIds.has(s._id) || s.userId !== client.userId);
            if (foreign.length > 0 || items.length === 0) {
              counts.wrongOwner += 1;
              note(`Sparks of client ${client.i} held ${foreign.map((s) => s.name).join(', ') || 'nothing'}`);
            }
          }
        }
      }
    }),
  );
  const loadMs = performance.now() - t0;

  // The same PDF sent twice to one Spark is one document (the api answers the existing one).
  const distinct = [...new Map(documents.map((d) => [d.id, d])).values()];
  log(`${label}: waiting for the ${distinct.length} uploaded documents to end…`);
  const deadline = Date.now() + SETTLE_MS;
  const final = new Map();
  while (Date.now() < deadline && final.size < distinct.length) {
    for (const d of distinct) {
      if (final.has(d.id)) continue;
      const res = await call(base, 'GET', `/api/v1/sparks/${d.sparkId}/documents/${d.id}`, { token: d.client.token });
      const status = res.body?.data?.status;
      if (status === 'completed' || status === 'error') final.set(d.id, { status, error: res.body.data.error });
    }
    if (final.size < distinct.length) await sleep(500);
  }
  const stuck = distinct.filter((d) => !final.has(d.id)).length;
  // What each one-page document holds must be its owner's text, read back through its owner.
  for (const d of distinct.filter((x) => x.own && final.get(x.id)?.status === 'completed')) {
    const res = await call(base, 'GET', `/api/v1/sparks/${d.sparkId}/documents/${d.id}/pages`, {
      token: d.client.token,
    });
    const text = (res.body?.data?.pages ?? []).map((p) => p.text).join(' ');
    if (!text.includes(d.client.marker)) {
      counts.wrongOwner += 1;
      note(`document of client ${d.client.i} reads "${text.slice(0, 80)}"`);
    }
  }
  const ended = [...final.values()];
  return {
    label,
    ...counts,
    documents: distinct.length,
    stuck,
    documentsCompleted: ended.filter((e) => e.status === 'completed').length,
    documentsError: ended.filter((e) => e.status === 'error').length,
    documentErrors: [...new Set(ended.map((e) => e.error).filter(Boolean))],
    loadSeconds: loadMs / 1000,
    latency: Object.fromEntries(Object.entries(latency).map(([k, v]) => [k, summarize(v)])),
    problems,
    users: clients.map((c) => ({ username: c.username, password: PASSWORD, sparkIds: [...c.sparkIds] })),
  };
}

/** `npm start` on a scratch data folder (and, for the reference, on the machine's PostgreSQL). */
async function startNpmStack(label, extraEnv) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `sparks-mixed-${label}-`));
  const port = await new Promise((resolve) => {
    const srv = http.createServer().listen(0, '127.0.0.1', () => {
      const { port: p } = srv.address();
      srv.close(() => resolve(p));
    });
  });
  const env = { ...process.env, ...extraEnv, PORT: String(port), SPARKS_DATA_DIR: dataDir, LOG_LEVEL: 'warn' };
  for (const k of ['DATABASE_URL', 'REDIS_URL']) if (!(k in extraEnv)) delete env[k];
  const tail = [];
  const child = spawn(process.execPath, [path.join(ROOT, 'scripts', 'start.mjs'), '--no-install', '--no-build'], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const keep = (chunk) => {
    for (const line of String(chunk).split('\n')) if (line.trim()) tail.push(line);
    while (tail.length > 60) tail.shift();
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exited = new Promise((resolve) => child.once('exit', resolve));
  onCleanup(`stop npm start (${label})`, async () => {
    if (child.exitCode === null) {
      child.kill('SIGINT');
      await Promise.race([exited, sleep(60_000)]);
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`npm start (${label}) exited:\n${tail.join('\n')}`);
    const res = await call(base, 'GET', '/api/v1/health');
    if (res.status === 200 && /Sparks is running/.test(tail.join('\n'))) break;
    if (i > 1200) throw new Error(`npm start (${label}) did not come up in 120 s:\n${tail.join('\n')}`);
    await sleep(100);
  }
  return base;
}

// The reference runs on a database of ours, where npm start leaves the dev outbox off unless asked.
const STACK_ENV = { AUTH_RATE_IP_MAX: '100000', DNS_CHECK: 'false', DEV_OUTBOX: 'true' };

runBench(async () => {
  for (const f of ['api/dist/main.js', 'worker/dist/main.js'])
    if (!fs.existsSync(path.join(ROOT, f)))
      throw new Error(`${f} is missing: build first (npx tsc -b api/tsconfig.json worker/tsconfig.json)`);
  const runs = [];
  if (URL_GIVEN) {
    runs.push(await runLoad(URL_GIVEN.replace(/\/$/, ''), 'given stack'));
  } else {
    runs.push(await runLoad(await startNpmStack('embedded', STACK_ENV), 'npm start (embedded PostgreSQL)'));
    if (argv.includes('--reference')) {
      const url = await scratchDatabase('mixed');
      runs.push(
        await runLoad(
          await startNpmStack('reference', { ...STACK_ENV, DATABASE_URL: url }),
          `npm start on ${new URL(PG_ADMIN_URL).host}`,
        ),
      );
    }
  }
  const m = machine();
  console.log(
    `## Mixed load (issue 13): ${CLIENTS} clients, ${REQUESTS} requests, an upload every ${UPLOAD_EVERY} (${PAGES}-page PDF or a one-page one)\n`,
  );
  console.log(`${new Date().toISOString().slice(0, 10)} · ${m.cpus} × ${m.cpuModel} · ${m.memory} · Node ${m.node}\n`);
  const col = (header, f) => [header, f];
  console.log(
    table(
      [
        col('stack', (r) => r.label),
        col('requests', (r) => r.requests),
        col('wrong owner', (r) => r.wrongOwner),
        col('5xx', (r) => r.server5xx),
        col('401', (r) => r.unauthorized),
        col('other errors', (r) => r.otherErrors),
        col(`> ${HANG_MS / 1000} s`, (r) => r.hanging),
        col('uploads', (r) => r.uploads),
        col('stuck', (r) => r.stuck),
        col('docs ok / error', (r) => `${r.documentsCompleted} / ${r.documentsError}`),
        col('load s', (r) => r.loadSeconds.toFixed(1)),
      ],
      runs,
    ),
  );
  console.log('\nLatency (ms):\n');
  console.log(
    table(
      [col('stack', (x) => x.label), col('kind', (x) => x.kind), ...STAT_COLUMNS],
      runs.flatMap((r) => Object.entries(r.latency).map(([kind, s]) => ({ label: r.label, kind, ...s }))),
    ),
  );
  for (const r of runs)
    if (r.problems.length) console.log(`\n${r.label}, first problems:\n- ${r.problems.join('\n- ')}`);
  writeJsonIfAsked({ machine: m, clients: CLIENTS, requests: REQUESTS, runs });
  const failed = runs.some(
    (r) => r.wrongOwner || r.server5xx || r.unauthorized || r.otherErrors || r.hanging || r.stuck,
  );
  if (failed) throw new Error('the mixed load found problems (see above)');
});
