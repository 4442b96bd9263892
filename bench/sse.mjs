#!/usr/bin/env node
// SSE chat latency: time from sending a test-chat message to the first `data:` event (the history)
// and to the `done` event, with the offline answer engine, at 1, 50 and 200 conversations at once.
// See bench/README.md.
//
//   node bench/sse.mjs [--levels 1,50,200] [--rounds 5] [--steady-seconds 30] [--think-seconds 5] [--json out.json]
import os from 'node:os';
import {
  STAT_COLUMNS,
  log,
  machine,
  ms,
  runBench,
  sleep,
  summarize,
  table,
  writeJsonIfAsked,
  rng,
  formatCpu,
  cpuOverRounds,
} from './lib/common.mjs';
import { questionFor, sseChat, startStack } from './lib/stack.mjs';

const argv = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const LEVELS = argv('levels', '1,50,200').split(',').map(Number);
const ROUNDS = Number(argv('rounds', 5));
/** Sends timed one after the other at level 1. */
const SEQUENTIAL = Number(argv('sequential', 60));
/** Duration of the steady-load run (200 conversations, a message every ~5 s each); 0 skips it. */
const STEADY_SECONDS = Number(argv('steady-seconds', 30));
/** Mean pause of each steady conversation between a reply and its next message. */
const STEADY_THINK_MS = Number(argv('think-seconds', 5)) * 1000;
const GOAL_MS = 50;

function collect(level, mode, samples, cpu) {
  const ok = samples.filter((s) => !s.error);
  const errors = samples.filter((s) => s.error);
  if (errors.length) log(`${mode} ${level}: ${errors.length} errors, e.g. ${errors[0].error}`);
  return {
    level,
    mode,
    first: summarize(ok.map((s) => s.first)),
    done: summarize(ok.map((s) => s.done)),
    errors: errors.length,
    cpu,
    // CPU milliseconds each message cost every process (over the timed stretches).
    cpuMsPerMessage: Object.fromEntries(
      Object.entries(cpu)
        .filter(([k]) => !['cores', 'wall', 'machine'].includes(k))
        .map(([k, v]) => [k, (v * cpu.wall * 1000) / Math.max(1, samples.length)]),
    ),
  };
}

async function burst(stack, convs, sendNo) {
  return Promise.all(
    convs.map(async (conv) => {
      const r = await sseChat(stack.base, conv, questionFor(conv, sendNo));
      if (r.sessionId) conv.conversationId = r.sessionId;
      return r;
    }),
  );
}

