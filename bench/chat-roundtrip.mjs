#!/usr/bin/env node
// JSON chat round trip: POST /api/v1/sparks/{sparkId}/chat/{testId} { input: { text }, conversationId }
// answers once the worker's reply is stored. Sequential, then 20 clients at once. See bench/README.md.
//
//   node bench/chat-roundtrip.mjs [--sequential 150] [--concurrency 20] [--per-client 15] [--json out.json]
import os from 'node:os';
import {
  STAT_COLUMNS,
  formatCpu,
  log,
  machine,
  ms,
  runBench,
  sleep,
  summarize,
  table,
  writeJsonIfAsked,
} from './lib/common.mjs';
import { jsonChat, questionFor, startStack } from './lib/stack.mjs';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const SEQUENTIAL = arg('sequential', 150);
const CONCURRENCY = arg('concurrency', 20);
const PER_CLIENT = arg('per-client', 15);

async function send(stack, conv, i) {
  const r = await jsonChat(stack.base, conv, questionFor(conv, i));
  if (r.conversationId) conv.conversationId = r.conversationId;
  return r;
}

function row(label, samples, wallMs, cpu) {
  const ok = samples.filter((s) => !s.error);
  const errors = samples.filter((s) => s.error);
  if (errors.length) log(`${label}: ${errors.length} errors, e.g. ${errors[0].error}`);
  return {
    label,
    ...summarize(ok.map((s) => s.ms)),
    errors: errors.length,
    throughput: ok.length / (wallMs / 1000),
    cpu,
  };
}

runBench(async () => {
  const started = new Date();
  const load = [os.loadavg()[0]];
  const stack = await startStack('chat');
  const convs = await stack.conversations(CONCURRENCY);

  log('warming up');
  await Promise.all(convs.map((c) => send(stack, c, 0)));
  for (let i = 0; i < 10; i++) await send(stack, convs[i % convs.length], 1);
  await sleep(1000);

  const results = [];
  log(`sequential: ${SEQUENTIAL} requests`);
  let cpu = stack.meter();
  await cpu.start();
  let t0 = performance.now();
  const seq = [];
  for (let i = 0; i < SEQUENTIAL; i++) seq.push(await send(stack, convs[i % convs.length], i + 2));
  results.push(row('sequential (1 in flight)', seq, performance.now() - t0, await cpu.stop()));
  await sleep(1000);

  log(`concurrent: ${CONCURRENCY} clients × ${PER_CLIENT} requests`);
  cpu = stack.meter();
  await cpu.start();
  t0 = performance.now();
  const conc = (
    await Promise.all(
      convs.slice(0, CONCURRENCY).map(async (conv) => {
        const mine = [];
        for (let i = 0; i < PER_CLIENT; i++) mine.push(await send(stack, conv, i + 2));
        return mine;
      }),
    )
  ).flat();
  results.push(
    row(`${CONCURRENCY} clients (${CONCURRENCY} in flight)`, conc, performance.now() - t0, await cpu.stop()),
  );
  load.push(os.loadavg()[0]);

  const out = { date: started.toISOString(), machine: machine(), loadAverage1m: load, results };
  writeJsonIfAsked(out);
  const lines = [
    '## JSON chat round trip — POST /api/v1/sparks/{sparkId}/chat/{testId}, offline engine',
    '',
    table(
      [
        ['clients', (r) => r.label],
        ...STAT_COLUMNS,
        ['req/s', (r) => r.throughput.toFixed(1)],
        ['CPU in cores', (r) => formatCpu(r.cpu)],
        ['errors', (r) => String(r.errors)],
      ],
      results,
    ),
    '',
    `Load average (1 min) before / after: ${load.map((v) => v.toFixed(2)).join(' / ')}. Means: ${results
      .map((r) => `${ms(r.mean)} ms`)
      .join(', ')}.`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
});
