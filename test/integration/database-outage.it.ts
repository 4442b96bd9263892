import { Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import net from 'node:net';
import { createUser, PASSWORD, startApp, type SignedUser, type TestApp } from './harness';

/**
 * The database gone under a running api (issue 30): the api reaches PostgreSQL through a TCP relay this test
 * cuts. Requests that need it answer 503 with Retry-After in the caller's language, as for a Redis outage
 * (redis-outage.it.ts), never 500; what is logged carries no value of the statements (the e-mail the login
 * looked up); and everything works again once the database is back.
 */
class Relay {
  private server?: net.Server;
  private readonly sockets = new Set<net.Socket>();
  constructor(
    readonly port: number,
    private readonly target: { host: string; port: number },
  ) {}

  static async start(target: { host: string; port: number }): Promise<Relay> {
    const port = await new Promise<number>((resolve) => {
      const srv = net.createServer().listen(0, '127.0.0.1', () => {
        const { port: p } = srv.address() as net.AddressInfo;
        srv.close(() => resolve(p));
      });
    });
    const relay = new Relay(port, target);
    await relay.open();
    return relay;
  }

  open(): Promise<void> {
    this.server = net.createServer((client) => {
      const upstream = net.connect(this.target.port, this.target.host);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => undefined);
      }
      client.pipe(upstream).pipe(client);
    });
    return new Promise((resolve) => this.server!.listen(this.port, '127.0.0.1', resolve));
  }

  /** The database goes away: no new connection, and every open one is cut. */
  cut(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    return new Promise((resolve) => this.server!.close(() => resolve()));
  }
}

/** Every string in what was logged: texts, fields, and the messages, stacks and fields of errors. */
function loggedText(calls: unknown[][]): string {
  const seen = new Set<unknown>();
  const walk = (v: unknown): string => {
    if (v === null || v === undefined || seen.has(v)) return '';
    if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return String(v);
    if (typeof v !== 'object') return '';
    seen.add(v);
    const own = Object.getOwnPropertyNames(v).map((k) => walk((v as Record<string, unknown>)[k]));
    return own.join('\n');
  };
  return calls.map((args) => args.map(walk).join('\n')).join('\n');
}

describe('the api when its database is gone', () => {
  let relay: Relay;
  let app: TestApp;
  let user: SignedUser;

  beforeAll(async () => {
    const url = new URL(process.env.DATABASE_URL!);
    relay = await Relay.start({ host: url.hostname, port: Number(url.port || 5432) });
    url.hostname = '127.0.0.1';
    url.port = String(relay.port);
    app = await startApp({ DATABASE_URL: url.toString(), JWT_SECRET: randomUUID() });
    user = await createUser(app, { tag: 'db-outage' });
  });

  afterAll(async () => {
    await app.close();
    await relay.cut().catch(() => undefined);
  });

  const login = (language = 'en') =>
    app
      .http()
      .post('/api/v1/auth/login')
      .set('Accept-Language', language)
      .timeout(30_000)
      .send({ username: user.username, password: PASSWORD });

  it('answers 503 with Retry-After, logs no statement values, and works again once the database is back', async () => {
    await login().expect(200);
    const warned = jest.spyOn(Logger.prototype, 'warn');
    const failed = jest.spyOn(Logger.prototype, 'error');
    await relay.cut();
    try {
      for (const language of ['es', 'en']) {
        const res = await login(language);
        expect(res.status).toBe(503);
        expect(res.headers['retry-after']).toMatch(/^\d+$/);
        expect(res.body.errors[0].code).toBe('TEMPORARILY_UNAVAILABLE');
        expect(res.body.errors[0].message).toMatch(language === 'es' ? /momento/ : /moment/);
        expect(JSON.stringify(res.body)).not.toContain(user.username);
      }
      const profile = await app
        .http()
        .get('/api/v1/account/profile')
        .set(...user.auth())
        .timeout(30_000);
      expect(profile.status).toBe(503);
      const logged = loggedText([...warned.mock.calls, ...failed.mock.calls]);
      expect(logged).toMatch(/Database unavailable/);
      expect(logged).not.toContain(user.username);
      expect(logged).not.toMatch(/params:/);
    } finally {
      warned.mockRestore();
      failed.mockRestore();
      await relay.open();
    }
    await login().expect(200);
  });
});
