import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import net from 'node:net';
import path from 'node:path';
import { createDb, EmailsRepository, type DbHandle } from '@sparks/db';
import { createRedis, JobProducer } from '@sparks/queues';
import type { Redis } from 'ioredis';
import { SMTPServer } from 'smtp-server';
import { createUser, eventually, startApp, uniqueEmail, type TestApp } from './harness';
import { ROOT } from './paths';

/*
 * Issue 19, shutdown with work in flight, on real processes (worker/dist/main.js, api/dist/main.js):
 * - the worker, on SIGTERM, stops taking jobs, finishes those in flight within SHUTDOWN_TIMEOUT_MS and exits 0;
 *   the jobs it had not taken wait for the next worker, and every job runs exactly once;
 * - a job longer than SHUTDOWN_TIMEOUT_MS: the worker exits at the deadline, and the job is not lost (the next
 *   worker takes it once its lock runs out);
 * - the api, on SIGTERM, ends its open event streams at once and cleanly, so clients read the reply elsewhere.
 * The jobs are e-mails to a local SMTP server that holds each delivery, so "in flight" is a fact, not a guess.
 */

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

function start(app: 'api' | 'worker', env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, [path.join(ROOT, app, 'dist', 'main.js')], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'warn', METRICS_PORT: '', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

function exitOf(child: ChildProcess): Promise<{ code: number | null; ms: number }> {
  const signalledAt = Date.now();
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, ms: Date.now() - signalledAt })));
}

/**
 * A local SMTP server: records when each message starts arriving (by subject) and accepts it after `holdMs`
 * (`hold` may instead answer `'never'`: the delivery hangs until the sender goes away).
 */
