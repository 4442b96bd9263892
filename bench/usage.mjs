#!/usr/bin/env node
// Usage events recorded per second through the `usage` queue (issue 15: goal ≥ 5,000/s, every one
// counted exactly once), with the real worker process consuming `usage.record`, side by side with a
// bare BullMQ worker whose processor does nothing (the queue's own ceiling on this machine).
// See bench/README.md.
//
//   node bench/usage.mjs [--events 20000] [--tenants 20] [--rounds 3] [--usage-concurrency 500] [--json out.json]
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import {
  cpuSeconds,
  log,
  machineCpu,
  machine,
  REDIS_URL,
  rootRequire,
  runBench,
  scratchRedisPrefix,
  sleep,
  table,
  writeJsonIfAsked,
  onCleanup,
} from './lib/common.mjs';
import { startChild, startStack } from './lib/stack.mjs';

const argv = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const EVENTS = Number(argv('events', 20000));
const TENANTS = Number(argv('tenants', 20));
const ROUNDS = Number(argv('rounds', 3));
/** The worker's USAGE_CONCURRENCY (the product's default is 500); the reference gets the same. */
const CONCURRENCY = Number(argv('usage-concurrency', 500));
/** Jobs added at once by the producer (the api adds one per answered message, many requests at a time). */
const IN_FLIGHT = 200;
const GOAL = 5000;
const TIMEOUT_MS = 20 * 60_000;

const { JobProducer, DEFAULT_JOB_OPTIONS } = rootRequire('./libs/queues/dist/index.js');
const { Queue } = rootRequire('bullmq');
const Redis = rootRequire('ioredis');

/** Adds `jobs` with `add`, IN_FLIGHT at a time; answers when all are in Redis. */
async function addAll(items, add) {
  let next = 0;
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next < items.length) await add(items[next++]);
    }),
  );
}

/** Waits until `queue` has nothing waiting, active or delayed, and `done()` (if given) agrees. */
async function drained(queue, done = async () => true) {
  const deadline = Date.now() + TIMEOUT_MS;
  for (;;) {
    const c = await queue.getJobCounts('wait', 'active', 'delayed', 'prioritized', 'paused');
    if (Object.values(c).every((n) => n === 0) && (await done())) return;
    if (Date.now() > deadline) throw new Error(`the queue did not drain within ${TIMEOUT_MS / 60000} min`);
    await sleep(20);
  }
}

/** CPU (in cores) of `pids` and of the whole machine from now until the returned function is called. */
function cpuOf(pids) {
  const at = performance.now();
  const begin = Object.fromEntries(Object.entries(pids).map(([k, pid]) => [k, cpuSeconds(pid)]));
  const m0 = machineCpu();
  return () => {
    const wall = (performance.now() - at) / 1000;
    const out = Object.fromEntries(Object.entries(pids).map(([k, pid]) => [k, (cpuSeconds(pid) - begin[k]) / wall]));
    out.machine = (machineCpu().busy - m0.busy) / wall;
    return out;
  };
}

