#!/usr/bin/env node
// Worker scale-out (issue 19): reply throughput and latency with 1, 2 and 4 worker processes on the
// same queues under the same load, then a worker killed (SIGKILL) mid-run: every message must get
// exactly one answer, and the report says how long the killed worker's jobs waited. See bench/README.md.
//
//   node bench/scale.mjs [--workers 1,2,4] [--rounds 2] [--clients 40] [--seconds 30] [--warmup 5]
//                        [--latency-ms 2000] [--concurrency 5] [--kill-after 10] [--kill-seconds 75]
//                        [--no-kill] [--lock-ms 30000] [--cpu-docs 8] [--cpu-pages 40] [--no-cpu]
//                        [--json out.json]
//
// The workload waits on I/O: every answer goes through the language-model path of the worker to the
// suite's local OpenAI-compatible server (test/integration/support/openai-server.js), which waits
// `--latency-ms` before each completion, as a hosted model does before its first token. A reply then
// costs a fixed wait and little CPU, so a worker's capacity is its slots (WORKER_CONCURRENCY) over
// that wait, and more workers should give proportionally more replies per second.
//
// The second workload uses CPU: ingestion. For each worker count, `--cpu-docs` PDFs of `--cpu-pages`
// pages are uploaded at once through the api (POST /api/v1/bucket) and timed until every one is read
// (status `completed`); each document's ingestion job must have run exactly once (BullMQ: finished,
// one attempt, never stalled) and given the same passages as the same file did in the other rows. On a
// machine with C cores, no more than C workers can help (each reads INGEST_CONCURRENCY files at once).
import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import {
  REDIS_URL,
  ROOT,
  cpuMeter,
  formatCpu,
  log,
  machine,
  ms,
  onCleanup,
  rootRequire,
  runBench,
  sleep,
  summarize,
  table,
  writeJsonIfAsked,
  multipart,
} from './lib/common.mjs';
import { makeDocument } from './lib/pdf-corpus.mjs';
import { call, questionFor, redisServerPid, sseChat, startStack } from './lib/stack.mjs';

const argv = process.argv.slice(2);
if (argv.includes('--help')) {
  process.stdout.write(
    'node bench/scale.mjs [--workers 1,2,4] [--rounds 2] [--clients 40] [--seconds 30] [--warmup 5]\n' +
      '  [--latency-ms 2000] [--concurrency 5] [--kill-after 10] [--kill-seconds 75] [--no-kill] [--lock-ms N]\n' +
      '  [--cpu-docs 8] [--cpu-pages 40] [--no-cpu] [--json out.json]\n',
  );
  process.exit(0);
}
const arg = (name, fallback) => {
  const i = argv.indexOf(`--${name}`);
  if (i < 0) return fallback;
  const v = Number(argv[i + 1]);
  if (!Number.isFinite(v) || v < 0) throw new Error(`--${name} needs a number, not ${argv[i + 1]}`);
  return v;
};
const listArg = (name, fallback) => {
  const i = argv.indexOf(`--${name}`);
  if (i < 0) return fallback;
  const list = String(argv[i + 1] ?? '')
    .split(',')
    .map(Number);
  if (list.length === 0 || list.some((n) => !Number.isInteger(n) || n < 1 || n > 16))
    throw new Error(`--${name} needs a list of worker counts (1–16), e.g. 1,2,4`);
  return list;
};
const WORKERS = listArg('workers', [1, 2, 4]);
const ROUNDS = arg('rounds', 2);
const CLIENTS = arg('clients', 40);
const SECONDS = arg('seconds', 30);
const WARMUP = arg('warmup', 5);
const LATENCY_MS = arg('latency-ms', 2000);
// The product's default (libs/core/src/config.ts) and deploy/kubernetes/config.yaml's value.
const CONCURRENCY = arg('concurrency', 5);
const KILL = !argv.includes('--no-kill');
const KILL_AFTER = arg('kill-after', 10);
// Longer than WORKER_LOCK_DURATION_MS + WORKER_STALLED_INTERVAL_MS (30 s + 30 s by default): the
// killed worker's jobs are handed back within that, and the load goes on meanwhile.
const KILL_SECONDS = arg('kill-seconds', 75);
// Both the lock of a job and the stalled-job check interval; default: the product's (30 s each).
const LOCK_MS = arg('lock-ms', undefined);
const QUEUE = 'assistant-reply';
const CPU = !argv.includes('--no-cpu');
// At most the plan's document limit of one Spark (10 on every plan of the catalogue).
const CPU_DOCS = Math.min(10, arg('cpu-docs', 8));
const CPU_PAGES = arg('cpu-pages', 40);

