// The real product for the HTTP benchmarks: the built api and worker as child processes on a
// scratch database and a Redis prefix of their own, and the calls a client makes.
import { spawn } from 'node:child_process';
import { randomUUID, createHash } from 'node:crypto';
import { createWriteStream, existsSync, mkdirSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import {
  REDIS_URL,
  ROOT,
  cpuMeter,
  log,
  onCleanup,
  rootRequire,
  scratchDatabase,
  scratchRedisPrefix,
  sleep,
} from './common.mjs';

const PASSWORD = 'Bench-secret-1!';
/** Every request opens its own connection, as a browser's EventSource usually does. */
const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });

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

export function startChild(label, script, env, args = []) {
  const tail = [];
  const child = spawn(process.execPath, [script, ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  // BENCH_LOG_DIR keeps each process's whole output (`<label>-<pid>.log`), e.g. to find why requests failed.
  if (process.env.BENCH_LOG_DIR) {
    mkdirSync(process.env.BENCH_LOG_DIR, { recursive: true });
    const file = createWriteStream(path.join(process.env.BENCH_LOG_DIR, `${label}-${child.pid}.log`));
    child.stdout.pipe(file);
    child.stderr.pipe(file);
  }
  const keep = (chunk) => {
    for (const line of String(chunk).split('\n')) if (line) tail.push(line);
    while (tail.length > 40) tail.shift();
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  let exited = false;
  child.on('exit', (code, signal) => {
    exited = true;
    if (!child.stopping) log(`${label} exited early (${code ?? signal}); its last lines:\n${tail.join('\n')}`);
  });
  /** SIGTERM (a graceful stop), then SIGKILL after 12 s. */
  const stop = async () => {
    if (exited) return;
    child.stopping = true;
    child.kill('SIGTERM');
    for (let i = 0; i < 120 && !exited; i++) await sleep(100);
    if (!exited) {
      log(`${label} did not stop in 12 s: SIGKILL`);
      child.kill('SIGKILL');
    }
  };
  return { child, tail, stop, isAlive: () => !exited };
}

/** The pid of the Redis server (shared with whatever else uses it), when it runs on this machine. */
export async function redisServerPid() {
  const Redis = rootRequire('ioredis');
  const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    const info = await redis.info('server');
    return Number(/process_id:(\d+)/.exec(info)?.[1]) || undefined;
  } catch {
    return undefined;
  } finally {
    redis.disconnect();
  }
}

/** A plain HTTP call answering `{ status, body }` (body parsed when JSON). */
export function call(base, method, urlPath, { token, body } = {}) {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request(
      `${base}${urlPath}`,
      {
        method,
        agent,
        headers: {
          ...(payload ? { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload) } : {}),
          ...(token ? { Authorization: `Bearer ${token}` } : {}),
        },
        timeout: 120_000,
      },
      (res) => {
        const parts = [];
        res.on('data', (c) => parts.push(c));
        res.on('end', () => {
          const text = Buffer.concat(parts).toString('utf8');
          let parsed = text;
          try {
            parsed = JSON.parse(text);
          } catch {
            // not JSON
          }
          resolve({ status: res.statusCode, body: parsed });
        });
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`${method} ${urlPath} timed out`)));
    req.on('error', reject);
    req.end(payload);
  });
}

