import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Pool } from 'pg';
import { Redis } from 'ioredis';
import { JobProducer, queueOf, scheduleIntegrationSync } from '@sparks/queues';
import { codeIn, createUser, eventually, PASSWORD, startApp, waitForMail, type TestApp } from './harness';
import { richAccount, SHOP, type RichAccount } from './support/rich-account';
import { StripeTestServer } from './support/stripe-server';

/**
 * Deleting an account (issue 30): confirmed with the typed e-mail and the password (or an e-mailed code for an
 * account that signs in only with Google), it removes every row of the account in every table, its stored files,
 * its queued jobs and Redis keys, its widget's token and its integration tokens, cancels its paid subscription with
 * the provider (local, or Stripe through the official client against the local stand-in), and ends every session.
 */
const sql = new Pool({ connectionString: process.env.DATABASE_URL, max: 4 });
sql.on('error', () => undefined);
const STORAGE_DIR = process.env.STORAGE_DIR!;
const PREFIX = process.env.QUEUE_PREFIX!;
const JWT_SECRET = randomBytes(32).toString('hex');
let redis: Redis;
let jobs: JobProducer;

beforeAll(() => {
  redis = new Redis(process.env.REDIS_URL!, { maxRetriesPerRequest: null });
  jobs = new JobProducer(redis, PREFIX);
});
afterAll(async () => {
  await jobs.close();
  redis.disconnect();
  await sql.end();
});

/** Every id and name of the account, read from the database independently of the code under test. */
async function identifiersOf(a: RichAccount): Promise<string[]> {
  const q = async (query: string) => (await sql.query<{ x: string }>(query, [a.userId])).rows.map((r) => r.x);
  const ids = [
    a.userId,
    a.user.username,
    a.tenantId,
    a.customerId,
    a.marker,
    a.contactEmail,
    a.deployToken,
    ...(await q(`SELECT subscription_id AS x FROM tenants WHERE user_id = $1 AND subscription_id IS NOT NULL`)),
    ...(await q(`SELECT id::text AS x FROM sparks WHERE user_id = $1`)),
    ...(await q(`SELECT id::text AS x FROM conversations WHERE user_id = $1`)),
    ...(await q(`SELECT m.id::text AS x FROM messages m JOIN conversations c ON c.id = m.conversation_id
                 WHERE c.user_id = $1`)),
    ...(await q(`SELECT id::text AS x FROM documents WHERE user_id = $1`)),
    ...(await q(`SELECT id::text AS x FROM deployments WHERE user_id = $1`)),
    ...(await q(`SELECT v.id::text AS x FROM visitors v JOIN sparks s ON s.id = v.spark_id WHERE s.user_id = $1`)),
    ...(await q(`SELECT id::text AS x FROM integration_connections WHERE user_id = $1`)),
    ...(await q(`SELECT id::text AS x FROM account_exports WHERE user_id = $1`)),
    ...(await q(
      `SELECT e.id::text AS x FROM usage_events e JOIN tenants t ON t.id = e.tenant_id WHERE t.user_id = $1`,
    )),
    ...(await q(`SELECT o.id::text AS x FROM outbound_emails o JOIN users u ON u.email = o."to" WHERE u.id = $1`)),
  ];
  return [...new Set(ids)];
}

/** Rows of any table of the schema whose JSON holds one of `needles`: `table: needle`. */
async function rowsHolding(needles: string[]): Promise<string[]> {
  const tables = (
    await sql.query<{ name: string }>(
      `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'`,
    )
  ).rows.map((r) => r.name);
  expect(tables.length).toBeGreaterThan(20);
  const found: string[] = [];
  for (const table of tables) {
    const rows = await sql.query<{ needle: string }>(
      `SELECT n AS needle FROM "${table}" t, unnest($1::text[]) AS n WHERE strpos(row_to_json(t)::text, n) > 0 LIMIT 5`,
      [needles],
    );
    found.push(...rows.rows.map((r) => `${table}: ${r.needle}`));
  }
  return found;
}