runBench(async () => {
  const stack = await startStack('usage', { USAGE_CONCURRENCY: String(CONCURRENCY) });
  const { pool } = stack;

  log(`${TENANTS} tenants`);
  const tenants = [];
  for (let i = 0; i < TENANTS; i++) {
    const user = await stack.createUser(i % 2 ? 'en' : 'es');
    tenants.push((await pool.query('SELECT id FROM tenants WHERE user_id = $1', [user.userId])).rows[0].id);
  }

  const connection = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
  onCleanup('close redis', () => connection.disconnect());
  const producer = new JobProducer(connection, stack.prefix);
  onCleanup('close producer', () => producer.close());
  const usageQueue = producer.queue('usage');

  // The reference: a bare BullMQ worker (no-op processor) in its own process, same Redis, same
  // concurrency, same job options, fed the same way.
  const refPrefix = scratchRedisPrefix('usage-ref');
  const refQueue = new Queue('reference', { connection, prefix: refPrefix, defaultJobOptions: DEFAULT_JOB_OPTIONS });
  onCleanup('close reference queue', () => refQueue.close());
  const refWorker = startChild(
    'noop worker',
    'bench/lib/noop-worker.mjs',
    { PATH: process.env.PATH, HOME: process.env.HOME },
    ['reference', refPrefix, String(CONCURRENCY)],
  );
  onCleanup('stop noop worker', () => refWorker.stop());

  const counts = async () =>
    (
      await pool.query(`SELECT (SELECT count(*)::int FROM usage_events) AS events,
                               (SELECT count(DISTINCT message_id)::int FROM usage_events) AS messages,
                               (SELECT COALESCE(sum(usage_interactions), 0)::int FROM tenants) AS counted,
                               (SELECT count(*)::int FROM usage_reservations) AS holds`)
    ).rows[0];

  const meterPids = { worker: stack.worker.child.pid, noop: refWorker.child.pid };
  const rounds = [];
  for (let round = 1; round <= ROUNDS; round++) {
    // — the product: settled holds (what an answered message leaves), then usage.record per message —
    const messageIds = Array.from({ length: EVENTS }, () => randomUUID());
    await pool.query(
      `INSERT INTO usage_reservations (id, tenant_id, source, message_id, settled_at)
       SELECT gen_random_uuid(), ($1::uuid[])[1 + (i % cardinality($1::uuid[]))], 'plan', m, now()
       FROM unnest($2::uuid[]) WITH ORDINALITY AS x(m, i)`,
      [tenants, messageIds],
    );
    const before = await counts();
    const cpu = cpuOf(meterPids);
    let t0 = performance.now();
    await addAll(messageIds, (messageId) => producer.enqueue('usage.record', { messageId }));
    const addedProduct = performance.now() - t0;
    await drained(usageQueue, async () => (await counts()).events - before.events === EVENTS);
    const productMs = performance.now() - t0;
    const productCpu = cpu();
    const after = await counts();

    // Every message once more under another job id: recorded already, so nothing may change.
    const again = messageIds.slice(0, Math.min(2000, EVENTS));
    await addAll(again, (messageId) =>
      usageQueue.add('usage.record', { messageId }, { jobId: `again-${round}-${messageId}` }),
    );
    await drained(usageQueue);
    const afterAgain = await counts();

    // — the reference —
    const refCpu = cpuOf(meterPids);
    t0 = performance.now();
    await addAll(messageIds, (messageId) => refQueue.add('noop', { messageId }, { jobId: `ref-${messageId}` }));
    const addedRef = performance.now() - t0;
    await drained(refQueue);
    const refMs = performance.now() - t0;
    const refCpuUse = refCpu();

    const exact =
      after.events - before.events === EVENTS &&
      after.messages - before.messages === EVENTS &&
      after.counted - before.counted === EVENTS &&
      after.holds === 0 &&
      afterAgain.events === after.events &&
      afterAgain.counted === after.counted;
    const r = {
      round,
      events: EVENTS,
      productPerSecond: EVENTS / (productMs / 1000),
      productAddMs: addedProduct,
      productMs,
      referencePerSecond: EVENTS / (refMs / 1000),
      referenceAddMs: addedRef,
      referenceMs: refMs,
      recorded: after.events - before.events,
      distinct: after.messages - before.messages,
      counted: after.counted - before.counted,
      holdsLeft: after.holds,
      duplicatesAdded: again.length,
      changedByDuplicates: afterAgain.events - after.events + (afterAgain.counted - after.counted),
      exact,
      productCpu,
      referenceCpu: refCpuUse,
    };
    log(
      `round ${round}: usage ${r.productPerSecond.toFixed(0)}/s (${exact ? 'exact' : 'NOT EXACT'}), ` +
        `bare BullMQ ${r.referencePerSecond.toFixed(0)}/s`,
    );
    rounds.push(r);
  }

  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const result = {
    machine: machine(),
    loadAverage: os.loadavg(),
    events: EVENTS,
    tenants: TENANTS,
    concurrency: CONCURRENCY,
    rounds,
    medianProduct: median(rounds.map((r) => r.productPerSecond)),
    medianReference: median(rounds.map((r) => r.referencePerSecond)),
    allExact: rounds.every((r) => r.exact),
  };
  writeJsonIfAsked(result);

  const m = result.machine;
  const n0 = (v) => v.toFixed(0);
  process.stdout.write(
    [
      `## Usage events recorded per second through the \`usage\` queue (issue 15)`,
      '',
      `${m.cpus} × ${m.cpuModel}, ${m.memory}, Node ${m.node}, ${m.postgres}; load average ` +
        `${result.loadAverage.map((l) => l.toFixed(1)).join(' / ')} at the end. ${EVENTS} events a round over ` +
        `${TENANTS} tenants, \`usage\` queue concurrency ${CONCURRENCY} (the reference's too), ${IN_FLIGHT} adds in flight.`,
      '',
      table(
        [
          ['round', (r) => String(r.round)],
          ['usage.record /s', (r) => n0(r.productPerSecond)],
          ['bare BullMQ no-op /s', (r) => n0(r.referencePerSecond)],
          ['usage / bare', (r) => `${((100 * r.productPerSecond) / r.referencePerSecond).toFixed(0)} %`],
          ['recorded / distinct / counted', (r) => `${r.recorded} / ${r.distinct} / ${r.counted}`],
          ['holds left', (r) => String(r.holdsLeft)],
          ['re-added → changes', (r) => `${r.duplicatesAdded} → ${r.changedByDuplicates}`],
          ['exact', (r) => (r.exact ? 'yes' : '**no**')],
          ['worker CPU (cores)', (r) => r.productCpu.worker.toFixed(2)],
          [
            'machine CPU usage / bare',
            (r) => `${r.productCpu.machine.toFixed(2)} / ${r.referenceCpu.machine.toFixed(2)}`,
          ],
        ],
        rounds,
      ),
      '',
      `Median: ${n0(result.medianProduct)} usage events/s vs ${n0(result.medianReference)} no-op jobs/s; ` +
        `goal ${GOAL}/s ${result.medianProduct >= GOAL ? 'met' : '**not met**'}; ` +
        `every event counted exactly once: ${result.allExact ? 'yes' : '**no**'}.`,
      '',
    ].join('\n'),
  );
  if (!result.allExact) throw new Error('usage events were not counted exactly once');
});