async function smtpPeer(hold: (subject: string, attempt: number) => number | 'never') {
  const port = await freePort();
  const started: string[] = [];
  const delivered: string[] = [];
  const listeners = new Set<() => void>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      let body = '';
      stream.on('data', (d: Buffer) => (body += d.toString()));
      stream.on('end', () => {
        const subject = /^Subject: (.*)$/m.exec(body)?.[1]?.trim() ?? '?';
        started.push(subject);
        for (const listener of listeners) listener();
        const ms = hold(subject, started.filter((s) => s === subject).length);
        if (ms === 'never') return;
        setTimeout(() => {
          delivered.push(subject);
          callback();
        }, ms);
      });
    },
  });
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
  return {
    url: `smtp://127.0.0.1:${port}?ignoreTLS=true`,
    started,
    delivered,
    /** Resolves once `count` messages have started arriving. */
    startedCount(count: number): Promise<void> {
      return new Promise((resolve) => {
        const check = () => {
          if (started.length >= count) {
            listeners.delete(check);
            resolve();
          }
        };
        listeners.add(check);
        check();
      });
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

const counts = (items: string[]) =>
  Object.fromEntries([...new Set(items)].sort().map((item) => [item, items.filter((i) => i === item).length]));

describe('shutdown with jobs in flight (real worker processes)', () => {
  let handle: DbHandle;
  let redis: Redis;
  let emails: EmailsRepository;
  const children: ChildProcess[] = [];

  beforeAll(() => {
    handle = createDb(process.env.DATABASE_URL!, 2);
    redis = createRedis(process.env.REDIS_URL!);
    emails = new EmailsRepository(handle.db);
  });
  afterEach(() => {
    for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  });
  afterAll(async () => {
    redis.disconnect();
    await handle.close();
  });

  async function enqueueEmails(producer: JobProducer, tag: string, n: number) {
    const ids: string[] = [];
    for (let i = 1; i <= n; i++) {
      const email = await emails.create({
        to: uniqueEmail('shutdown'),
        subject: `${tag} ${i}`,
        text: 'Hola',
        language: 'es',
      });
      await producer.enqueue('email.send', { emailId: email.id });
      ids.push(email.id);
    }
    return ids;
  }

  it('SIGTERM: the worker takes no new job, finishes the ones in flight and exits 0; the rest run once on the next worker', async () => {
    const smtp = await smtpPeer(() => 2500);
    const prefix = `${process.env.QUEUE_PREFIX}_drain_${randomUUID().slice(0, 8)}`;
    const producer = new JobProducer(redis, prefix);
    const env = { SMTP_URL: smtp.url, QUEUE_PREFIX: prefix, WORKER_CONCURRENCY: '2', SHUTDOWN_TIMEOUT_MS: '8000' };
    try {
      const tag = `Drain ${randomUUID().slice(0, 6)}`;
      const ids = await enqueueEmails(producer, tag, 5);
      const first = start('worker', env);
      children.push(first);

      // Two deliveries are being held by the SMTP server: two jobs in flight, three waiting.
      await smtp.startedCount(2);
      const exited = exitOf(first);
      first.kill('SIGTERM');
      const { code, ms } = await exited;
      expect(code).toBe(0);
      expect(ms).toBeLessThan(8000);
      expect(ms).toBeGreaterThan(1000); // it waited for the held deliveries
      expect(smtp.delivered).toHaveLength(2);
      expect(smtp.started).toHaveLength(2); // nothing was taken after SIGTERM
      const email = producer.queue('email');
      expect(await email.getJobCounts('active', 'wait', 'completed', 'failed')).toEqual({
        active: 0,
        wait: 3,
        completed: 2,
        failed: 0,
      });
      const statuses = await Promise.all(ids.map(async (id) => (await emails.findById(id))?.status));
      expect(statuses.filter((s) => s === 'sent')).toHaveLength(2);

      // The next worker runs the three left, and every e-mail went out exactly once.
      const second = start('worker', env);
      children.push(second);
      await eventually(async () => (await email.getJobCounts('completed')).completed === 5, 30_000);
      expect(counts(smtp.started)).toEqual(Object.fromEntries([1, 2, 3, 4, 5].map((i) => [`${tag} ${i}`, 1])));
      expect(counts(smtp.delivered)).toEqual(counts(smtp.started));
      for (const id of ids) expect((await emails.findById(id))?.status).toBe('sent');
      const secondExit = exitOf(second);
      second.kill('SIGTERM');
      expect((await secondExit).code).toBe(0);
    } finally {
      await producer.close();
      await smtp.close();
    }
  }, 120_000);

  it('a job longer than SHUTDOWN_TIMEOUT_MS: the worker exits at the deadline and the job is not lost', async () => {
    // The first attempt hangs; a second one is accepted at once.
    const smtp = await smtpPeer((_subject, attempt) => (attempt === 1 ? 'never' : 0));
    const prefix = `${process.env.QUEUE_PREFIX}_deadline_${randomUUID().slice(0, 8)}`;
    const producer = new JobProducer(redis, prefix);
    const env = {
      SMTP_URL: smtp.url,
      QUEUE_PREFIX: prefix,
      SHUTDOWN_TIMEOUT_MS: '1500',
      WORKER_LOCK_DURATION_MS: '1000',
      WORKER_STALLED_INTERVAL_MS: '1000',
    };
    try {
      const tag = `Deadline ${randomUUID().slice(0, 6)}`;
      const [id] = await enqueueEmails(producer, tag, 1);
      const first = start('worker', env);
      children.push(first);
      await smtp.startedCount(1);
      const exited = exitOf(first);
      first.kill('SIGTERM');
      const { code, ms } = await exited;
      expect(code).toBe(1); // the deadline, not a clean drain
      expect(ms).toBeGreaterThanOrEqual(1400);
      expect(ms).toBeLessThan(4000);
      expect(smtp.delivered).toHaveLength(0);

      const second = start('worker', env);
      children.push(second);
      await eventually(async () => (await emails.findById(id))?.status === 'sent', 30_000);
      expect(smtp.delivered).toEqual([`${tag} 1`]);
      const secondExit = exitOf(second);
      second.kill('SIGTERM');
      expect((await secondExit).code).toBe(0);
    } finally {
      await producer.close();
      await smtp.close();
    }
  }, 120_000);
});

describe('shutdown with event streams open (a real api process)', () => {
  const JWT_SECRET = `shutdown-${randomUUID()}`;
  let t: TestApp;

  beforeAll(async () => {
    t = await startApp({ JWT_SECRET });
  });
  afterAll(async () => {
    await t.close();
  });

  it('SIGTERM ends open event streams at once and cleanly, then the api exits 0', async () => {
    const user = await createUser(t, { tag: 'sse-shutdown' });
    const port = await freePort();
    // A queue prefix no worker reads: the reply never comes, the stream stays open until the api ends it.
    const api = start('api', {
      PORT: String(port),
      HOST: '127.0.0.1',
      JWT_SECRET,
      QUEUE_PREFIX: `${process.env.QUEUE_PREFIX}_sse_${randomUUID().slice(0, 8)}`,
      SHUTDOWN_TIMEOUT_MS: '9000',
    });
    try {
      await eventually(async () => (await fetch(`http://127.0.0.1:${port}/api/v1/health`)).ok, 30_000);
      const streams = await Promise.all(
        ['hola', 'hello'].map((text) =>
          fetch(`http://127.0.0.1:${port}/api/v1/spark-sys/main/chat?input.text=${text}`, {
            headers: { Authorization: `Bearer ${user.access}`, Accept: 'text/event-stream' },
          }),
        ),
      );
      const readers = streams.map((s) => {
        expect(s.status).toBe(200);
        return s.body!.getReader();
      });
      const decoder = new TextDecoder();
      for (const reader of readers) {
        const first = await reader.read();
        expect(decoder.decode(first.value)).toContain('"type":"history"');
      }

      const exited = exitOf(api);
      const signalledAt = Date.now();
      api.kill('SIGTERM');
      // Each stream ends (done, no error) well before the 3 s after which the api would cut the sockets.
      const ends = await Promise.all(
        readers.map(async (reader) => {
          let rest = '';
          for (;;) {
            const { done, value } = await reader.read();
            if (done) return { ms: Date.now() - signalledAt, rest };
            rest += decoder.decode(value);
          }
        }),
      );
      for (const end of ends) {
        expect(end.ms).toBeLessThan(1500);
        expect(end.rest).not.toContain('"type":"done"');
      }
      const { code, ms } = await exited;
      expect(code).toBe(0);
      expect(ms).toBeLessThan(5000);
    } finally {
      api.kill('SIGKILL');
    }
  }, 120_000);
});
