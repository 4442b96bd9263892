import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { createDb, EmailsRepository, type DbHandle } from '@sparks/db';
import { createRedis, JobProducer } from '@sparks/queues';
import { SMTPServer } from 'smtp-server';
import { eventually, uniqueEmail } from './harness';
import { ROOT } from './paths';

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
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

/** SIGKILL unless it has exited, then waits for the exit (its handles would keep Jest alive after the run). */
async function killed(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGKILL');
  await exited;
}

function exitOf(child: ChildProcess): Promise<{ code: number | null; ms: number; signalledAt: number }> {
  const signalledAt = Date.now();
  return new Promise((resolve) =>
    child.once('exit', (code) => resolve({ code, ms: Date.now() - signalledAt, signalledAt })),
  );
}

describe('processes: the api over HTTP/1.1 keep-alive', () => {
  // A client pool (browsers, Playwright's request context, proxies) reuses an idle connection. If the
  // server closes it after Node's default 5 s while the client is sending on it, the client gets
  // ECONNRESET ("socket hang up") for a request that did nothing wrong.
  it('keeps an idle connection open past 5 s, so a request reusing it is answered', async () => {
    const port = await freePort();
    const api = start('api', { PORT: String(port), HOST: '127.0.0.1' });
    const socket = new net.Socket();
    try {
      await eventually(async () => (await fetch(`http://127.0.0.1:${port}/api/v1/health`)).ok, 30_000);
      await new Promise<void>((resolve, reject) => socket.once('error', reject).connect(port, '127.0.0.1', resolve));
      let closed = false;
      socket.on('close', () => (closed = true));
      const request = `GET /api/v1/health HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: keep-alive\r\n\r\n`;
      const answer = () => new Promise<string>((resolve) => socket.once('data', (d: Buffer) => resolve(d.toString())));
      socket.write(request);
      expect(await answer()).toMatch(/^HTTP\/1\.1 200/);
      await new Promise((r) => setTimeout(r, 6000));
      expect(closed).toBe(false);
      socket.write(request);
      expect(await answer()).toMatch(/^HTTP\/1\.1 200/);
    } finally {
      socket.destroy();
      await killed(api);
    }
  }, 60_000);
});

describe('processes: graceful shutdown', () => {
  it('the api stops accepting and exits cleanly within 10 s of SIGTERM', async () => {
    const port = await freePort();
    const api = start('api', { PORT: String(port), HOST: '127.0.0.1' });
    try {
      await eventually(async () => (await fetch(`http://127.0.0.1:${port}/api/v1/health`)).ok, 30_000);
      const exited = exitOf(api);
      api.kill('SIGTERM');
      const { code, ms } = await exited;
      expect(code).toBe(0);
      expect(ms).toBeLessThan(10_000);
      await expect(fetch(`http://127.0.0.1:${port}/api/v1/health`)).rejects.toThrow();
    } finally {
      await killed(api);
    }
  });

  it('the worker finishes the job in flight (a slow SMTP delivery) and exits within 10 s', async () => {
    const smtpPort = await freePort();
    let receiving: () => void = () => undefined;
    const inFlight = new Promise<void>((r) => (receiving = r));
    const delivered: string[] = [];
    const smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData(stream, session, callback) {
        receiving();
        let body = '';
        stream.on('data', (d: Buffer) => (body += d.toString()));
        // Hold the delivery for 2 s so that SIGTERM lands while the job is in flight.
        stream.on('end', () => setTimeout(() => (delivered.push(body), callback()), 2000));
      },
    });
    await new Promise<void>((r) => smtp.listen(smtpPort, '127.0.0.1', r));

    const prefix = `${process.env.QUEUE_PREFIX}_shutdown`;
    const worker = start('worker', { SMTP_URL: `smtp://127.0.0.1:${smtpPort}?ignoreTLS=true`, QUEUE_PREFIX: prefix });
    const handle: DbHandle = createDb(process.env.DATABASE_URL!, 2);
    const redis = createRedis(process.env.REDIS_URL!);
    const producer = new JobProducer(redis, prefix);
    try {
      const emails = new EmailsRepository(handle.db);
      const to = uniqueEmail('smtp');
      const email = await emails.create({ to, subject: 'Código', text: 'Tu código es 123456', language: 'es' });
      await producer.enqueue('email.send', { emailId: email.id });

      await inFlight;
      const exited = exitOf(worker);
      worker.kill('SIGTERM');
      const { code, ms } = await exited;

      expect(code).toBe(0);
      expect(ms).toBeLessThan(10_000);
      expect(delivered).toHaveLength(1);
      expect(delivered[0]).toContain('Tu c'); // the body reached the SMTP peer
      const row = await emails.findById(email.id);
      expect(row).toMatchObject({ status: 'sent', transport: 'smtp', text: null });
    } finally {
      worker.kill('SIGKILL');
      await producer.close();
      redis.disconnect();
      await handle.close();
      await new Promise<void>((r) => smtp.close(() => r()));
    }
  });
});
