import { strFromU8, unzipSync } from 'fflate';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Pool } from 'pg';
import { JobProducer } from '@sparks/queues';
import { Redis } from 'ioredis';
import { createUser, eventually, startApp, waitForMail, type SignedUser, type TestApp } from './harness';
import { richAccount, type RichAccount } from './support/rich-account';

/**
 * The owner's export (issue 30): `GET /account/export` answers a zip of everything of the account, at once for a
 * small account and through the worker's `account.export` (a link by e-mail) for a large one; only its owner gets
 * it, the link works while its secret matches and it lives, and the retention sweep removes expired ones.
 */
const sql = new Pool({ connectionString: process.env.DATABASE_URL, max: 4 });
sql.on('error', () => undefined);
const STORAGE_DIR = process.env.STORAGE_DIR!;

type Zip = Record<string, Uint8Array>;
const text = (zip: Zip, name: string) => strFromU8(zip[name]);
const json = (zip: Zip, name: string) => JSON.parse(text(zip, name)) as unknown;
const find = (zip: Zip, pattern: RegExp) => Object.keys(zip).filter((n) => pattern.test(n));

/** GET with the body kept as bytes (supertest would read a zip as text). */
function binary(t: TestApp, url: string, user?: SignedUser) {
  const req = t
    .http()
    .get(url)
    .buffer(true)
    .parse((res, done) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => done(null, Buffer.concat(chunks)));
    });
  return user ? req.set(...user.auth()) : req;
}

/** Every part the issue lists, each with what the account put in it. */
function expectEverything(zip: Zip, a: RichAccount): void {
  const readme = text(zip, 'README.txt');
  for (const part of ['account/profile.json', 'billing/checkouts.json', 'documents/files/', 'conversations/visitors/'])
    expect(readme).toContain(part);
  expect(json(zip, 'account/profile.json')).toMatchObject({
    id: a.userId,
    email: a.user.username,
    firstname: `Ana ${a.marker}`,
    timeZone: 'Europe/Madrid',
    weeklyDigest: false,
    signsInWithPassword: true,
    tenants: [{ customerId: a.customerId, productName: 'Ruby' }],
  });
  expect(text(zip, 'account/profile.json')).not.toMatch(/password_hash|\$argon2/);
  expect(json(zip, 'billing/checkouts.json')).toEqual([
    expect.objectContaining({ id: a.checkoutSessionId, mode: 'subscription', provider: 'local', status: 'paid' }),
  ]);
  expect(json(zip, 'billing/subscription.json')).toEqual([expect.objectContaining({ plan: 'ruby', status: 'active' })]);
  expect(json(zip, 'billing/usage.json')).toEqual(
    expect.arrayContaining([expect.objectContaining({ source: 'plan' })]),
  );

  const folder = `sparks/01-Bakery ${a.marker}`;
  expect(json(zip, `${folder}/spark.json`)).toMatchObject({ id: a.sparkId, visitorRetentionDays: 90 });
  expect(text(zip, `${folder}/instructions.txt`)).toContain(`You are the assistant of Bakery ${a.marker}`);
  expect(json(zip, `${folder}/deployment.json`)).toMatchObject({
    published: { channel: 'widget' },
    allowedSites: [{ origin: 'http://shop.localhost:8081' }],
  });
  expect(text(zip, `${folder}/deployment.json`)).not.toContain(a.deployToken);
  // The file as it was uploaded, and what was read of it.
  expect(Buffer.from(zip[`${folder}/documents/files/01-Hours ${a.marker}.pdf`]).equals(a.pdf)).toBe(true);
  expect(text(zip, `${folder}/documents/text/01-Hours ${a.marker}.pdf.txt`)).toContain(
    `The bakery ${a.marker} opens every day from 8 to 20.`,
  );
  expect(json(zip, `${folder}/documents/documents.json`)).toEqual([
    expect.objectContaining({
      id: a.documentId,
      status: 'completed',
      file: `documents/files/01-Hours ${a.marker}.pdf`,
    }),
  ]);
  expect(json(zip, `${folder}/owner-answers.json`)).toEqual([
    expect.objectContaining({
      question: `Do you sell gift cards ${a.marker}?`,
      answer: expect.stringContaining(`Yes, gift cards ${a.marker} from 10 euros.`),
    }),
  ]);
  expect(json(zip, `${folder}/tests.json`)).toEqual([expect.objectContaining({ name: `Hours test ${a.marker}` })]);
  const [testChat] = find(zip, new RegExp(`^${folder}/conversations/tests/Hours test ${a.marker}-.*\\.json$`));
  expect(text(zip, testChat)).toContain(`When does the bakery ${a.marker} open?`);
  const [visitorChat] = find(zip, new RegExp(`^${folder}/conversations/visitors/.*\\.json$`));
  expect(json(zip, visitorChat)).toMatchObject({
    id: a.widgetConversationId,
    kind: 'widget',
    visitor: { origin: 'http://shop.localhost:8081', contactEmail: a.contactEmail },
    messages: expect.arrayContaining([
      expect.objectContaining({ type: 'human', content: `Is the bakery ${a.marker} open on Sunday?` }),
      expect.objectContaining({ type: 'ai' }),
    ]),
  });
  const [home] = find(zip, /^conversations\/main-.*\.json$/);
  expect(json(zip, home)).toMatchObject({
    kind: 'system',
    systemName: 'main',
    messages: expect.arrayContaining([expect.objectContaining({ content: `Hello, I am Ana ${a.marker}` })]),
  });
}

