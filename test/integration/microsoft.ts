/**
 * The document-sharing tests' common ground (issue 20): the local Microsoft identity platform and Graph
 * (`support/graph-server.ts`) with the api (and, where a test needs one, a worker) configured for them,
 * the zaphire owner of a Spark, and the consent walk that connects it. Used by integrations.it.ts,
 * document-sharing.it.ts and integration-sync.it.ts, which each wrote their own copy.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import type { Pool } from 'pg';
import { buyPlan, createSpark } from './factories';
import { userIdOf } from './fixtures/knowledge';
import { createUser, startApp, type SignedUser, type TestApp } from './harness';
import { ROOT } from './paths';
import { GraphServer } from './support/graph-server';

/** A real worker process (`worker/dist/main.js`) with the run's environment and `env` over it. */
export interface TestWorker {
  child: ChildProcess;
  /** What it printed so far (only with `output: 'capture'`). */
  output(): string;
  /** SIGTERM, then waits for it to exit. */
  stop(): Promise<void>;
}

/**
 * `output`: 'capture' keeps stdout and stderr for `output()`; 'stderr' shows its stderr in the test's;
 * 'none' discards both.
 */
export function startWorker(
  env: Record<string, string>,
  opts: { logLevel: string; output: 'capture' | 'stderr' | 'none' },
): TestWorker {
  const child = spawn(process.execPath, [path.join(ROOT, 'worker', 'dist', 'main.js')], {
    cwd: ROOT,
    env: { ...process.env, ...env, LOG_LEVEL: opts.logLevel },
    stdio:
      opts.output === 'capture'
        ? ['ignore', 'pipe', 'pipe']
        : opts.output === 'stderr'
          ? ['ignore', 'ignore', 'inherit']
          : 'ignore',
  });
  let printed = '';
  child.stdout?.on('data', (b: Buffer) => (printed += b.toString()));
  child.stderr?.on('data', (b: Buffer) => (printed += b.toString()));
  const exited = new Promise((r) => child.once('exit', r));
  return {
    child,
    output: () => printed,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** The local Graph, the api configured for it and, with `worker`, a worker configured the same way. */
export interface MicrosoftStack {
  graph: GraphServer;
  /** The environment the api and the worker share (one token key: a connection one stores, the other reads). */
  env: Record<string, string>;
  t: TestApp;
  worker?: TestWorker;
  /** Stops the api, the worker and the local Graph. */
  close(): Promise<void>;
}

export async function startMicrosoftStack(opts: {
  appUrl: string;
  env?: Record<string, string>;
  worker?: { logLevel: string; output: 'capture' | 'stderr' | 'none' };
}): Promise<MicrosoftStack> {
  const graph = await new GraphServer().start();
  const env = { APP_URL: opts.appUrl, ...graph.env(opts.env) };
  const worker = opts.worker ? startWorker(env, opts.worker) : undefined;
  const t = await startApp(env);
  return {
    graph,
    env,
    t,
    worker,
    close: async () => {
      await t.close();
      await worker?.stop();
      await graph.stop();
    },
  };
}

/** The owner of a new Spark: a user made through the api, their id, the Spark's id. */
export interface SparkOwner {
  user: SignedUser;
  userId: string;
  sparkId: string;
}

/**
 * A new user with a Spark; with `zaphire`, on the zaphire plan, bought the way a user buys it (the local
 * payment provider).
 */
export async function sparkOwner(
  t: TestApp,
  sql: Pool,
  opts: { tag: string; language?: 'en' | 'es'; zaphire?: boolean },
): Promise<SparkOwner> {
  const user = await createUser(t, { tag: opts.tag, language: opts.language });
  const userId = await userIdOf(sql, user.username);
  const spark = await createSpark(t, user);
  if (opts.zaphire) {
    const tenant = (await sql.query('SELECT customer_id FROM tenants WHERE user_id = $1', [userId])).rows[0];
    await buyPlan(t, user, tenant.customer_id as string, 'price_zaphire_month');
  }
  return { user, userId, sparkId: spark._id };
}

/** The `name=value` pairs of the cookies a response sets, as a browser would send them back (one Cookie header). */
function cookiesOf(res: { headers: Record<string, unknown> }): string {
  const set = res.headers['set-cookie'];
  const lines = Array.isArray(set) ? (set as string[]) : typeof set === 'string' ? [set] : [];
  return lines.map((line) => line.split(';')[0]).join('; ');
}

/**
 * The SPA's authorize call (`service`: the default, SharePoint, when unset): the authorization URL, and the cookie the
 * browser keeps from it, which binds the state to that browser.
 */
export async function startConnect(
  t: TestApp,
  o: Pick<SparkOwner, 'user' | 'sparkId'>,
  service?: 'sharepoint' | 'onedrive',
): Promise<{ authUrl: string; cookie: string }> {
  const res = await t
    .http()
    .get(`/api/v1/sparks/${o.sparkId}/integrations/microsoft/authorize`)
    .query(service ? { service } : {})
    .set(...o.user.auth())
    .expect(200);
  return { authUrl: (res.body.data as { authUrl: string }).authUrl, cookie: cookiesOf(res) };
}

/** Microsoft's consent (the local server consents at once): the callback address it sends the browser to. */
export async function consent(authUrl: string): Promise<URL> {
  const res = await fetch(authUrl, { redirect: 'manual' });
  expect(res.status).toBe(302);
  return new URL(res.headers.get('location')!);
}

/**
 * The browser's walk: the authorize call, Microsoft's consent, then our callback with the cookie the authorize call
 * set. Answers where it lands.
 */
export async function connectMicrosoft(
  t: TestApp,
  o: Pick<SparkOwner, 'user' | 'sparkId'>,
  service?: 'sharepoint' | 'onedrive',
): Promise<URL> {
  const { authUrl, cookie } = await startConnect(t, o, service);
  const callback = await consent(authUrl);
  const done = await t
    .http()
    .get(callback.pathname + callback.search)
    .set('Cookie', cookie)
    .expect(302);
  return new URL(done.headers.location);
}

/** Connects the Spark (the walk must land on the connected notice) and answers its connection's id. */
export async function connectedSpark(t: TestApp, sql: Pool, o: SparkOwner): Promise<string> {
  const landed = await connectMicrosoft(t, o);
  expect(landed.searchParams.get('q')).toBe('sharepoint-conected');
  return (await sql.query('SELECT id FROM integration_connections WHERE spark_id = $1', [o.sparkId])).rows[0]
    .id as string;
}