/**
 * The local OpenAI-compatible server in a process of its own (bench/lib/model-server.cjs). Answers
 * `{ url, pid, calls() }`; `calls()` resolves the number of completions asked so far.
 */
async function startModelServer() {
  const child = spawn(process.execPath, [path.join(ROOT, 'bench/lib/model-server.cjs'), String(LATENCY_MS)], {
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  onCleanup(`stop the model server (pid ${child.pid})`, async () => {
    if (child.exitCode !== null) return;
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  });
  const url = await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      if (out.includes('\n')) resolve(out.trim());
    });
    child.once('exit', (code) => reject(new Error(`the model server exited (${code})`)));
  });
  const calls = () =>
    new Promise((resolve) => {
      child.once('message', (m) => resolve(m.count));
      child.send('count');
    });
  return { url, pid: child.pid, calls };
}

/** The worker processes running now; the first is the stack's own. */
let workers = [];
/** The model server's pid, for the CPU columns. */
let modelPid;

async function setWorkers(stack, queue, n) {
  while (workers.length < n) workers.push(stack.startWorker());
  const stopping = [];
  while (workers.length > n) stopping.push(workers.pop().stop());
  await Promise.all(stopping);
  // Ready when BullMQ sees exactly n consumers of the reply queue (their blocking connections).
  for (let i = 0; ; i++) {
    const count = await queue.getWorkersCount();
    if (count === n) return;
    if (workers.some((w) => !w.isAlive())) throw new Error('a worker process exited');
    if (i >= 600) throw new Error(`expected ${n} workers on ${QUEUE}, BullMQ sees ${count} after 60 s`);
    await sleep(100);
  }
}

/** CPU of the api, all workers together (including ones gone by the end), PostgreSQL, Redis, machine. */
function meterFor(stack, redisPid) {
  const pids = { api: stack.api.child.pid };
  workers.forEach((w, i) => (pids[`worker${i + 1}`] = w.child.pid));
  if (redisPid) pids.redis = redisPid;
  pids.model = modelPid;
  const meter = cpuMeter({ pids, pool: stack.pool, database: new URL(stack.env.DATABASE_URL).pathname.slice(1) });
  return {
    start: () => meter.start(),
    async stop() {
      const c = await meter.stop();
      const out = { api: c.api, workers: 0 };
      for (const [k, v] of Object.entries(c)) {
        if (k.startsWith('worker')) out.workers += Number.isFinite(v) ? v : 0;
        else if (k !== 'api') out[k] = v;
      }
      return out;
    },
  };
}

/**
 * Closed-loop load: every conversation sends its next message as soon as its previous reply is done,
 * from `start` until `stopAt` (ms, performance clock). Resolves every send:
 * `{ conv, sentAt, doneAt, replyTo, doneEvents, error }`.
 */
async function load(stack, convs, stopAt, { timeoutMs = 120_000, perClient = Infinity } = {}) {
  const sends = [];
  await Promise.all(
    convs.map(async (conv) => {
      for (let i = 0; i < perClient && performance.now() < stopAt; i++) {
        const sentAt = performance.now();
        const r = await sseChat(stack.base, conv, questionFor(conv, conv.sent++), timeoutMs);
        if (r.sessionId) conv.conversationId = r.sessionId;
        sends.push({
          conv: conv.n,
          sentAt,
          doneAt: r.error ? NaN : sentAt + r.done,
          replyTo: r.replyTo,
          doneEvents: r.doneEvents,
          error: r.error,
        });
      }
    }),
  );
  return sends;
}

function errorsOf(sends) {
  const errors = sends.filter((s) => s.error);
  if (errors.length) log(`${errors.length} sends failed, e.g. ${errors[0].error}`);
  return errors.length;
}