/** One signing secret for both apps of this file, so that a user signed in on one is signed in on the other. */
const JWT_SECRET = randomBytes(32).toString('hex');

describe('GET /account/export', () => {
  let t: TestApp;
  let a: RichAccount;
  beforeAll(async () => {
    t = await startApp({ JWT_SECRET });
    a = await richAccount(t, sql);
  }, 120_000);
  afterAll(() => t.close());

  it('a small account: the zip at once, with every part and a README of its layout; nothing of another account', async () => {
    const res = await binary(t, '/api/v1/account/export', a.user).expect(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="sparks-data-\d{4}-\d{2}-\d{2}\.zip"$/);
    expectEverything(unzipSync(new Uint8Array(res.body as Buffer)), a);

    // Another user's export holds their own account and nothing of this one.
    const other = await createUser(t, { language: 'es', tag: 'other' });
    const theirs = unzipSync(new Uint8Array((await binary(t, '/api/v1/account/export', other).expect(200)).body));
    expect(text(theirs, 'README.txt')).toContain('Tus datos de Sparks');
    const all = Object.values(theirs).map((bytes) => Buffer.from(bytes).toString('latin1'));
    expect(all.some((s) => s.includes(a.marker) || s.includes(a.userId))).toBe(false);
    await t.http().get('/api/v1/account/export').expect(401);
  });

  it('a large account: built by the worker, its link e-mailed; only the link with its secret downloads it, while it lives', async () => {
    const big = await startApp({ JWT_SECRET, EXPORT_INLINE_MAX_BYTES: '0' });
    try {
      const queued = await big
        .http()
        .get('/api/v1/account/export')
        .set(...a.user.auth())
        .expect(202);
      expect(queued.body.data).toMatchObject({ status: 'queued', email: a.user.username, linkDays: 7 });
      const exportId = queued.body.data.exportId as string;
      // Asking again while it is built queues nothing more.
      const again = await big
        .http()
        .get('/api/v1/account/export')
        .set(...a.user.auth())
        .expect(202);
      expect(again.body.data.exportId).toBe(exportId);

      const mail = await waitForMail(big, a.user.username, (m) => /ready to download/.test(m.subject));
      const link = new URL(/https?:\/\/\S+\/download\?token=\S+/.exec(mail.text)![0]);
      expect(link.pathname).toBe(`/api/v1/account/exports/${exportId}/download`);
      const [row] = (await sql.query('SELECT * FROM account_exports WHERE id = $1', [exportId])).rows;
      expect(row).toMatchObject({ status: 'ready', storage_key: `exports/${exportId}.zip` });
      expect(row.token_hash).not.toContain(link.searchParams.get('token'));
      const days = (row.expires_at.getTime() - Date.now()) / 86_400_000;
      expect(days).toBeGreaterThan(6.9);
      expect(days).toBeLessThanOrEqual(7);

      const zip = unzipSync(new Uint8Array((await binary(big, `${link.pathname}${link.search}`).expect(200)).body));
      expectEverything(zip, a);

      // A wrong secret, another export's id, no secret: 404 (nothing says which part was wrong).
      const wrong = await big
        .http()
        .get(link.pathname)
        .query({ token: 'x'.repeat(43) })
        .expect(404);
      expect(wrong.body.errors[0].code).toBe('EXPORT_LINK_INVALID');
      await big.http().get(`/api/v1/account/exports/${a.userId}/download${link.search}`).expect(404);
      await big.http().get(link.pathname).expect(400);

      // Expired: the link stops; the retention sweep deletes the file and the row.
      await sql.query(`UPDATE account_exports SET expires_at = now() - interval '1 minute' WHERE id = $1`, [exportId]);
      await big.http().get(`${link.pathname}${link.search}`).expect(404);
      expect(fs.existsSync(path.join(STORAGE_DIR, row.storage_key))).toBe(true);
      const redis = new Redis(process.env.REDIS_URL!, { maxRetriesPerRequest: null });
      const jobs = new JobProducer(redis, process.env.QUEUE_PREFIX!);
      try {
        await jobs.enqueue('retention.sweep', { requestedAt: `export-${exportId}` });
        await eventually(
          async () => (await sql.query('SELECT 1 FROM account_exports WHERE id = $1', [exportId])).rowCount === 0,
        );
      } finally {
        await jobs.close();
        redis.disconnect();
      }
      expect(fs.existsSync(path.join(STORAGE_DIR, row.storage_key))).toBe(false);
    } finally {
      await big.close();
    }
  }, 90_000);
});

afterAll(() => sql.end());