runBench(async () => {
  const started = new Date();
  const load = [os.loadavg()[0]];
  const stack = await startStack('sse');
  const max = Math.max(...LEVELS, STEADY_SECONDS > 0 ? 200 : 0);
  log(`creating ${max} test conversations`);
  const convs = await stack.conversations(max);

  // Warm-up: every conversation is created and every code path is hot before anything is timed.
  log('warming up');
  let sendNo = 0;
  for (let i = 0; i < convs.length; i += 20) await burst(stack, convs.slice(i, i + 20), sendNo);
  sendNo++;
  for (let i = 0; i < 10; i++) await burst(stack, convs.slice(0, 1), sendNo++);
  await sleep(1000);

  const results = [];
  for (const level of LEVELS) {
    const samples = [];
    const cpu = cpuOverRounds(stack.meter);
    if (level === 1) {
      log(`level 1: ${SEQUENTIAL} sends one after the other`);
      // Round the conversations, so that histories are as long as at the other levels.
      for (let i = 0; i < SEQUENTIAL; i++) {
        samples.push(...(await cpu.measure(() => burst(stack, [convs[i % convs.length]], sendNo))));
        await sleep(50);
      }
      sendNo++;
    } else {
      log(`level ${level}: ${ROUNDS} rounds of ${level} sends at once`);
      for (let round = 0; round < ROUNDS; round++) {
        samples.push(...(await cpu.measure(() => burst(stack, convs.slice(0, level), sendNo))));
        sendNo++;
        await sleep(500);
      }
    }
    results.push(collect(level, 'burst', samples, cpu.result()));
    await sleep(1000);
  }

  // Steady load: 200 conversations, each sending its next message a random while (mean 5 s) after
  // its last reply, as people typing do. Bounded by STEADY_SECONDS.
  if (STEADY_SECONDS > 0) {
    log(`steady: 200 conversations for ${STEADY_SECONDS} s`);
    const r = rng(7);
    const samples = [];
    const cpu = stack.meter();
    await cpu.start();
    const begin = performance.now();
    const deadline = begin + STEADY_SECONDS * 1000;
    await Promise.all(
      convs.slice(0, 200).map(async (conv) => {
        await sleep(r() * STEADY_THINK_MS);
        for (let i = 0; i < 1000 && performance.now() < deadline; i++) {
          const at = performance.now() - begin;
          const res = await sseChat(stack.base, conv, questionFor(conv, sendNo + i));
          samples.push({ ...res, at });
          const think = -Math.log(1 - r()) * STEADY_THINK_MS;
          // A conversation whose next message would come after the deadline ends here. (Sleeping until
          // the deadline instead made every such conversation wake together and send at once: a burst
          // of dozens of sends at the last instant, timed as if it were steady load.)
          if (performance.now() + think >= deadline) break;
          await sleep(think);
        }
      }),
    );
    const steady = collect(200, 'steady', samples, await cpu.stop());
    // Slowest first event of each 5-second slice: a stall shows as one slice, queueing as many.
    steady.slices = Array.from({ length: Math.ceil(STEADY_SECONDS / 5) }, (_, n) => {
      const inSlice = samples.filter((x) => !x.error && x.at >= n * 5000 && x.at < (n + 1) * 5000);
      return { from: n * 5, sends: inSlice.length, ...summarize(inSlice.map((x) => x.first)) };
    });
    results.push(steady);
  }
  load.push(os.loadavg()[0]);

  const baseline = results.find((x) => x.level === 1 && x.mode === 'burst')?.first.p50 ?? NaN;
  for (const x of results) {
    x.addedP99 = x.first.p99 - baseline;
    x.goalMet = x.level === 200 ? x.addedP99 <= GOAL_MS : undefined;
  }
  const out = {
    date: started.toISOString(),
    machine: machine(),
    loadAverage1m: load,
    workerConcurrency: 5,
    thinkSeconds: STEADY_THINK_MS / 1000,
    baselineP50: baseline,
    results,
  };
  writeJsonIfAsked(out);
  print(out);
});

function print(out) {
  const label = (x) =>
    x.mode === 'steady' ? `200 (steady, ~1 msg / ${out.thinkSeconds} s each)` : `${x.level} at once`;
  const lines = [
    '## SSE test chat — offline engine',
    '',
    `Baseline (1 conversation) first-event p50: ${ms(out.baselineP50)} ms. Added latency = p99 under load − baseline p50; goal ≤ ${GOAL_MS} ms at 200.`,
    '',
    '### Send → first `data:` event (history)',
    '',
    table(
      [
        ['conversations', label],
        ...STAT_COLUMNS.map(([h, f]) => [h, (x) => f(x.first)]),
        ['added p99 ms', (x) => (x.level === 1 ? '–' : ms(x.addedP99))],
        ['goal (200)', (x) => (x.goalMet === undefined ? '–' : x.goalMet ? 'met' : 'missed')],
        ['errors', (x) => String(x.errors)],
      ],
      out.results,
    ),
    '',
    '### Send → `done` event (reply complete)',
    '',
    table(
      [
        ['conversations', label],
        ...STAT_COLUMNS.map(([h, f]) => [h, (x) => f(x.done)]),
        ['CPU in cores (1 = one core all along)', (x) => formatCpu(x.cpu)],
        [
          'CPU ms per message',
          (x) =>
            Object.entries(x.cpuMsPerMessage)
              .map(([k, v]) => `${k} ${v.toFixed(1)}`)
              .join(' · '),
        ],
      ],
      out.results,
    ),
    '',
    ...out.results
      .filter((x) => x.slices)
      .map(
        (x) =>
          `Steady run, first event by 5-second slice (p99 / max ms): ${x.slices
            .map((sl) => `${sl.from} s: ${ms(sl.p99)} / ${ms(sl.max)}`)
            .join(' · ')}.`,
      ),
    '',
    `Load average (1 min) before / after: ${out.loadAverage1m.map((v) => v.toFixed(2)).join(' / ')}.`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}