async function phase(stack, queue, model, redisPid, convs, n, round) {
  await setWorkers(stack, queue, n);
  log(`round ${round}: ${n} worker(s), ${CLIENTS} clients, ${WARMUP} s warm-up + ${SECONDS} s`);
  const calls0 = await model.calls();
  const t0 = performance.now();
  const from = t0 + WARMUP * 1000;
  const to = from + SECONDS * 1000;
  const running = load(stack, convs, to);
  await sleep(from - performance.now());
  const cpu = meterFor(stack, redisPid);
  await cpu.start();
  // Where the messages wait: the reply queue's waiting and active jobs, sampled every 500 ms.
  const samples = [];
  while (performance.now() < to - 250) {
    const c = await queue.getJobCounts('waiting', 'prioritized', 'active');
    samples.push({ waiting: c.waiting + c.prioritized, active: c.active });
    await sleep(Math.min(500, to - performance.now()));
  }
  await sleep(Math.max(0, to - performance.now()));
  const usage = await cpu.stop();
  const mean = (k) => samples.reduce((a, x) => a + x[k], 0) / Math.max(1, samples.length);
  const sends = await running;
  const answered = sends.filter((s) => !s.error);
  const completed = answered.filter((s) => s.doneAt >= from && s.doneAt < to).length;
  const timed = answered.filter((s) => s.sentAt >= from && s.sentAt < to).map((s) => s.doneAt - s.sentAt);
  const throughput = completed / SECONDS;
  return {
    workers: n,
    round,
    slots: n * CONCURRENCY,
    ideal: (n * CONCURRENCY * 1000) / LATENCY_MS,
    throughput,
    ...summarize(timed),
    errors: errorsOf(sends),
    sends: sends.length,
    modelCalls: (await model.calls()) - calls0,
    jobMs: await jobTimes(queue, Date.now() - (performance.now() - from), Date.now() - (performance.now() - to)),
    queued: mean('waiting'),
    active: mean('active'),
    cpu: usage,
  };
}

/**
 * How long the reply jobs that finished between `from` and `to` (epoch ms) held a worker's slot
 * (BullMQ's processedOn → finishedOn): the model's fixed wait plus everything else a reply costs.
 */
async function jobTimes(queue, from, to) {
  const jobs = await queue.getCompleted(0, 999);
  return summarize(
    jobs
      .filter((j) => j.finishedOn >= from && j.finishedOn < to && j.processedOn)
      .map((j) => j.finishedOn - j.processedOn),
  );
}

/**
 * The CPU-bound row: `docs` uploaded at once into a new Spark of a new user, timed until all are read.
 * Answers throughput, CPU, and per file its passages and how its ingestion job ran.
 */
