#!/usr/bin/env node
// Runs every benchmark, one after the other, and prints one Markdown report.
//
//   node bench/run.mjs [--build] [--quick] [--out report.md]
//
// --build  builds the api and the worker first (npx tsc -b api/tsconfig.json worker/tsconfig.json)
// --quick  small sizes, to check that everything works (about a minute; the numbers mean little)
// --wait-idle  before each benchmark, wait (up to 15 min) until other processes leave the CPU alone
// --out    also writes the report to that file
//
// bundle.mjs (issue 7, the JavaScript a route loads) builds web/ itself and needs neither the services nor a
// quiet machine; it fails the run when a route is over its budget.
import { spawn, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT, log, machine, waitForIdle } from './lib/common.mjs';

const args = process.argv.slice(2);
const outIndex = args.indexOf('--out');
const outFile = outIndex >= 0 ? args[outIndex + 1] : undefined;
const quick = args.includes('--quick');

const BENCHES = [
  ['retrieval.mjs', quick ? ['--scale', '1000', '--calls', '50'] : []],
  ['sse.mjs', quick ? ['--levels', '1,10', '--rounds', '2', '--sequential', '10', '--steady-seconds', '5'] : []],
  ['chat-roundtrip.mjs', quick ? ['--sequential', '20', '--concurrency', '5', '--per-client', '4'] : []],
  ['ingestion.mjs', quick ? ['--quick', '--runs', '1'] : []],
  ['bundle.mjs', []],
];
/** Sizes, not times: no need to wait for a quiet machine. */
const UNTIMED = new Set(['bundle.mjs']);

if (args.includes('--build')) {
  const r = spawnSync('npx', ['tsc', '-b', 'api/tsconfig.json', 'worker/tsconfig.json'], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

let current;
const forward = (signal) => () => {
  if (current) current.kill(signal);
  else process.exit(1);
};
process.on('SIGINT', forward('SIGINT'));
process.on('SIGTERM', forward('SIGTERM'));

const m = machine();
const report = [
  `# Sparks benchmarks — ${new Date().toISOString()}`,
  '',
  `${m.cpus} × ${m.cpuModel}, ${m.memory} RAM, ${m.os}; Node ${m.node}; ${m.postgres}; ${m.redis}`,
  '',
];
let failed = 0;
for (const [script, extra] of BENCHES) {
  if (args.includes('--wait-idle') && !UNTIMED.has(script) && !(await waitForIdle()))
    log('the machine stayed busy for 15 minutes: running anyway (see "other processes" in the report)');
  const started = Date.now();
  process.stderr.write(`\n=== ${script} ${extra.join(' ')}\n`);
  const output = await new Promise((resolve) => {
    const chunks = [];
    current = spawn(process.execPath, [path.join(ROOT, 'bench', script), ...extra], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    current.stdout.on('data', (c) => {
      chunks.push(c);
      process.stdout.write(c);
    });
    current.on('exit', (code, signal) => {
      current = undefined;
      if (code !== 0) {
        failed++;
        process.stderr.write(`${script} failed (${code ?? signal})\n`);
      }
      resolve(Buffer.concat(chunks).toString('utf8'));
    });
  });
  report.push(output.trim(), '', `_${script}: ${((Date.now() - started) / 1000).toFixed(0)} s_`, '');
}
if (outFile) writeFileSync(outFile, `${report.join('\n')}\n`);
process.exit(failed ? 1 : 0);