async function expectOk(promise, what) {
  const res = await promise;
  if (res.status < 200 || res.status >= 300)
    throw new Error(`${what}: HTTP ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
  return res.body.data;
}

/**
 * One SSE chat send: times from the request to the first `data:` event (the history) and to the
 * `done` event. Resolves `{ first, done, sessionId, error, replyTo, doneEvents }` (times in
 * milliseconds; `replyTo` is the human message's id as the `done` event names it, `doneEvents` how
 * many `done` events came).
 */
export function sseChat(base, conv, text, timeoutMs = 120_000) {
  const q = new URLSearchParams({ 'input.text': text });
  if (conv.conversationId) q.set('conversationId', conv.conversationId);
  return new Promise((resolve) => {
    const out = { first: NaN, done: NaN, sessionId: undefined, error: undefined, replyTo: undefined, doneEvents: 0 };
    let settled = false;
    const settle = () => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(out);
    };
    const t0 = performance.now();
    const req = http.get(
      `${base}/api/v1/sparks/${conv.sparkId}/chat/${conv.testId}?${q}`,
      { agent, headers: { Authorization: `Bearer ${conv.token}`, Accept: 'text/event-stream' } },
      (res) => {
        if (res.statusCode !== 200) {
          out.error = `HTTP ${res.statusCode}`;
          res.resume();
          settle();
          return;
        }
        res.setEncoding('utf8');
        let buffer = '';
        res.on('data', (chunk) => {
          buffer += chunk;
          let cut;
          while ((cut = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, cut);
            buffer = buffer.slice(cut + 2);
            const data = block
              .split('\n')
              .filter((l) => l.startsWith('data: '))
              .map((l) => l.slice(6))
              .join('\n');
            if (!data) continue;
            const now = performance.now() - t0;
            const event = JSON.parse(data);
            if (Number.isNaN(out.first)) {
              out.first = now;
              out.sessionId = event.sessionId;
            }
            if (event.type === 'done') {
              if (Number.isNaN(out.done)) out.done = now;
              out.replyTo = event.replyTo;
              out.doneEvents += 1;
            }
            if (event.type === 'error') out.error = `event error ${event.code}`;
          }
        });
        res.on('end', () => {
          if (Number.isNaN(out.done) && !out.error) out.error = 'stream ended without done';
          settle();
        });
        res.on('error', (err) => {
          out.error = err.message;
          settle();
        });
      },
    );
    const timer = setTimeout(() => {
      out.error = 'client timeout';
      req.destroy();
      settle();
    }, timeoutMs);
    req.on('error', (err) => {
      out.error = out.error ?? err.message;
      settle();
    });
  });
}

/** JSON chat: one POST that waits for the reply. Resolves `{ ms, conversationId, error }`. */
export async function jsonChat(base, conv, text) {
  const t0 = performance.now();
  const res = await call(base, 'POST', `/api/v1/sparks/${conv.sparkId}/chat/${conv.testId}`, {
    token: conv.token,
    body: { input: { text }, ...(conv.conversationId ? { conversationId: conv.conversationId } : {}) },
  });
  const elapsed = performance.now() - t0;
  const data = res.body?.data;
  const ok = res.status === 201 && data?.ai?.type === 'ai';
  return { ms: elapsed, conversationId: data?.conversationId, error: ok ? undefined : `HTTP ${res.status}` };
}

// — documents and questions of the test Sparks —

const PAGES = {
  es: [
    'Bienvenidos a Ferretería Norte. Vendemos herramientas, pintura y material de fontanería en Bilbao desde 1987.',
    'Horario de apertura: de lunes a viernes de 9:00 a 20:00 y los sábados de 10:00 a 14:00. Los domingos cerramos.',
    'Hacemos envíos a domicilio en toda la provincia por 4 euros. Los pedidos de más de 50 euros tienen el envío gratuito.',
    'Devoluciones: dispone de 30 días para devolver un producto sin usar con el tique de compra; el reembolso llega en 5 días.',
  ],
  en: [
    'Welcome to Northwind Bikes. We repair and rent bicycles in Portland.',
    'Rentals cost 25 dollars per day, helmet and lock included. Electric bikes cost 45 dollars per day.',
    'Our return policy: unused parts can be returned within 30 days with the receipt for a full refund.',
    'Opening hours: Monday to Friday from 8:00 to 18:00, Saturday from 9:00 to 13:00.',
  ],
};
const ASK = {
  es: [
    '¿Cuál es el horario de apertura los sábados?',
    '¿Cuánto cuesta el envío a domicilio?',
    '¿Cómo funcionan las devoluciones?',
  ],
  en: [
    'How much does an electric bike rental cost?',
    'What is the return policy for parts?',
    'When are you open on Saturday?',
  ],
};

async function addDocument(pool, { sparkId, userId, language }) {
  const id = randomUUID();
  const pages = PAGES[language];
  const config = language === 'es' ? 'spanish' : 'english';
  const text = pages.join('\n');
  await pool.query(
    `INSERT INTO documents (id, spark_id, user_id, name, storage_key, size, sha256, status, pages, chars, language)
     VALUES ($1, $2, $3, $4, $5, $6, $7, 'completed', $8, $9, $10)`,
    [
      id,
      sparkId,
      userId,
      language === 'es' ? 'Catálogo.pdf' : 'Handbook.pdf',
      `bench/${id}`,
      text.length,
      createHash('sha256').update(id).digest('hex'),
      pages.length,
      text.length,
      language,
    ],
  );
  await pool.query(
    `INSERT INTO document_chunks (id, document_id, spark_id, ord, page, content, config, tsv)
     SELECT gen_random_uuid(), $1, $2, p.ord - 1, p.ord, p.content, $3::text, to_tsvector($3::text::regconfig, p.content)
       FROM unnest($4::text[]) WITH ORDINALITY AS p(content, ord)`,
    [id, sparkId, config, pages],
  );
}

/**
 * Starts api + worker on a scratch database. Answers `{ base, pool, api, worker, conversations(n) }`;
 * everything is stopped, dropped and deleted by the cleanup registry.
 */
export async function startStack(name, extraEnv = {}) {
  for (const f of ['api/dist/main.js', 'worker/dist/main.js', 'libs/db/dist/index.js'])
    if (!existsSync(path.join(ROOT, f)))
      throw new Error(`${f} is missing: build first (npx tsc -b api/tsconfig.json worker/tsconfig.json)`);
  const databaseUrl = await scratchDatabase(name);
  const prefix = scratchRedisPrefix(name);
  const port = await freePort();
  // A clean environment: no LLM_*, SMTP_* or STRIPE_* from the caller's shell, so the offline
  // engine answers and e-mail goes to the dev outbox.
  const env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: 'development',
    DATABASE_URL: databaseUrl,
    REDIS_URL,
    PORT: String(port),
    HOST: '127.0.0.1',
    QUEUE_PREFIX: prefix,
    DEV_OUTBOX: 'true',
    LOG_LEVEL: 'warn',
    JWT_SECRET: randomUUID(),
    DNS_CHECK: 'false',
    AUTH_RATE_IP_MAX: '100000',
    ACCESS_TOKEN_TTL_SECONDS: '7200',
    ...extraEnv,
  };
  const api = startChild('api', 'api/dist/main.js', env);
  const worker = startChild('worker', 'worker/dist/main.js', env);
  // Both at once: each may take a few seconds to finish what it has in flight.
  onCleanup(`stop api (pid ${api.child.pid}) and worker (pid ${worker.child.pid})`, () =>
    Promise.all([api.stop(), worker.stop()]),
  );
  const base = `http://127.0.0.1:${port}`;
  // On a busy machine the api may need longer to boot: BENCH_START_TIMEOUT_S (default 30).
  const startSeconds = Number(process.env.BENCH_START_TIMEOUT_S ?? 30);
  for (let i = 0; ; i++) {
    if (!api.isAlive()) throw new Error('the api did not start');
    const res = await call(base, 'GET', '/api/v1/health').catch(() => undefined);
    if (res?.status === 200) break;
    if (i >= startSeconds * 10)
      throw new Error(`the api did not answer ${base}/api/v1/health within ${startSeconds} s`);
    await sleep(100);
  }
  const { Pool } = rootRequire('pg');
  const pool = new Pool({ connectionString: databaseUrl, max: 2 });
  pool.on('error', () => undefined);
  onCleanup('close bench pool', () => pool.end());
  log(`api on ${base} (pid ${api.child.pid}), worker pid ${worker.child.pid}, queue prefix ${prefix}`);

  let userNo = 0;
  async function createUser(language) {
    const username = `bench.${process.pid}.${++userNo}@example.com`;
    await expectOk(
      call(base, 'POST', '/api/v1/auth/register', {
        body: { username, email: username, password: PASSWORD, config: { language } },
      }),
      'register',
    );
    let code;
    for (let i = 0; i < 300 && !code; i++) {
      const mails = await expectOk(
        call(base, 'GET', `/api/v1/dev/outbox?to=${encodeURIComponent(username)}`),
        'outbox',
      );
      code = mails.map((m) => /\b(\d{6})\b/.exec(m.text)?.[1]).find(Boolean);
      if (!code) await sleep(100);
    }
    if (!code) throw new Error(`no verification mail for ${username} within 30 s (is the worker running?)`);
    const tokens = await expectOk(
      call(base, 'POST', '/api/v1/auth/verify-code', { body: { username, code, password: PASSWORD } }),
      'verify',
    );
    const userId = (await pool.query('SELECT id FROM users WHERE username = $1', [username])).rows[0].id;
    // The bench must not run out of interaction credits, should chats ever count against them.
    await pool.query('UPDATE tenants SET limit_interactions = 1000000 WHERE user_id = $1', [userId]);
    return { token: tokens.access_token, userId, language };
  }

  /** `n` test conversations: users with up to 5 Sparks × 5 tests each, every Spark with a document. */
  async function conversations(n) {
    const out = [];
    while (out.length < n) {
      const user = await createUser(userNo % 2 === 0 ? 'es' : 'en');
      for (let s = 0; s < 5 && out.length < n; s++) {
        const spark = await expectOk(call(base, 'POST', '/api/v1/sparks', { token: user.token, body: {} }), 'spark');
        await addDocument(pool, { sparkId: spark._id, userId: user.userId, language: user.language });
        for (let t = 0; t < 5 && out.length < n; t++) {
          const test = await expectOk(
            call(base, 'POST', `/api/v1/sparks/${spark._id}/tests`, { token: user.token, body: { name: `T${t + 1}` } }),
            'test',
          );
          out.push({ token: user.token, sparkId: spark._id, testId: test._id, language: user.language, n: out.length });
        }
      }
    }
    return out;
  }

  /**
   * One more worker process on the same database, Redis and queues (`env` overrides a setting for it);
   * stopped by the cleanup registry unless the caller stops it first.
   */
  let workerNo = 1;
  function startWorker(moreEnv = {}) {
    const extra = startChild(`worker ${++workerNo}`, 'worker/dist/main.js', { ...env, ...moreEnv });
    onCleanup(`stop worker (pid ${extra.child.pid})`, () => extra.stop());
    return extra;
  }

  const database = new URL(databaseUrl).pathname.slice(1);
  /** A CPU meter over the api, the worker, our PostgreSQL backends, this process and the machine. */
  const redisPid = await redisServerPid();
  const pids = { api: api.child.pid, worker: worker.child.pid, ...(redisPid ? { redis: redisPid } : {}) };
  const meter = () => cpuMeter({ pids, pool, database });
  return { base, pool, api, worker, prefix, env, startWorker, createUser, conversations, meter };
}

/** The question conversation `conv` asks on its `i`-th send. */
export const questionFor = (conv, i) => ASK[conv.language][(conv.n + i) % ASK[conv.language].length];