async function ingestRow(stack, queue, ingestion, redisPid, docs, n, round) {
  await setWorkers(stack, queue, n);
  log(`ingestion round ${round}: ${n} worker(s), ${docs.length} PDFs of ${CPU_PAGES} pages at once`);
  const user = await stack.createUser('en');
  const spark = await call(stack.base, 'POST', '/api/v1/sparks', { token: user.token, body: {} });
  const sparkId = spark.body.data._id;
  const cpu = meterFor(stack, redisPid);
  await cpu.start();
  const t0 = performance.now();
  const ids = await Promise.all(
    docs.map(async (doc, i) => {
      const form = multipart({ sparkId, name: `${i}-${doc.name}` }, { name: doc.name, bytes: doc.pdf });
      const res = await fetch(`${stack.base}/api/v1/bucket`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${user.token}`, 'Content-Type': form.type },
        body: form.body,
      });
      const body = await res.json();
      if (res.status !== 201) throw new Error(`upload ${doc.name}: HTTP ${res.status} ${JSON.stringify(body)}`);
      return body.data._id;
    }),
  );
  let rows = [];
  for (let i = 0; ; i++) {
    rows = (
      await stack.pool.query(
        `SELECT d.id, d.status, (SELECT count(*)::int FROM document_chunks c WHERE c.document_id = d.id) AS chunks
           FROM documents d WHERE d.id = ANY($1::uuid[])`,
        [ids],
      )
    ).rows;
    if (rows.some((r) => r.status === 'error')) throw new Error('a document could not be read');
    if (rows.length === ids.length && rows.every((r) => r.status === 'completed')) break;
    if (i >= 6000) throw new Error('the documents were not read within 10 minutes');
    await sleep(100);
  }
  const seconds = (performance.now() - t0) / 1000;
  const usage = await cpu.stop();
  const jobs = [];
  for (const id of ids) {
    const job = await ingestion.getJob(`ingest-${id}`);
    jobs.push({
      finished: Boolean(job?.finishedOn),
      attempts: job?.attemptsMade ?? 0,
      stalled: job?.stalledCounter ?? 0,
      ms: job?.finishedOn && job?.processedOn ? job.finishedOn - job.processedOn : NaN,
    });
  }
  const byId = new Map(rows.map((r) => [r.id, r.chunks]));
  return {
    workers: n,
    round,
    docs: docs.length,
    pages: docs.length * CPU_PAGES,
    seconds,
    pagesPerSecond: (docs.length * CPU_PAGES) / seconds,
    chunks: ids.map((id) => byId.get(id)),
    once: jobs.filter((j) => j.finished && j.attempts === 1 && j.stalled === 0).length,
    jobMs: summarize(jobs.map((j) => j.ms)),
    cpu: usage,
  };
}

/** With 2 workers under load, SIGKILL one of them and follow every message to its answer. */
async function killRun(stack, queue, usageQueue, model, convs, sentBefore) {
  await setWorkers(stack, queue, 2);
  log(`kill run: 2 workers, ${CLIENTS} clients; SIGKILL one after ${KILL_AFTER} s, load for ${KILL_SECONDS} s more`);
  const calls0 = await model.calls();
  const t0 = performance.now();
  const stopAt = t0 + (KILL_AFTER + KILL_SECONDS) * 1000;
  // A stalled job waits for its lock to expire and for the next stalled-job check: give the clients
  // far longer than that before they give up, so that a late answer is not counted as a lost one.
  const lockMs = Number(stack.env.WORKER_LOCK_DURATION_MS ?? 30_000);
  const checkMs = Number(stack.env.WORKER_STALLED_INTERVAL_MS ?? 30_000);
  const running = load(stack, convs, stopAt, { timeoutMs: 2 * (lockMs + checkMs) + 120_000 });
  await sleep(KILL_AFTER * 1000);
  const victim = workers.pop();
  const active = (await queue.getActive()).map((j) => j.id);
  victim.child.stopping = true; // not "exited early": we kill it
  victim.child.kill('SIGKILL');
  const killAt = performance.now();
  log(`SIGKILL worker pid ${victim.child.pid} (${active.length} reply jobs active on both workers)`);
  const sends = await running;
  const drainedAt = performance.now();
  // Let the usage events of the last answers be written before counting them.
  for (let i = 0; i < 300; i++) {
    const c = await usageQueue.getJobCounts('waiting', 'active', 'delayed', 'prioritized');
    if (c.waiting + c.active + c.delayed + c.prioritized === 0) break;
    await sleep(100);
  }

  // The client's view.
  const answered = sends.filter((s) => !s.error);
  const inFlight = answered.filter((s) => s.sentAt < killAt && s.doneAt > killAt);
  // The reply jobs active at the kill: the killed worker's wait for the stalled-job check, which
  // counts the hand-over in the job's `stalledCounter`; the survivor's finish at once.
  const bySend = new Map(answered.map((s) => [`reply-${s.replyTo}`, s]));
  const recovered = [];
  const survivors = [];
  let unknown = 0;
  for (const id of active) {
    const job = await queue.getJob(id);
    const s = bySend.get(id);
    if (!job || !s) unknown += 1;
    else if (job.stalledCounter > 0) recovered.push({ ...s, waited: s.doneAt - killAt, job });
    else survivors.push(s.doneAt - killAt);
  }
  // Jobs handed over as stalled that were not on the killed worker: a live worker's lock that expired
  // (its process starved of CPU for longer than the lock). Harmless for the answers (the reply job is
  // idempotent) but a second model call; none should appear with the default 30 s lock.
  let spurious = 0;
  for (const s of answered) {
    if (active.includes(`reply-${s.replyTo}`)) continue;
    const job = await queue.getJob(`reply-${s.replyTo}`);
    if (job && job.stalledCounter > 0) spurious += 1;
  }
  const waits = recovered.map((r) => r.waited).sort((a, b) => a - b);
  // Answers per 5 s from the start of the run, to see the dip.
  const buckets = [];
  for (const s of answered) {
    const b = Math.floor((s.doneAt - t0) / 5000);
    buckets[b] = (buckets[b] ?? 0) + 1;
  }
  const ids = answered.map((s) => s.replyTo);

  // The database's view: every human message stored since the benchmark began (the warm-up, every
  // row and this run) and the replies and usage events stored for it.
  const db = (
    await stack.pool.query(
      `SELECT count(*)::int AS humans,
              count(*) FILTER (WHERE replies = 0)::int AS unanswered,
              count(*) FILTER (WHERE replies > 1)::int AS answered_twice,
              count(*) FILTER (WHERE offline > 0)::int AS offline_answers,
              count(*) FILTER (WHERE events <> 1)::int AS usage_not_once
         FROM (SELECT h.id,
                      (SELECT count(*) FROM messages r WHERE r.reply_to = h.id) AS replies,
                      (SELECT count(*) FROM messages r WHERE r.reply_to = h.id AND r.data->>'engine' = 'offline') AS offline,
                      (SELECT count(*) FROM usage_events u WHERE u.message_id = h.id) AS events
                 FROM messages h
                WHERE h.type = 'human') x`,
    )
  ).rows[0];
  const inDb = (
    await stack.pool.query(
      `SELECT count(DISTINCT h.id)::int AS n FROM messages h WHERE h.type = 'human' AND h.id = ANY($1::uuid[])`,
      [ids],
    )
  ).rows[0].n;

  return {
    killAfterSeconds: KILL_AFTER,
    loadSeconds: KILL_AFTER + KILL_SECONDS,
    sends: sends.length,
    answered: answered.length,
    errors: errorsOf(sends),
    doneOnce: answered.filter((s) => s.doneEvents === 1).length,
    distinctReplyTo: new Set(ids).size,
    activeAtKill: active.length,
    inFlightAtKill: inFlight.length,
    recovered: recovered.length,
    activeNotFound: unknown,
    recoveredWaitMs: { min: waits[0] ?? NaN, max: waits[waits.length - 1] ?? NaN },
    recoveredAttempts: recovered.map((r) => r.job.attemptsMade),
    survivorsMaxMs: Math.max(0, ...survivors),
    spuriousStalls: spurious,
    drainSeconds: (drainedAt - stopAt) / 1000,
    perFiveSeconds: Array.from(buckets, (v) => v ?? 0),
    killAtSecond: (killAt - t0) / 1000,
    modelCalls: (await model.calls()) - calls0,
    db,
    sentWholeRun: sentBefore + sends.length,
    clientMessagesInDb: inDb,
    lockMs,
    checkMs,
  };
}

runBench(async () => {
  const started = new Date();
  const loadAvg = [os.loadavg()[0]];
  const model = await startModelServer();
  modelPid = model.pid;
  log(`model server ${model.url} (pid ${model.pid}): ${LATENCY_MS} ms per completion`);

  const stack = await startStack('scale', {
    LLM_BASE_URL: model.url,
    LLM_MODEL: 'local-test-server',
    WORKER_CONCURRENCY: String(CONCURRENCY),
    ...(LOCK_MS ? { WORKER_LOCK_DURATION_MS: String(LOCK_MS), WORKER_STALLED_INTERVAL_MS: String(LOCK_MS) } : {}),
  });
  workers = [stack.worker];
  const { Queue } = rootRequire('bullmq');
  const Redis = rootRequire('ioredis');
  const connection = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
  const queue = new Queue(QUEUE, { connection, prefix: stack.prefix });
  const usageQueue = new Queue('usage', { connection, prefix: stack.prefix });
  const ingestionQueue = new Queue('ingestion', { connection, prefix: stack.prefix });
  onCleanup('close the queue handles', async () => {
    await queue.close();
    await usageQueue.close();
    await ingestionQueue.close();
    connection.disconnect();
  });
  const redisPid = await redisServerPid();

  const convs = (await stack.conversations(CLIENTS)).map((c) => ({ ...c, sent: 0 }));
  log('warming up: one message per conversation');
  await setWorkers(stack, queue, Math.max(...WORKERS));
  const warm = await load(stack, convs, Infinity, { perClient: 1 });
  errorsOf(warm);

  // Rounds alternate the order (1, 2, 4, then 4, 2, 1…) so that a drift of the machine's load
  // weighs on every worker count alike.
  const results = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const order = round % 2 === 1 ? WORKERS : [...WORKERS].reverse();
    for (const n of order) results.push(await phase(stack, queue, model, redisPid, convs, n, round));
  }
  loadAvg.push(os.loadavg()[0]);
  // The CPU-bound workload, rounds in alternating order as above; the same files in every row.
  const ingestRows = [];
  if (CPU) {
    const docs = [];
    for (let i = 0; i < CPU_DOCS; i++) docs.push(await makeDocument(i % 2 ? 'es' : 'en', CPU_PAGES, 500 + i));
    for (let round = 1; round <= ROUNDS; round++) {
      const order = round % 2 === 1 ? WORKERS : [...WORKERS].reverse();
      for (const n of order) ingestRows.push(await ingestRow(stack, queue, ingestionQueue, redisPid, docs, n, round));
    }
    loadAvg.push(os.loadavg()[0]);
  }
  const sentBefore = warm.length + results.reduce((a, r) => a + r.sends, 0);
  const kill = KILL ? await killRun(stack, queue, usageQueue, model, convs, sentBefore) : undefined;
  loadAvg.push(os.loadavg()[0]);

  const byWorkers = WORKERS.map((n) => {
    const rows = results.filter((r) => r.workers === n);
    return { workers: n, throughput: rows.reduce((a, r) => a + r.throughput, 0) / rows.length };
  });
  const base = byWorkers.find((b) => b.workers === 1)?.throughput;

  const out = {
    date: started.toISOString(),
    machine: machine(),
    loadAverage1m: loadAvg,
    options: { WORKERS, ROUNDS, CLIENTS, SECONDS, WARMUP, LATENCY_MS, CONCURRENCY, KILL_AFTER, KILL_SECONDS },
    results,
    byWorkers,
    ingestRows,
    kill,
  };
  writeJsonIfAsked(out);

  const lines = [
    `## Worker scale-out (issue 19) — ${started.toISOString().slice(0, 10)}`,
    '',
    `\`node bench/scale.mjs\`: one api, ${WORKERS.join(' / ')} worker processes on the same queues, ` +
      `WORKER_CONCURRENCY ${CONCURRENCY}, the model path against the local OpenAI-compatible server waiting ` +
      `${LATENCY_MS} ms per completion; ${CLIENTS} SSE clients each sending its next message when its reply is done; ` +
      `${WARMUP} s warm-up + ${SECONDS} s timed per row, ${ROUNDS} round(s) in alternating order.`,
    '',
    table(
      [
        ['workers', (r) => String(r.workers)],
        ['round', (r) => String(r.round)],
        ['slots', (r) => String(r.slots)],
        ['replies/s', (r) => r.throughput.toFixed(2)],
        ['ceiling /s', (r) => r.ideal.toFixed(1)],
        ['of ceiling', (r) => `${Math.round((100 * r.throughput) / r.ideal)} %`],
        ['jobs waiting / active (mean)', (r) => `${r.queued.toFixed(1)} / ${r.active.toFixed(1)}`],
        ['job p50 / p95 ms', (r) => `${ms(r.jobMs.p50)} / ${ms(r.jobMs.p95)}`],
        ['n', (r) => String(r.n)],
        ['p50 ms', (r) => ms(r.p50)],
        ['p95 ms', (r) => ms(r.p95)],
        ['max ms', (r) => ms(r.max)],
        ['errors', (r) => String(r.errors)],
        ['CPU in cores', (r) => formatCpu(r.cpu)],
      ],
      results,
    ),
    '',
    `Mean throughput: ${byWorkers
      .map(
        (b) =>
          `${b.workers} worker(s) ${b.throughput.toFixed(2)}/s${base ? ` (${(b.throughput / base).toFixed(2)}×)` : ''}`,
      )
      .join(', ')}. "Ceiling" is slots × 1000 / ${LATENCY_MS} ms: what the workers could do if a reply cost ` +
      `nothing but the model's wait. Load average (1 min) at start / after the rows / at the end: ${loadAvg
        .map((v) => v.toFixed(2))
        .join(' / ')}.`,
  ];
  if (ingestRows.length) {
    const sameChunks = ingestRows.every((r) => r.chunks.join() === ingestRows[0].chunks.join());
    const exactlyOnce = ingestRows.every((r) => r.once === r.docs);
    const mean = (n) => {
      const rows = ingestRows.filter((r) => r.workers === n);
      return rows.reduce((a, r) => a + r.pagesPerSecond, 0) / rows.length;
    };
    const one = mean(1);
    lines.push(
      '',
      `### Ingestion (CPU-bound): ${CPU_DOCS} PDFs of ${CPU_PAGES} pages uploaded at once per row`,
      '',
      table(
        [
          ['workers', (r) => String(r.workers)],
          ['round', (r) => String(r.round)],
          ['pages', (r) => String(r.pages)],
          ['all read in s', (r) => r.seconds.toFixed(1)],
          ['pages/s', (r) => r.pagesPerSecond.toFixed(1)],
          ['job p50 / max ms', (r) => `${ms(r.jobMs.p50)} / ${ms(r.jobMs.max)}`],
          ['jobs run exactly once', (r) => `${r.once} / ${r.docs}`],
          ['CPU in cores', (r) => formatCpu(r.cpu)],
        ],
        ingestRows,
      ),
      '',
      `Mean: ${WORKERS.map((n) => `${n} worker(s) ${mean(n).toFixed(1)} pages/s${one ? ` (${(mean(n) / one).toFixed(2)}×)` : ''}`).join(', ')}. ` +
        `Every file gave the same passages in every row: ${sameChunks ? 'yes' : '**no**'}; every ingestion job ran exactly once: ${exactlyOnce ? 'yes' : '**no**'}. ` +
        `This machine has ${os.cpus().length} cores.`,
    );
    if (!sameChunks || !exactlyOnce) lines.push('', '**Not every document was read exactly once.**');
  }
  if (kill) {
    const d = kill.db;
    lines.push(
      '',
      `### One of 2 workers killed (SIGKILL) ${kill.killAfterSeconds} s into ${kill.loadSeconds} s of load`,
      '',
      table(
        [
          ['', (r) => r[0]],
          ['', (r) => r[1]],
        ],
        [
          ['messages sent / answered / failed', `${kill.sends} / ${kill.answered} / ${kill.errors}`],
          [
            'each answered send: one `done`, distinct message ids',
            `${kill.doneOnce} / ${kill.answered}, ${kill.distinctReplyTo} distinct`,
          ],
          ['reply jobs active at the kill (both workers)', String(kill.activeAtKill)],
          ['sends in flight at the kill (active or waiting)', String(kill.inFlightAtKill)],
          [
            "active jobs handed over as stalled (the killed worker's; BullMQ `stalledCounter` > 0)",
            `${kill.recovered}, answered ${ms(kill.recoveredWaitMs.min)}–${ms(kill.recoveredWaitMs.max)} ms after the kill`,
          ],
          ["the other active jobs (the survivor's): answered within", `${ms(kill.survivorsMaxMs)} ms of the kill`],
          ["other jobs handed over as stalled (a live worker's lock expired)", String(kill.spuriousStalls)],
          [
            'database, whole benchmark: human messages (sent by the clients) / unanswered / answered twice',
            `${d.humans} (${kill.sentWholeRun}) / ${d.unanswered} / ${d.answered_twice}`,
          ],
          ['database: answered offline (the model path failed)', String(d.offline_answers)],
          ['database: messages without exactly one usage event', String(d.usage_not_once)],
          ['answered sends of this run found in the database', `${kill.clientMessagesInDb} / ${kill.distinctReplyTo}`],
          ['model calls / messages sent', `${kill.modelCalls} / ${kill.sends}`],
          [
            'answers per 5 s (kill in slot)',
            `${kill.perFiveSeconds.join(' ')} (${Math.floor(kill.killAtSecond / 5) + 1})`,
          ],
          [
            'lock duration / stalled-job check interval',
            `${kill.lockMs} ms / ${kill.checkMs} ms (WORKER_LOCK_DURATION_MS / WORKER_STALLED_INTERVAL_MS)`,
          ],
        ],
      ).replace('|  |  |\n| --- | --- |', '| check | result |\n| --- | --- |'),
    );
    const exact =
      kill.errors === 0 &&
      d.unanswered === 0 &&
      d.answered_twice === 0 &&
      d.usage_not_once === 0 &&
      d.offline_answers === 0 &&
      kill.doneOnce === kill.answered &&
      kill.distinctReplyTo === kill.answered &&
      kill.clientMessagesInDb === kill.answered &&
      d.humans === kill.sentWholeRun;
    lines.push('', exact ? 'Every message got exactly one answer.' : '**Not every message got exactly one answer.**');
  }
  process.stdout.write(`${lines.join('\n')}\n`);
  // runBench exits 1 on a thrown error (after the cleanup), 0 otherwise.
  if (lines.some((l) => l.startsWith('**Not')))
    throw new Error('not every message got exactly one answer, or not every document was read exactly once');
});
