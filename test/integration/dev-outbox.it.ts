import { createUser, startApp, waitForMail, type SignedUser, type TestApp } from './harness';

const PRODUCTION = { NODE_ENV: 'production', JWT_SECRET: 'a-secret-for-the-production-mode-tests' };

describe('the dev outbox', () => {
  let t: TestApp;
  let user: SignedUser;
  beforeAll(async () => {
    t = await startApp();
    user = await createUser(t, { tag: 'outbox' });
  });
  afterAll(async () => {
    await t.close();
  });
  const outbox = () => t.http().get('/api/v1/dev/outbox').query({ to: user.username });

  it('shows a direct local request the mail of the address it names', async () => {
    const res = await outbox().expect(200);
    expect(res.body.data.length).toBeGreaterThan(0);
    expect(res.body.data.every((m: { to: string }) => m.to === user.username)).toBe(true);
    await waitForMail(t, user.username);
  });

  it('never lists mail without `to`', async () => {
    const res = await t.http().get('/api/v1/dev/outbox').expect(400);
    expect(res.body.errors).toEqual([{ code: 'REQUIRED', field: 'to', message: 'Required field' }]);
    await t.http().get('/api/v1/dev/outbox?to=').expect(400);
  });

  it.each([
    ['Forwarded', 'for=203.0.113.9;proto=https'],
    ['X-Forwarded-For', '203.0.113.9'],
    ['X-Forwarded-For', '127.0.0.1'],
    ['X-Forwarded-Host', 'sparks.example.com'],
    ['X-Forwarded-Proto', 'https'],
    ['X-Real-IP', '203.0.113.9'],
    ['Via', '1.1 nginx'],
  ])('answers 404, as if it did not exist, to a request relayed by a proxy on this machine (%s)', async (h, v) => {
    const res = await outbox().set(h, v).expect(404);
    expect(res.body.errors).toEqual([{ code: 'NOT_FOUND', message: 'Not found' }]);
  });

  it('answers 404 when the request names a public host (a proxy passing Host on, or a DNS-rebinding page)', async () => {
    await outbox().set('Host', 'sparks.example.com').expect(404);
    await outbox().set('Host', 'localhost:3000').expect(200);
  });

  it('stays off in production whatever DEV_OUTBOX says, before it even reads the query', async () => {
    const production = await startApp({ ...PRODUCTION, DEV_OUTBOX: 'true' });
    try {
      const res = await production.http().get('/api/v1/dev/outbox').query({ to: user.username }).expect(404);
      expect(res.body.errors[0].code).toBe('NOT_FOUND');
      await production.http().get('/api/v1/dev/outbox').expect(404);
    } finally {
      await production.close();
    }
    const off = await startApp({ DEV_OUTBOX: 'false' });
    try {
      await off.http().get('/api/v1/dev/outbox').expect(404);
    } finally {
      await off.close();
    }
  });
});
