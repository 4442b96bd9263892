import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createDb, type DbHandle } from '@sparks/db';
import { createUser, eventually, PASSWORD, startApp, type SignedUser, type TestApp } from './harness';
import { createSpark, createTest } from './factories';

/**
 * Redis frozen (SIGSTOP) or gone (SIGKILL) under a running api: requests that need it answer 503 with
 * a translated message instead of hanging or answering 500, nothing half-done is left behind, and
 * everything works again once Redis is back. The api under test has a Redis of its own; users are
 * made through a second api on the run's Redis (whose worker sends the verification mail).
 */
function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

function startRedis(port: number, dir: string): Promise<ChildProcess> {
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir],
    { stdio: 'ignore' },
  );
  return eventually(
    () =>
      new Promise<ChildProcess | false>((resolve) => {
        const socket = net.connect({ port, host: '127.0.0.1' }, () => {
          socket.destroy();
          resolve(child);
        });
        socket.on('error', () => resolve(false));
      }),
    10_000,
  );
}

describe('the api when its Redis is frozen or gone', () => {
  let main: TestApp;
  let app: TestApp;
  let redis: ChildProcess;
  let redisPort: number;
  let dir: string;
  let user: SignedUser;
  let db: DbHandle;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sparks-redis-outage-'));
    redisPort = await freePort();
    redis = await startRedis(redisPort, dir);
    // One signing key, so that the tokens the first api issues are good on the second.
    const JWT_SECRET = randomUUID();
    main = await startApp({ JWT_SECRET });
    app = await startApp({ JWT_SECRET, REDIS_URL: `redis://127.0.0.1:${redisPort}`, REDIS_COMMAND_TIMEOUT_MS: '1000' });
    user = await createUser(main);
    db = createDb(process.env.DATABASE_URL!, 2);
  });

  afterAll(async () => {
    if (redis.exitCode === null) {
      redis.kill('SIGCONT');
      redis.kill('SIGKILL');
    }
    await Promise.all([app.close(), main.close(), db.close()]);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const login = (language = 'en') =>
    app
      .http()
      .post('/api/v1/auth/login')
      .set('Accept-Language', language)
      .timeout(20_000)
      .send({ username: user.username, password: PASSWORD });

  async function sparkWithTest() {
    const spark = await createSpark(app, user);
    const test = await createTest(app, user, spark._id, { name: 'T1' });
    return { sparkId: spark._id, testId: test._id };
  }

  const humanMessages = async (sparkId: string) =>
    Number(
      (
        await db.pool.query(
          `SELECT count(*) FROM messages m JOIN conversations c ON c.id = m.conversation_id
            WHERE c.spark_id = $1 AND m.type = 'human'`,
          [sparkId],
        )
      ).rows[0].count,
    );

  it('frozen: login and a chat send answer 503 in the caller language, and work again once Redis is back', async () => {
    await login().expect(200);
    const { sparkId, testId } = await sparkWithTest();
    redis.kill('SIGSTOP');
    try {
      const es = await login('es');
      expect(es.status).toBe(503);
      expect(es.headers['retry-after']).toMatch(/^\d+$/);
      expect(es.body.errors[0].code).toBe('TEMPORARILY_UNAVAILABLE');
      expect(es.body.errors[0].message).toMatch(/momento/);

      const send = await app
        .http()
        .post(`/api/v1/sparks/${sparkId}/chat/${testId}`)
        .set(...user.auth())
        .timeout(20_000)
        .send({ input: { text: 'When do you open?' } });
      expect(send.status).toBe(503);
      expect(send.body.errors[0].code).toBe('TEMPORARILY_UNAVAILABLE');
      // The event-stream transport answers the same JSON error before any stream opens.
      const stream = await app
        .http()
        .get(`/api/v1/sparks/${sparkId}/chat/${testId}`)
        .query({ 'input.text': 'And on Sunday?' })
        .set(...user.auth())
        .timeout(20_000);
      expect(stream.status).toBe(503);
      expect(stream.headers['content-type']).toMatch(/json/);
      // The messages that could not be handed to the assistant are not left behind without an answer.
      expect(await humanMessages(sparkId)).toBe(0);
    } finally {
      redis.kill('SIGCONT');
    }
    await eventually(async () => (await login()).status === 200, 20_000);
  });

  it('killed: login answers 503 (not 500), and works again once Redis is started on the same port', async () => {
    redis.kill('SIGKILL');
    await new Promise((r) => redis.once('exit', r));
    const res = await login();
    expect(res.status).toBe(503);
    expect(res.body.errors[0].code).toBe('TEMPORARILY_UNAVAILABLE');
    const health = await app.http().get('/api/v1/health');
    expect(health.status).toBe(503);
    redis = await startRedis(redisPort, dir);
    await eventually(async () => (await login()).status === 200, 20_000);
    await eventually(async () => (await app.http().get('/api/v1/health')).status === 200, 20_000);
  });
});
