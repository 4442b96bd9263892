import { Pool } from 'pg';
import { Redis } from 'ioredis';
import { JobProducer, queueOf } from '@sparks/queues';
import { userIdOf } from './fixtures/knowledge';
import { createUser, eventually, startApp, type SignedUser, type TestApp } from './harness';

/**
 * Website visitors' rights (issue 30): the widget is told how long conversations are kept (owner-set per Spark on
 * /deploy, 1–730 days, default 90), a visitor deletes their own conversation and no one else's, and the worker's
 * `retention.sweep` deletes conversations older than their Spark's retention (and visitors left with none).
 */
const sql = new Pool({ connectionString: process.env.DATABASE_URL, max: 4 });
sql.on('error', () => undefined);
const SHOP = 'http://shop.localhost:8081';
const w = (token: string) => `/api/v1/public/widgets/${token}`;

interface Published {
  user: SignedUser;
  sparkId: string;
  token: string;
}

async function published(t: TestApp, user?: SignedUser): Promise<Published> {
  const owner = user ?? (await createUser(t, { tag: 'visitors' }));
  await sql.query('UPDATE tenants SET limit_deployments = 5 WHERE user_id = $1', [await userIdOf(sql, owner.username)]);
  const spark = (
    await t
      .http()
      .post('/api/v1/sparks')
      .set(...owner.auth())
      .send({ name: 'Corner shop', options: { language: 'en' } })
      .expect(201)
  ).body.data as { _id: string };
  const view = (
    await t
      .http()
      .post(`/api/v1/sparks/${spark._id}/deployment`)
      .set(...owner.auth())
      .send({})
      .expect(200)
  ).body.data as { token: string };
  await t
    .http()
    .post(`/api/v1/sparks/${spark._id}/deployment/origins`)
    .set(...owner.auth())
    .send({ origin: SHOP })
    .expect(200);
  return { user: owner, sparkId: spark._id, token: view.token };
}

async function visitor(t: TestApp, p: Published): Promise<string> {
  return (
    await t
      .http()
      .post(`${w(p.token)}/visitors`)
      .set('Origin', SHOP)
      .send({})
      .expect(200)
  ).body.data.visitorToken as string;
}

async function conversation(t: TestApp, p: Published, visitorToken: string, question?: string): Promise<string> {
  const id = (
    await t
      .http()
      .post(`${w(p.token)}/conversations`)
      .set('Origin', SHOP)
      .set('Authorization', `Bearer ${visitorToken}`)
      .expect(201)
  ).body.data.conversationId as string;
  if (question) {
    await t
      .http()
      .post(`${w(p.token)}/conversations/${id}/messages`)
      .set('Origin', SHOP)
      .set('Authorization', `Bearer ${visitorToken}`)
      .send({ text: question })
      .expect(200);
  }
  return id;
}

const rows = async (query: string, params: unknown[]) => (await sql.query(query, params)).rowCount ?? 0;

