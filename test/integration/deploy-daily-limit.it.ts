import { Pool } from 'pg';
import { utcDay } from '../../api/src/deploy/deployment-cap';
import { eventually, startApp, type OutboxMail, type TestApp } from './harness';
import { deployOwner, deploymentPath, publishOn, widgetPath, type DeployOwner } from './support/deploy';

/**
 * A published Spark's daily limit of visitor messages (issue 30): set by its owner (`PATCH …/deployment`), shown in
 * the deployment's view, enforced on every widget send with 429 DEPLOYMENT_DAILY_LIMIT and Retry-After until the
 * next UTC day, and told to the owner by e-mail once a day, in their language.
 */
const sql = new Pool({ connectionString: process.env.DATABASE_URL, max: 2 });
sql.on('error', () => undefined);
afterAll(() => sql.end());

const SHOP = 'http://shop.localhost:8081';

let t: TestApp;
beforeAll(async () => {
  t = await startApp({ WIDGET_RATE_IP_MAX: '1000', WIDGET_RATE_TOKEN_MAX: '1000' });
});
afterAll(() => t.close());

type Owner = DeployOwner;

const owner = (language: 'en' | 'es') =>
  deployOwner(t, sql, {
    language,
    tag: 'daily',
    pages: ['Rentals cost 25 dollars per day, helmet and lock included.'],
  });
const dep = deploymentPath;
const w = widgetPath;
const publish = (o: Owner) => publishOn(t, o, SHOP);

async function visitorWithConversation(token: string): Promise<{ v: string; conv: string }> {
  const v = (
    await t
      .http()
      .post(`${w(token)}/visitors`)
      .set('Origin', SHOP)
      .send({})
      .expect(200)
  ).body.data.visitorToken as string;
  const conv = (
    await t
      .http()
      .post(`${w(token)}/conversations`)
      .set('Origin', SHOP)
      .set('Authorization', `Bearer ${v}`)
      .expect(201)
  ).body.data.conversationId as string;
  return { v, conv };
}

const ask = (token: string, who: { v: string; conv: string }, route: 'messages' | 'stream' = 'messages', lang = 'en') =>
  t
    .http()
    .post(`${w(token)}/conversations/${who.conv}/${route}`)
    .set('Origin', SHOP)
    .set('Accept-Language', lang)
    .set('Authorization', `Bearer ${who.v}`)
    .send({ text: 'How much is a rental?' });

const limitMails = async (o: Owner): Promise<OutboxMail[]> => {
  const res = await t.http().get('/api/v1/dev/outbox').query({ to: o.user.username });
  return (res.body.data as OutboxMail[]).filter((m) => /daily limit|límite diario/.test(m.subject));
};

