import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { eventually } from './harness';
import { ROOT } from './paths';

/**
 * `npm start` as a new user runs it: no DATABASE_URL, no REDIS_URL — the embedded PostgreSQL and a
 * private redis-server with their data in SPARKS_DATA_DIR. The mixed load of bench/mixed-load.mjs
 * (40 clients reading profiles and Spark lists while uploading a 2,000-page PDF now and then) must
 * find every answer to belong to its caller, no 5xx, no 401, nothing hanging and no stuck document;
 * Ctrl-C stops everything cleanly, and a second start finds the data again.
 */
function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

interface Stack {
  child: ChildProcess;
  base: string;
  output: string[];
  exited: Promise<number | null>;
}

/** The environment of a fresh shell: nothing of the integration run's services. */
function freshEnv(dataDir: string, port: number): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const k of ['PATH', 'HOME', 'LANG', 'TMPDIR']) if (process.env[k]) env[k] = process.env[k];
  return {
    ...env,
    PORT: String(port),
    SPARKS_DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    // The load signs 40 users up from one address; a real sign-up never needs this.
    AUTH_RATE_IP_MAX: '100000',
    DNS_CHECK: 'false',
  };
}

async function npmStart(dataDir: string, port: number): Promise<Stack> {
  const child = spawn(process.execPath, [path.join(ROOT, 'scripts', 'start.mjs'), '--no-install', '--no-build'], {
    cwd: ROOT,
    env: freshEnv(dataDir, port),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  const keep = (chunk: Buffer) => output.push(...String(chunk).split('\n').filter(Boolean));
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  await eventually(() => {
    if (child.exitCode !== null) throw new Error(`npm start exited:\n${output.slice(-30).join('\n')}`);
    return Promise.resolve(output.some((l) => l.includes('Sparks is running')));
  }, 120_000);
  return { child, base: `http://127.0.0.1:${port}`, output, exited };
}

async function ctrlC(stack: Stack): Promise<number | null> {
  stack.child.kill('SIGINT');
  return Promise.race([
    stack.exited,
    new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error('npm start did not stop within 60 s')), 60_000),
    ),
  ]);
}

/** Pids of processes whose command line names `dir` (a server left running would show here). */
function processesUsing(dir: string): string[] {
  const r = spawnSync('pgrep', ['-af', dir], { encoding: 'utf8' });
  return r.stdout.split('\n').filter((l) => l && !l.includes('pgrep'));
}

describe('npm start on its embedded default', () => {
  let dataDir: string;
  let stack: Stack | undefined;

  beforeAll(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sparks-npm-start-'));
  });

  afterAll(async () => {
    if (stack && stack.child.exitCode === null) await ctrlC(stack).catch(() => stack!.child.kill('SIGKILL'));
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it(
    'answers every client with its own data under a mixed load, stops cleanly and keeps the data',
    async () => {
      stack = await npmStart(dataDir, await freePort());
      expect(stack.output.join('\n')).toMatch(/embedded PostgreSQL on 127\.0\.0\.1:\d+ \(new cluster\)/);

      const report = path.join(dataDir, 'mixed-load.json');
      const load = spawnSync(
        process.execPath,
        [path.join(ROOT, 'bench', 'mixed-load.mjs'), '--url', stack.base, '--json', report, '--settle-seconds', '300'],
        { cwd: ROOT, encoding: 'utf8', timeout: 10 * 60_000 },
      );
      // The load stops early (no report) when even signing up fails: show why.
      expect({ report: fs.existsSync(report), stderr: load.stderr.slice(-2000) }).toMatchObject({ report: true });
      const results = JSON.parse(fs.readFileSync(report, 'utf8')) as { runs: Array<Record<string, unknown>> };
      const run = results.runs[0];
      const summary = { problems: run.problems, stdout: load.stdout };
      expect({ ...summary, requests: run.requests }).toMatchObject({ requests: 600 });
      expect({
        ...summary,
        wrongOwner: run.wrongOwner,
        server5xx: run.server5xx,
        unauthorized: run.unauthorized,
      }).toMatchObject({
        wrongOwner: 0,
        server5xx: 0,
        unauthorized: 0,
      });
      expect({ ...summary, otherErrors: run.otherErrors, hanging: run.hanging, stuck: run.stuck }).toMatchObject({
        otherErrors: 0,
        hanging: 0,
        stuck: 0,
      });
      expect(run.uploads).toBeGreaterThan(10);
      expect(load.status).toBe(0);

      // Ctrl-C: everything stops, the databases cleanly, and nothing is left running on the data.
      expect(await ctrlC(stack)).toBe(0);
      expect(stack.output.join('\n')).toMatch(/stopped\./);
      expect(processesUsing(dataDir)).toEqual([]);
      // Both servers remove their pid files when they stop cleanly.
      expect(fs.existsSync(path.join(dataDir, 'postgres', 'data', 'postmaster.pid'))).toBe(false);
      expect(fs.existsSync(path.join(dataDir, 'redis', 'redis.pid'))).toBe(false);

      // A second start finds the accounts and Sparks of the first.
      stack = await npmStart(dataDir, await freePort());
      expect(stack.output.join('\n')).not.toMatch(/new cluster/);
      const [user] = run.users as Array<{ username: string; password: string; sparkIds: string[] }>;
      const login = await fetch(`${stack.base}/api/v1/auth/login`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ username: user.username, password: user.password }),
      });
      expect(login.status).toBe(200);
      const { access_token } = ((await login.json()) as { data: { access_token: string } }).data;
      const sparks = await fetch(`${stack.base}/api/v1/sparks`, {
        headers: { Authorization: `Bearer ${access_token}` },
      });
      const list = ((await sparks.json()) as { data: Array<{ _id: string }> }).data;
      expect(list.map((s) => s._id)).toEqual(user.sparkIds);
      expect(await ctrlC(stack)).toBe(0);
    },
    20 * 60_000,
  );
});