/** Keys under the run's prefix whose name or value holds one of `needles`: `key: needle`. */
async function redisHolding(needles: string[]): Promise<string[]> {
  const found: string[] = [];
  const hit = (key: string, text: string) => {
    const needle = needles.find((n) => text.includes(n) || text.includes(encodeURIComponent(n)));
    if (needle) found.push(`${key}: ${needle}`);
  };
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${PREFIX}:*`, 'COUNT', 1000);
    cursor = next;
    for (const key of keys) {
      hit(key, key);
      const type = await redis.type(key);
      if (type === 'string') hit(key, (await redis.get(key)) ?? '');
      else if (type === 'hash') hit(key, JSON.stringify(await redis.hgetall(key)));
      else if (type === 'list') hit(key, JSON.stringify(await redis.lrange(key, 0, -1)));
      else if (type === 'set') hit(key, JSON.stringify(await redis.smembers(key)));
      else if (type === 'zset') hit(key, JSON.stringify(await redis.zrange(key, 0, -1)));
      else if (type === 'stream') hit(key, JSON.stringify(await redis.xrange(key, '-', '+')));
    }
  } while (cursor !== '0');
  return found;
}

const stored = (key: string) => fs.existsSync(path.join(STORAGE_DIR, key));

describe('DELETE /account', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp({ JWT_SECRET });
  });
  afterAll(() => t.close());

  it('leaves nothing of the account in PostgreSQL (every table), storage or Redis; the other account is untouched', async () => {
    const a = await richAccount(t, sql);
    const b = await richAccount(t, sql);
    // An export built by the worker (a stored zip), a document-sharing connection with its sealed tokens and its
    // sync scheduler (a job in Redis), and the sign-in rate limits a wrong password leaves under the address.
    const big = await startApp({ JWT_SECRET, EXPORT_INLINE_MAX_BYTES: '0' });
    const exportId = (
      await big
        .http()
        .get('/api/v1/account/export')
        .set(...a.user.auth())
        .expect(202)
    ).body.data.exportId as string;
    await big.close();
    await eventually(async () => {
      const r = await sql.query(`SELECT 1 FROM account_exports WHERE id = $1 AND status = 'ready'`, [exportId]);
      return r.rowCount === 1;
    }, 45_000);
    const connection = (
      await sql.query<{ id: string }>(
        `INSERT INTO integration_connections (id, spark_id, user_id, provider, service, access_token_sealed,
           refresh_token_sealed, expires_at, scopes)
         VALUES (gen_random_uuid(), $1, $2, 'microsoft', 'sharepoint', 'sealed-access', 'sealed-refresh',
           now() + interval '1 hour', 'offline_access Files.Read.All') RETURNING id`,
        [a.sparkId, a.userId],
      )
    ).rows[0].id;
    await scheduleIntegrationSync(jobs.queue(queueOf('integration.sync')), connection, 3_600_000);
    await t
      .http()
      .post('/api/v1/auth/login')
      .send({ username: a.user.username, password: 'Wrong-passw0rd!' })
      .expect(400);

    const needles = await identifiersOf(a);
    expect(needles).toContain(connection);
    expect(needles).toContain(exportId);
    // Before: the account is everywhere the test looks.
    expect((await rowsHolding([a.marker])).length).toBeGreaterThan(5);
    expect((await redisHolding(needles)).length).toBeGreaterThan(0);
    expect(stored(a.storageKey) && stored(`exports/${exportId}.zip`)).toBe(true);

    const del = (body: Record<string, unknown>) =>
      t
        .http()
        .delete('/api/v1/account')
        .set(...a.user.auth())
        .send(body);
    // The typed confirmation and the password are checked on the server; a refusal deletes nothing.
    expect(
      (await del({ confirmation: 'someone@else.example', password: PASSWORD }).expect(400)).body.errors[0],
    ).toMatchObject({
      code: 'DELETE_CONFIRMATION_MISMATCH',
      field: 'confirmation',
    });
    expect(
      (await del({ confirmation: a.user.username, password: 'Not-the-passw0rd' }).expect(400)).body.errors[0],
    ).toMatchObject({ code: 'WRONG_PASSWORD', field: 'password' });
    expect((await del({ confirmation: a.user.username }).expect(400)).body.errors[0]).toMatchObject({
      code: 'REQUIRED',
      field: 'password',
    });
    await t
      .http()
      .get('/api/v1/account/profile')
      .set(...a.user.auth())
      .expect(200);

    const done = await del({ confirmation: ` ${a.user.username.toUpperCase()} `, password: PASSWORD }).expect(200);
    expect(done.body.data).toEqual({ deleted: true, subscriptionCanceled: 'local' });

    // Every session ends at once: the access token and the refresh token are dead.
    await t
      .http()
      .get('/api/v1/account/profile')
      .set(...a.user.auth())
      .expect(401);
    await t.http().post('/api/v1/auth/refresh-token').send({ refresh_token: a.user.refresh }).expect(401);
    // Visitors get nothing any more: the deploy token names nothing, the visitor token neither.
    await t.http().get(`/api/v1/public/widgets/${a.deployToken}/config`).set('Origin', SHOP).expect(404);

    // The worker's purge ends, and then nothing of the account is left anywhere.
    await eventually(async () => (await sql.query('SELECT 1 FROM account_purges')).rowCount === 0, 45_000);
    expect(await rowsHolding(needles)).toEqual([]);
    expect(await redisHolding(needles)).toEqual([]);
    expect(stored(a.storageKey)).toBe(false);
    expect(stored(`exports/${exportId}.zip`)).toBe(false);
    expect(await jobs.queue('integrations').getJobScheduler(`integration-sync-${connection}`)).toBeUndefined();

    // The other account is whole.
    await t
      .http()
      .get(`/api/v1/sparks/${b.sparkId}/documents/${b.documentId}`)
      .set(...b.user.auth())
      .expect(200);
    expect(stored(b.storageKey)).toBe(true);
    await t.http().get(`/api/v1/public/widgets/${b.deployToken}/config`).set('Origin', SHOP).expect(200);
    expect((await rowsHolding([b.marker])).length).toBeGreaterThan(5);
  }, 180_000);

  it('no one deletes another account: the route acts on the caller only, and a stranger cannot confirm with it', async () => {
    const a = await createUser(t, { tag: 'victim' });
    const b = await createUser(t, { tag: 'intruder' });
    // B types A's address: it is not B's own, so nothing happens to anyone.
    const res = await t
      .http()
      .delete('/api/v1/account')
      .set(...b.auth())
      .send({ confirmation: a.username, password: PASSWORD })
      .expect(400);
    expect(res.body.errors[0].code).toBe('DELETE_CONFIRMATION_MISMATCH');
    await t.http().delete('/api/v1/account').send({ confirmation: a.username, password: PASSWORD }).expect(401);
    for (const user of [a, b])
      await t
        .http()
        .get('/api/v1/account/profile')
        .set(...user.auth())
        .expect(200);
  });

  it('an account that signs in only with Google confirms with a code e-mailed to it', async () => {
    const g = await createUser(t, { tag: 'google' });
    await sql.query(`UPDATE users SET password_hash = NULL, google_sub = $2 WHERE username = $1`, [
      g.username,
      `g-${randomBytes(6).toString('hex')}`,
    ]);
    const method = await t
      .http()
      .get('/api/v1/account/deletion')
      .set(...g.auth())
      .expect(200);
    expect(method.body.data).toEqual({ method: 'code' });
    const del = (body: Record<string, unknown>) =>
      t
        .http()
        .delete('/api/v1/account')
        .set(...g.auth())
        .send(body);
    expect((await del({ confirmation: g.username, password: PASSWORD }).expect(400)).body.errors[0]).toMatchObject({
      code: 'REQUIRED',
      field: 'code',
    });
    await t
      .http()
      .post('/api/v1/account/deletion-code')
      .set(...g.auth())
      .expect(200);
    const again = await t
      .http()
      .post('/api/v1/account/deletion-code')
      .set(...g.auth())
      .expect(429);
    expect(again.body.errors[0].code).toBe('RESEND_TOO_SOON');
    const code = codeIn(await waitForMail(t, g.username, (m) => /delete your Sparks account/.test(m.subject)));
    const wrong = code === '000000' ? '111111' : '000000';
    expect((await del({ confirmation: g.username, code: wrong }).expect(400)).body.errors[0].code).toBe('INVALID_CODE');
    expect((await del({ confirmation: g.username, code }).expect(200)).body.data).toEqual({
      deleted: true,
      subscriptionCanceled: null,
    });
    expect((await sql.query('SELECT 1 FROM users WHERE username = $1', [g.username])).rowCount).toBe(0);

    // An account with a password is not sent a code: its password confirms.
    const p = await createUser(t, { tag: 'password' });
    const refused = await t
      .http()
      .post('/api/v1/account/deletion-code')
      .set(...p.auth())
      .expect(409);
    expect(refused.body.errors[0].code).toBe('DELETION_NEEDS_PASSWORD');
  });
});

describe('DELETE /account with Stripe (the official client against the local stand-in)', () => {
  let stripe: StripeTestServer;
  let t: TestApp;
  let webhook: string;
  beforeAll(async () => {
    stripe = await StripeTestServer.start();
    t = await startApp({
      STRIPE_SECRET_KEY: 'sk_test_sparks',
      STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
      STRIPE_API_BASE: stripe.url,
    });
    webhook = `${await t.url()}/api/v1/billing/webhooks/stripe`;
  });
  afterAll(async () => {
    await t.close();
    await stripe.close();
  });

  it('cancels the subscription and deletes the customer at Stripe; Stripe failing keeps the account (503)', async () => {
    const user = await createUser(t, { tag: 'stripe-del' });
    const [tenant] = (
      await sql.query(
        'SELECT t.id, t.customer_id FROM tenants t JOIN users u ON u.id = t.user_id WHERE u.username = $1',
        [user.username],
      )
    ).rows;
    const session = await t
      .http()
      .post(`/api/v1/billing/customers/${tenant.customer_id}/session`)
      .set(...user.auth())
      .send({ mode: 'subscription', priceId: 'price_ruby_month' })
      .expect(201);
    const paid = stripe.pay(String(session.body.data.sessionUrl).split('/pay/')[1]);
    expect((await stripe.deliver(webhook, stripe.event('checkout.session.completed', paid))).status).toBe(200);
    const subscriptionId = String(paid.subscription);
    const customer = String(paid.customer);
    expect(stripe.subscriptions.get(subscriptionId)?.status).toBe('active');
    const events = async () =>
      (await sql.query('SELECT count(*)::int AS n FROM billing_events WHERE strpos(payload::text, $1) > 0', [customer]))
        .rows[0].n as number;
    expect(await events()).toBeGreaterThan(0);

    const del = () =>
      t
        .http()
        .delete('/api/v1/account')
        .set(...user.auth())
        .send({ confirmation: user.username, password: PASSWORD });
    stripe.failNext = 5;
    expect((await del().expect(503)).body.errors[0].code).toBe('PAYMENT_PROVIDER_UNAVAILABLE');
    stripe.failNext = 0;
    expect((await sql.query('SELECT 1 FROM tenants WHERE id = $1', [tenant.id])).rowCount).toBe(1);
    expect(stripe.subscriptions.get(subscriptionId)?.status).toBe('active');

    expect((await del().expect(200)).body.data).toEqual({ deleted: true, subscriptionCanceled: 'stripe' });
    expect(stripe.subscriptions.get(subscriptionId)?.status).toBe('canceled');
    expect(stripe.calls('DELETE', `/v1/subscriptions/${subscriptionId}`)).toHaveLength(1);
    expect(stripe.customers.has(customer)).toBe(false);
    // The provider's events about the customer went with the account.
    expect(await events()).toBe(0);
    await eventually(async () => (await sql.query('SELECT 1 FROM account_purges')).rowCount === 0, 45_000);
  });
});
