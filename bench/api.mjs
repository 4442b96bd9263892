#!/usr/bin/env node
// The request path (issue 14, item 8): authenticated `GET /api/v1/sparks` on the built api, against a
// bare node:http + pg server doing the same work (bench/lib/bare-api.mjs: the same HS256 check of the
// same token, the same three queries), on the same database, measured with wrk in interleaved runs.
// See bench/README.md.
//
//   node bench/api.mjs [--rounds 3] [--seconds 10] [--connections 20] [--sparks 5] [--log-level info]
//                      [--profile <dir>] [--fastify-floor] [--json out.json]
//
// --fastify-floor adds a fifth server: the same floor as "bare through Nest" on Nest's Fastify adapter. That
// adapter is no dependency of the project (docs/decisions.md: the api stays on Express); install it for the
// run only: `npm i --no-save @nestjs/platform-fastify@11`.
import { spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import net from 'node:net';
import path from 'node:path';
import { ROOT, cpuSeconds, log, machine, onCleanup, runBench, sleep, table, writeJsonIfAsked } from './lib/common.mjs';
import { call, startStack } from './lib/stack.mjs';

const argv = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const ROUNDS = Number(argv('rounds', 3));
const SECONDS = Number(argv('seconds', 10));
const CONNECTIONS = Number(argv('connections', 20));
const SPARKS = Number(argv('sparks', 5));
// The goal (issue 36 item 7): the api at ≥ 85 % of "bare through Nest" — the bare server's work through NestJS on
// Express — in requests per second and in CPU per request, in the same run.
const GOAL = 0.85;
const FLOOR = 'bare through Nest';

function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.unref();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

async function startBare(label, env, script = 'bench/lib/bare-api.mjs') {
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(ROOT, script)], {
    env: { ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  onCleanup(`stop ${label} (pid ${child.pid})`, () => child.kill('SIGTERM'));
  await new Promise((resolve, reject) => {
    child.stdout.once('data', resolve);
    child.once('exit', (code) => reject(new Error(`${label} exited (${code})`)));
  });
  return { base: `http://127.0.0.1:${port}`, pid: child.pid };
}

/** wrk's throughput and latency percentiles for one run. */
function wrk(url, token) {
  const out = spawnSync(
    'wrk',
    ['-t2', `-c${CONNECTIONS}`, `-d${SECONDS}s`, '--latency', '-H', `Authorization: Bearer ${token}`, url],
    { encoding: 'utf8' },
  );
  if (out.error) throw new Error(`wrk: ${out.error.message} (apt-get install -y wrk)`);
  const text = out.stdout;
  const unit = (v, u) => Number(v) * ({ us: 0.001, ms: 1, s: 1000 }[u] ?? NaN);
  const pct = (p) => {
    const m = new RegExp(`^\\s+${p}%\\s+([\\d.]+)(us|ms|s)`, 'm').exec(text);
    return m ? unit(m[1], m[2]) : NaN;
  };
  const errors = /Non-2xx or 3xx responses: (\d+)/.exec(text);
  const socket = /Socket errors: (.*)/.exec(text);
  return {
    rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(text)?.[1]),
    p50: pct(50),
    p99: pct(99),
    requests: Number(/(\d+) requests in/.exec(text)?.[1]),
    non2xx: errors ? Number(errors[1]) : 0,
    socketErrors: socket ? socket[1] : '',
  };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

runBench(async () => {
  const jwtSecret = randomUUID();
  const logLevel = argv('log-level', 'info');
  // --profile <dir>: every server (and the api's worker) writes a V8 CPU profile there when it stops.
  const profile = argv('profile', undefined);
  const profileEnv = profile
    ? {
        NODE_OPTIONS: `--require ${path.join(ROOT, 'bench/lib/cpu-profile.cjs')}`,
        CPU_PROFILE_DIR: path.resolve(profile),
      }
    : {};
  const stack = await startStack('api', { JWT_SECRET: jwtSecret, LOG_LEVEL: logLevel, ...profileEnv });
  const user = await stack.createUser('en');
  for (let i = 0; i < SPARKS; i++) {
    const res = await call(stack.base, 'POST', '/api/v1/sparks', { token: user.token, body: {} });
    if (res.status !== 201) throw new Error(`create Spark: ${res.status}`);
  }
  const databaseUrl = stack.pool.options.connectionString;
  const bareEnv = { PATH: process.env.PATH, DATABASE_URL: databaseUrl, JWT_SECRET: jwtSecret, ...profileEnv };
  const servers = {
    api: { base: stack.base, pid: stack.api.child.pid },
    bare: await startBare('bare', bareEnv),
    'bare, prepared': await startBare('bare, prepared', { ...bareEnv, BARE_PREPARED: 'true' }),
    // The bare server's work through NestJS on Express (guard, controller, interceptor): the framework's floor.
    'bare through Nest': await startBare('bare through Nest', bareEnv, 'bench/lib/nest-floor.mjs'),
    ...(process.argv.includes('--fastify-floor')
      ? {
          'bare through Nest on Fastify': await startBare(
            'bare through Nest on Fastify',
            { ...bareEnv, NEST_FLOOR_ADAPTER: 'fastify' },
            'bench/lib/nest-floor.mjs',
          ),
        }
      : {}),
  };
  const route = '/api/v1/sparks';
  for (const [name, { base }] of Object.entries(servers)) {
    const res = await call(base, 'GET', route, { token: user.token });
    if (res.status !== 200) throw new Error(`${name}: GET ${route} answered ${res.status}`);
    log(`${name}: ${res.status}, warming up`);
    wrk(base + route, user.token); // warm-up run, not counted
  }
  const runs = Object.fromEntries(Object.keys(servers).map((k) => [k, []]));
  for (let round = 1; round <= ROUNDS; round++) {
    for (const [name, { base, pid }] of Object.entries(servers)) {
      // The server's own CPU time per request: what it costs, whatever else the machine is doing.
      const cpuBefore = cpuSeconds(pid);
      const r = wrk(base + route, user.token);
      r.cpuUsPerRequest = ((cpuSeconds(pid) - cpuBefore) / r.requests) * 1e6;
      log(
        `round ${round} ${name}: ${r.rps.toFixed(0)} req/s, p99 ${r.p99.toFixed(1)} ms, ` +
          `${r.cpuUsPerRequest.toFixed(0)} µs CPU/request`,
      );
      runs[name].push(r);
      await sleep(1000);
    }
  }
  const summary = Object.fromEntries(
    Object.entries(runs).map(([name, rs]) => [
      name,
      {
        rps: median(rs.map((r) => r.rps)),
        p50: median(rs.map((r) => r.p50)),
        p99: median(rs.map((r) => r.p99)),
        cpu: median(rs.map((r) => r.cpuUsPerRequest)),
        non2xx: rs.reduce((n, r) => n + r.non2xx, 0),
        runs: rs,
      },
    ]),
  );
  const ratio = (name) => summary.api.rps / summary[name].rps;
  const cpuRatio = (name) => summary[name].cpu / summary.api.cpu;
  const m = machine();
  console.log(`## Authenticated GET /api/v1/sparks: the api vs a bare node:http + pg server\n`);
  console.log(
    `${m.cpus} × ${m.cpuModel}, ${m.memory}, Node ${m.node}, ${m.postgres}; ${new Date().toISOString().slice(0, 10)}; ` +
      `wrk -t2 -c${CONNECTIONS} -d${SECONDS}s, ${ROUNDS} interleaved rounds after a warm-up run each (medians); ` +
      `${SPARKS} Sparks on the page; api LOG_LEVEL=${logLevel}.\n`,
  );
  const rows = Object.entries(summary).map(([name, s]) => ({ name, ...s }));
  console.log(
    table(
      [
        ['server', (r) => r.name],
        ['req/s', (r) => r.rps.toFixed(0)],
        ['p50 ms', (r) => r.p50.toFixed(1)],
        ['p99 ms', (r) => r.p99.toFixed(1)],
        ['CPU µs/request', (r) => r.cpu.toFixed(0)],
        ['non-2xx', (r) => String(r.non2xx)],
        ['api / this (req/s)', (r) => (r.name === 'api' ? '' : `${(ratio(r.name) * 100).toFixed(0)} %`)],
        ['this / api (CPU per request)', (r) => (r.name === 'api' ? '' : `${(cpuRatio(r.name) * 100).toFixed(0)} %`)],
      ],
      rows,
    ),
  );
  const met = (x) => (x >= GOAL ? 'met' : 'not met');
  console.log(
    `\nGoal: the api at ≥ ${GOAL * 100} % of "${FLOOR}" (the framework's floor) in req/s and in CPU per request: ` +
      `${(ratio(FLOOR) * 100).toFixed(0)} % (${met(ratio(FLOOR))}) and ${(cpuRatio(FLOOR) * 100).toFixed(0)} % ` +
      `(${met(cpuRatio(FLOOR))}); p99 api ${summary.api.p99.toFixed(1)} ms, floor ${summary[FLOOR].p99.toFixed(1)} ms. ` +
      `On a busy machine throughput follows the load of the moment; the CPU time each server spends per request ` +
      `(from /proc) does not, and is the steadier figure.`,
  );
  writeJsonIfAsked({ machine: m, connections: CONNECTIONS, seconds: SECONDS, rounds: ROUNDS, summary });
});