describe('deploy: the daily limit of a published Spark (issue 30)', () => {
  it('is 200 by default, set by its owner within 1–10,000 (400 DAILY_LIMIT_INVALID), and nobody else’s to set', async () => {
    const o = await owner('es');
    const view = (
      await t
        .http()
        .get(dep(o))
        .set(...o.user.auth())
        .expect(200)
    ).body.data;
    expect(view).toMatchObject({ dailyLimit: 200, usedToday: 0 });
    for (const dailyLimit of [0, -1, 10_001, 2.5]) {
      const res = await t
        .http()
        .patch(dep(o))
        .set('Accept-Language', 'es')
        .set(...o.user.auth())
        .send({ dailyLimit })
        .expect(400);
      expect(res.body.errors[0]).toMatchObject({
        code: 'DAILY_LIMIT_INVALID',
        message: expect.stringMatching(/10\.000/),
      });
    }
    for (const body of [{ dailyLimit: '50' }, { dailyLimit: null }, {}]) {
      await t
        .http()
        .patch(dep(o))
        .set(...o.user.auth())
        .send(body)
        .expect(400);
    }
    const stranger = await owner('en');
    await t
      .http()
      .patch(dep(o))
      .set(...stranger.user.auth())
      .send({ dailyLimit: 5 })
      .expect(404);
    // Set before publishing, and kept by publishing.
    const set = await t
      .http()
      .patch(dep(o))
      .set(...o.user.auth())
      .send({ dailyLimit: 10_000 })
      .expect(200);
    expect(set.body.data).toMatchObject({ dailyLimit: 10_000, published: false });
    await publish(o);
    expect(
      (
        await t
          .http()
          .get(dep(o))
          .set(...o.user.auth())
          .expect(200)
      ).body.data,
    ).toMatchObject({ dailyLimit: 10_000, published: true });
  });

  it('past it every visitor gets 429 DEPLOYMENT_DAILY_LIMIT until the next UTC day; the owner is e-mailed once', async () => {
    const o = await owner('es');
    const token = await publish(o);
    await t
      .http()
      .patch(dep(o))
      .set(...o.user.auth())
      .send({ dailyLimit: 2 })
      .expect(200);
    const first = await visitorWithConversation(token);
    expect((await ask(token, first)).status).toBe(200);
    expect((await ask(token, first, 'stream')).status).toBe(200);

    const refused = await ask(token, first, 'messages', 'es');
    expect(refused.status).toBe(429);
    expect(refused.body.errors[0]).toMatchObject({
      code: 'DEPLOYMENT_DAILY_LIMIT',
      message: expect.stringMatching(/correo/),
    });
    expect(refused.body.errors[0].message).not.toMatch(/plan|interacciones/);
    const wait = Number(refused.headers['retry-after']);
    const expected = utcDay(new Date()).secondsLeft;
    expect(wait).toBeGreaterThanOrEqual(1);
    expect(Math.abs(wait - expected)).toBeLessThanOrEqual(5);
    expect(refused.headers['access-control-expose-headers']).toMatch(/Retry-After/);

    // Another visitor, the stream route: refused alike; nothing stored for the refused questions.
    const second = await visitorWithConversation(token);
    const streamed = await ask(token, second, 'stream');
    expect(streamed.status).toBe(429);
    expect(streamed.body.errors[0].code).toBe('DEPLOYMENT_DAILY_LIMIT');
    const stored = await sql.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM messages WHERE conversation_id = $1',
      [second.conv],
    );
    expect(stored.rows[0].n).toBe(0);

    // The owner's e-mail: once, in their language, whatever the number of refusals.
    const mail = await eventually(async () => (await limitMails(o))[0]);
    expect(mail.subject).toMatch(/límite diario/);
    expect(mail.text).toMatch(/\/deploy/);
    for (let i = 0; i < 3; i += 1) expect((await ask(token, second)).status).toBe(429);
    await new Promise((r) => setTimeout(r, 500));
    expect(await limitMails(o)).toHaveLength(1);

    // The owner sees today's count, and the visitor may still leave an e-mail.
    const view = (
      await t
        .http()
        .get(dep(o))
        .set(...o.user.auth())
        .expect(200)
    ).body.data;
    expect(view).toMatchObject({ dailyLimit: 2, usedToday: 2 });
    await t
      .http()
      .post(`${w(token)}/contact`)
      .set('Origin', SHOP)
      .set('Authorization', `Bearer ${second.v}`)
      .send({ email: 'visitor@example.com', conversationId: second.conv })
      .expect(200);

    // Raised, it answers again at once.
    await t
      .http()
      .patch(dep(o))
      .set(...o.user.auth())
      .send({ dailyLimit: 3 })
      .expect(200);
    expect((await ask(token, second)).status).toBe(200);
    expect((await ask(token, second)).status).toBe(429);
  });

  it('the owner’s preview is not counted', async () => {
    const o = await owner('en');
    await publish(o);
    await t
      .http()
      .patch(dep(o))
      .set(...o.user.auth())
      .send({ dailyLimit: 1 })
      .expect(200);
    const preview = (
      await t
        .http()
        .post(`${dep(o)}/preview`)
        .set(...o.user.auth())
        .expect(200)
    ).body.data.token as string;
    const APP = 'http://localhost:3000';
    const v = (
      await t
        .http()
        .post(`${w(preview)}/visitors`)
        .set('Origin', APP)
        .send({})
        .expect(200)
    ).body.data.visitorToken as string;
    const conv = (
      await t
        .http()
        .post(`${w(preview)}/conversations`)
        .set('Origin', APP)
        .set('Authorization', `Bearer ${v}`)
        .expect(201)
    ).body.data.conversationId as string;
    for (let i = 0; i < 2; i += 1) {
      const res = await t
        .http()
        .post(`${w(preview)}/conversations/${conv}/messages`)
        .set('Origin', APP)
        .set('Authorization', `Bearer ${v}`)
        .send({ text: 'Rentals?' });
      expect(res.status).toBe(200);
    }
  });
});