describe('website visitors: retention notice, deleting their own conversation, the retention sweep', () => {
  let t: TestApp;
  let redis: Redis;
  let jobs: JobProducer;
  beforeAll(async () => {
    t = await startApp({ WIDGET_RATE_IP_MAX: '1000', WIDGET_RATE_TOKEN_MAX: '1000' });
    redis = new Redis(process.env.REDIS_URL!, { maxRetriesPerRequest: null });
    jobs = new JobProducer(redis, process.env.QUEUE_PREFIX!);
  });
  afterAll(async () => {
    await t.close();
    await jobs.close();
    redis.disconnect();
    await sql.end();
  });

  it('the widget is told the retention; the owner sets it on the Spark (1–730 days), no one else can', async () => {
    const p = await published(t);
    const config = async () =>
      (
        await t
          .http()
          .get(`${w(p.token)}/config`)
          .set('Origin', SHOP)
          .expect(200)
      ).body.data as { retentionDays: number };
    expect((await config()).retentionDays).toBe(90);
    const set = (days: unknown, user = p.user) =>
      t
        .http()
        .put(`/api/v1/sparks/${p.sparkId}/deployment/retention`)
        .set(...user.auth())
        .send({ days });
    expect((await set(30).expect(200)).body.data).toMatchObject({ sparkId: p.sparkId, visitorRetentionDays: 30 });
    expect((await config()).retentionDays).toBe(30);
    const view = await t
      .http()
      .get(`/api/v1/sparks/${p.sparkId}/deployment`)
      .set(...p.user.auth())
      .expect(200);
    expect(view.body.data.visitorRetentionDays).toBe(30);
    for (const days of [0, 731, 2.5, -1]) {
      const res = await set(days).expect(400);
      expect(res.body.errors[0]).toMatchObject({ code: 'RETENTION_DAYS_INVALID', field: 'days' });
      expect(res.body.errors[0].message).toMatch(/between 1 and 730 days/);
    }
    await set('30').expect(400);
    const stranger = await createUser(t, { tag: 'stranger' });
    await set(1, stranger).expect(404);
    expect((await config()).retentionDays).toBe(30);
  });

  it('a visitor deletes their own conversation (and its open questions), never another visitor’s', async () => {
    const p = await published(t);
    const [alice, bob] = [await visitor(t, p), await visitor(t, p)];
    const mine = await conversation(t, p, alice, 'Do you repair vintage radios?');
    const theirs = await conversation(t, p, bob, 'Do you deliver on Sundays?');
    await eventually(
      async () => (await rows('SELECT 1 FROM unanswered_questions WHERE spark_id = $1', [p.sparkId])) === 2,
    );
    // The owner answers Bob's question: that answer is the owner's and stays when Bob deletes his conversation.
    const groups = (
      await t
        .http()
        .get(`/api/v1/sparks/${p.sparkId}/unanswered`)
        .set(...p.user.auth())
        .expect(200)
    ).body.data as Array<{ id: string; question: string }>;
    const sundays = groups.find((g) => /Sundays/.test(g.question))!;
    await t
      .http()
      .post(`/api/v1/sparks/${p.sparkId}/unanswered/${sundays.id}/answer`)
      .set(...p.user.auth())
      .send({ answer: 'Yes, until noon.' })
      .expect(200);

    const remove = (id: string, token?: string, origin = SHOP) => {
      const req = t
        .http()
        .delete(`${w(p.token)}/conversations/${id}`)
        .set('Origin', origin);
      return token ? req.set('Authorization', `Bearer ${token}`) : req;
    };
    // Another visitor, no visitor token, a site not allowed: nothing goes.
    expect((await remove(mine, bob).expect(404)).body.errors[0].code).toBe('NOT_FOUND');
    await remove(mine).expect(401);
    await remove(mine, alice, 'http://evil.localhost:8082').expect(403);
    const other = await published(t);
    await t
      .http()
      .delete(`${w(other.token)}/conversations/${mine}`)
      .set('Origin', SHOP)
      .set('Authorization', `Bearer ${await visitor(t, other)}`)
      .expect(404);
    expect(await rows('SELECT 1 FROM messages WHERE conversation_id = $1', [mine])).toBeGreaterThan(0);

    expect((await remove(mine, alice).expect(200)).body.data).toEqual({ deleted: true });
    expect(await rows('SELECT 1 FROM conversations WHERE id = $1', [mine])).toBe(0);
    expect(await rows('SELECT 1 FROM messages WHERE conversation_id = $1', [mine])).toBe(0);
    expect(await rows(`SELECT 1 FROM unanswered_questions WHERE question LIKE '%vintage radios%'`, [])).toBe(0);
    await t
      .http()
      .get(`${w(p.token)}/conversations/${mine}`)
      .set('Origin', SHOP)
      .set('Authorization', `Bearer ${alice}`)
      .expect(404);
    await remove(mine, alice).expect(404);
    const list = await t
      .http()
      .get(`/api/v1/sparks/${p.sparkId}/deployment/conversations`)
      .set(...p.user.auth())
      .expect(200);
    expect((list.body.data as Array<{ conversationId: string }>).map((c) => c.conversationId)).toEqual([theirs]);

    await remove(theirs, bob).expect(200);
    const answered = await sql.query(
      `SELECT answered_at, message_id FROM unanswered_questions WHERE spark_id = $1 AND question LIKE '%Sundays%'`,
      [p.sparkId],
    );
    expect(answered.rows).toEqual([expect.objectContaining({ message_id: null })]);
    expect(answered.rows[0].answered_at).not.toBeNull();
  });

  it('the retention sweep deletes conversations older than their Spark keeps them, and visitors left with none', async () => {
    const owner = await createUser(t, { tag: 'sweep' });
    const short = await published(t, owner);
    const long = await published(t, owner);
    await t
      .http()
      .put(`/api/v1/sparks/${short.sparkId}/deployment/retention`)
      .set(...owner.auth())
      .send({ days: 30 })
      .expect(200);
    const gone = await visitor(t, short);
    const stays = await visitor(t, short);
    const old = await conversation(t, short, gone, 'Old question about opening hours?');
    const recent = await conversation(t, short, stays, 'Recent question?');
    const keptLonger = await conversation(t, long, await visitor(t, long), 'Question on the other Spark?');
    await sql.query(`UPDATE conversations SET updated_at = now() - interval '31 days' WHERE id = ANY($1::uuid[])`, [
      [old, keptLonger],
    ]);
    await sql.query(`UPDATE conversations SET updated_at = now() - interval '29 days' WHERE id = $1`, [recent]);
    await sql.query(
      `UPDATE visitors SET last_seen_at = now() - interval '40 days'
       WHERE id = (SELECT visitor_id FROM visitor_conversations WHERE conversation_id = $1)`,
      [old],
    );
    const [{ visitor_id: goneVisitor }] = (
      await sql.query('SELECT visitor_id FROM visitor_conversations WHERE conversation_id = $1', [old])
    ).rows;

    const jobId = await jobs.enqueue('retention.sweep', { requestedAt: `visitors-${Date.now()}` });
    const queue = jobs.queue(queueOf('retention.sweep'));
    await eventually(async () => (await queue.getJobState(jobId)) === 'completed', 30_000);
    expect((await queue.getJob(jobId))?.returnvalue).toMatchObject({
      conversations: expect.any(Number),
      visitors: expect.any(Number),
    });

    expect(await rows('SELECT 1 FROM conversations WHERE id = $1', [old])).toBe(0);
    expect(await rows('SELECT 1 FROM messages WHERE conversation_id = $1', [old])).toBe(0);
    expect(await rows('SELECT 1 FROM visitors WHERE id = $1', [goneVisitor])).toBe(0);
    expect(await rows('SELECT 1 FROM conversations WHERE id = ANY($1::uuid[])', [[recent, keptLonger]])).toBe(2);
    // The visitor whose conversation went can start again: a new session, a new conversation.
    await conversation(t, short, await visitor(t, short));
  });
});
