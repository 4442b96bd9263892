import { WIDGET_ICON_PATHS } from '@sparks/contracts';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { Pool } from 'pg';
import { addDocument, userIdOf } from './fixtures/knowledge';
import { readEvents } from './fixtures/sse';
import { createUser, eventually, startApp, type SignedUser, type TestApp } from './harness';

const sql = new Pool({ connectionString: process.env.DATABASE_URL, max: 2 });
sql.on('error', () => undefined);
afterAll(() => sql.end());

const SHOP = 'http://shop.localhost:8081';
const OTHER = 'http://evil.localhost:8082';
/** The app's own origin: APP_URL's (test/integration/global-setup.ts). */
const APP = 'http://localhost:3000';
const HANDBOOK = [
  'Welcome to Northwind Bikes. We repair and rent bicycles in Portland.',
  'Rentals cost 25 dollars per day, helmet and lock included. Electric bikes cost 45 dollars per day.',
  'Our return policy: unused parts can be returned within 30 days with the receipt for a full refund.',
];

interface Owner {
  user: SignedUser;
  userId: string;
  sparkId: string;
}

async function owner(t: TestApp, deployments = 1): Promise<Owner> {
  const user = await createUser(t, { language: 'en' });
  const userId = await userIdOf(sql, user.username);
  await sql.query('UPDATE tenants SET limit_deployments = $2 WHERE user_id = $1', [userId, deployments]);
  const spark = (
    await t
      .http()
      .post('/api/v1/sparks')
      .set(...user.auth())
      .send({ name: 'Northwind', options: { language: 'en' } })
      .expect(201)
  ).body.data;
  await addDocument(sql, { sparkId: spark._id, userId, name: 'Handbook.pdf', pages: HANDBOOK, language: 'en' });
  return { user, userId, sparkId: spark._id };
}

const dep = (o: Owner) => `/api/v1/sparks/${o.sparkId}/deployment`;

async function publish(t: TestApp, o: Owner, origins: string[] = [SHOP]): Promise<string> {
  const view = (
    await t
      .http()
      .post(dep(o))
      .set(...o.user.auth())
      .send({})
      .expect(200)
  ).body.data;
  for (const origin of origins) {
    await t
      .http()
      .post(`${dep(o)}/origins`)
      .set(...o.user.auth())
      .send({ origin })
      .expect(200);
  }
  return view.token as string;
}

const w = (token: string) => `/api/v1/public/widgets/${token}`;

/** What `GET …/deployment` answers (the fields the tests read by name). */
interface DeploymentData {
  published: boolean;
  token: string;
  snippet: string;
  scriptUrl: string;
  origins: unknown[];
  [key: string]: unknown;
}

/** The Spark's deployment as its owner reads it (`GET …/deployment`, 200). */
async function deployment(t: TestApp, o: Owner): Promise<DeploymentData> {
  return (
    await t
      .http()
      .get(dep(o))
      .set(...o.user.auth())
      .expect(200)
  ).body.data as DeploymentData;
}

/** A site's request for the widget's configuration (`GET …/config` from `origin`). */
const widgetConfig = (t: TestApp, token: string, origin = SHOP) =>
  t
    .http()
    .get(`${w(token)}/config`)
    .set('Origin', origin);

async function visitor(t: TestApp, token: string, origin = SHOP): Promise<string> {
  const res = await t
    .http()
    .post(`${w(token)}/visitors`)
    .set('Origin', origin)
    .send({})
    .expect(200);
  return res.body.data.visitorToken as string;
}

async function conversation(t: TestApp, token: string, visitorToken: string, origin = SHOP): Promise<string> {
  const res = await t
    .http()
    .post(`${w(token)}/conversations`)
    .set('Origin', origin)
    .set('Authorization', `Bearer ${visitorToken}`)
    .expect(201);
  return res.body.data.conversationId as string;
}

/** One message to the deploy assistant (/deploy's chat) and what it answered: texts and button values. */
async function askDeploy(t: TestApp, user: SignedUser, text: string, sessionId?: string) {
  const query = new URLSearchParams({ 'input.text': text, ...(sessionId ? { sessionId } : {}) });
  const res = await fetch(`${await t.url()}/api/v1/spark-sys/deploy/chat?${query.toString()}`, {
    headers: { Authorization: `Bearer ${user.access}` },
  });
  expect(res.status).toBe(200);
  const events = await readEvents(res);
  expect(events.at(-1)).toMatchObject({ type: 'done' });
  const session = events[0].sessionId as string;
  const messages = (
    await t
      .http()
      .get(`/api/v1/spark-sys/conversations/${session}`)
      .set(...user.auth())
      .expect(200)
  ).body.data.messages as Array<{ type: string; data: Record<string, unknown> }>;
  const asked = messages.map((m) => m.data.content).lastIndexOf(text);
  const replies = messages.slice(asked + 1);
  return {
    sessionId: session,
    messages,
    texts: replies.filter((m) => m.type === 'ai').map((m) => m.data.content as string),
    buttons: replies
      .filter((m) => m.type === 'action' && m.data.type === 'buttons')
      .flatMap((m) => (m.data.buttons as Array<{ value?: string }>).map((b) => b.value)),
  };
}

describe('deploy: publish, the public widget API, the allow-list and visitors (real worker)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp({ WIDGET_RATE_VISITOR_MAX: '4', WIDGET_RATE_IP_MAX: '1000', WIDGET_RATE_TOKEN_MAX: '1000' });
  });
  afterAll(() => t.close());

  it('publishes within the plan: 0 deployments refuses, the token is never in the Spark, a second Spark passes the limit → 402', async () => {
    const o = await owner(t, 0);
    const refused = await t
      .http()
      .post(dep(o))
      .set(...o.user.auth())
      .send({})
      .expect(402);
    expect(refused.body.errors[0].code).toBe('DEPLOYMENT_NOT_INCLUDED');
    await sql.query('UPDATE tenants SET limit_deployments = 1 WHERE user_id = $1', [o.userId]);
    const token = await publish(t, o);
    expect(token).toMatch(/^dt_[\w-]{40,}$/);
    const spark = (
      await t
        .http()
        .get(`/api/v1/sparks/${o.sparkId}`)
        .set(...o.user.auth())
        .expect(200)
    ).body.data;
    expect(JSON.stringify(spark)).not.toContain(token);
    expect(spark.options.deployToken).toBeUndefined();
    const view = await deployment(t, o);
    expect(view).toMatchObject({ published: true, token, origins: [{ origin: SHOP, source: 'owner' }] });
    expect(view.snippet).toBe(`<script src="${view.scriptUrl}" data-token="${token}" async></script>`);
    const [{ token_hash }] = (await sql.query('SELECT token_hash FROM deployments WHERE spark_id = $1', [o.sparkId]))
      .rows;
    expect(token_hash).not.toContain(token);
    const second = (
      await t
        .http()
        .post('/api/v1/sparks')
        .set(...o.user.auth())
        .send({ name: 'Second' })
        .expect(201)
    ).body.data;
    const past = await t
      .http()
      .post(`/api/v1/sparks/${second._id}/deployment`)
      .set(...o.user.auth())
      .send({})
      .expect(402);
    expect(past.body.errors[0]).toMatchObject({ code: 'DEPLOYMENT_LIMIT' });
    // Another user's Spark is not found.
    const stranger = await owner(t);
    await t
      .http()
      .get(dep(o))
      .set(...stranger.user.auth())
      .expect(404);
    await t
      .http()
      .post(dep(o))
      .set(...stranger.user.auth())
      .send({})
      .expect(404);
  });

  it('answers only listed origins: exact origin back with Vary, never *; others 403 with no CORS header', async () => {
    const o = await owner(t);
    const token = await publish(t, o);
    const ok = await widgetConfig(t, token).expect(200);
    expect(ok.headers['access-control-allow-origin']).toBe(SHOP);
    expect(ok.headers.vary).toMatch(/Origin/);
    expect(ok.body.data).toMatchObject({ sparkId: o.sparkId, name: 'Northwind', language: 'en', position: 'right' });
    // No icon chosen yet: the launcher draws the default one (sparkles).
    expect(ok.body.data.theme).toEqual({
      primary: '#4f46e5',
      secondary: '#eef2ff',
      icon: null,
      iconPaths: [...WIDGET_ICON_PATHS.sparkles],
    });
    // The icon and palette chosen in the builder: the launcher's paths and colours follow them.
    await sql.query(`UPDATE sparks SET options = jsonb_set(options, '{theme}', $2::jsonb) WHERE id = $1`, [
      o.sparkId,
      JSON.stringify({ palette: { name: 'forest', primary: '#1f7a4d', secondary: '#e4f5ec' }, icon: 'store' }),
    ]);
    const themed = await widgetConfig(t, token).expect(200);
    expect(themed.body.data.theme).toEqual({
      primary: '#1f7a4d',
      secondary: '#e4f5ec',
      icon: 'store',
      iconPaths: [...WIDGET_ICON_PATHS.store],
    });

    const pre = await t
      .http()
      .options(`${w(token)}/visitors`)
      .set('Origin', SHOP)
      .set('Access-Control-Request-Method', 'POST')
      .set('Access-Control-Request-Headers', 'authorization,content-type')
      .expect(204);
    expect(pre.headers['access-control-allow-origin']).toBe(SHOP);
    expect(pre.headers['access-control-allow-headers']).toMatch(/Authorization/);

    for (const req of [
      widgetConfig(t, token, OTHER),
      t
        .http()
        .options(`${w(token)}/visitors`)
        .set('Origin', OTHER)
        .set('Access-Control-Request-Method', 'POST'),
      t
        .http()
        .post(`${w(token)}/visitors`)
        .set('Origin', OTHER)
        .send({}),
      t.http().get(`${w(token)}/config`),
    ]) {
      const res = await req;
      expect(res.status).toBe(403);
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
      expect(res.body.errors[0].code).toBe('ORIGIN_NOT_ALLOWED');
    }
    // The app's own origin (APP_URL's, never what the request's Host says) is allowed (the preview).
    const base = await t.url();
    const self = await fetch(`${base}${w(token)}/config`, { headers: { Origin: APP } });
    expect(self.status).toBe(200);
    expect(self.headers.get('access-control-allow-origin')).toBe(APP);
    const host = new URL(base).host;
    const spoofed = await widgetConfig(t, token, `http://${host}`).set('Host', host);
    expect(spoofed.status).toBe(403);

    // Removing a site takes it off at once; the first sighting was recorded.
    const seen = await deployment(t, o);
    expect(seen).toMatchObject({ firstSeenOrigin: SHOP, firstSeenAt: expect.any(String) });
    await t
      .http()
      .post(`${dep(o)}/origins/remove`)
      .set(...o.user.auth())
      .send({ origin: SHOP })
      .expect(200);
    await widgetConfig(t, token).expect(403);
    const bad = await t
      .http()
      .post(`${dep(o)}/origins`)
      .set(...o.user.auth())
      .send({ origin: 'javascript:alert(1)' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].code).toBe('INVALID_ORIGIN');
  });

  it('keeps each visitor to their own conversation and answers with sources, as JSON and as a stream', async () => {
    const o = await owner(t);
    const token = await publish(t, o);
    const [a, b] = [await visitor(t, token), await visitor(t, token)];
    const conv = await conversation(t, token, a);
    const answer = await t
      .http()
      .post(`${w(token)}/conversations/${conv}/messages`)
      .set('Origin', SHOP)
      .set('Authorization', `Bearer ${a}`)
      .send({ text: 'What is the return policy for parts?' })
      .expect(200);
    expect(answer.headers['access-control-allow-origin']).toBe(SHOP);
    expect(answer.body.data.ai.data.content).toContain('Handbook, page 3');
    expect(answer.body.data.ai.data.sources.length).toBeGreaterThan(0);

    // Visitor b cannot read or write a's conversation; no visitor token: 401.
    for (const req of [
      t
        .http()
        .get(`${w(token)}/conversations/${conv}`)
        .set('Origin', SHOP)
        .set('Authorization', `Bearer ${b}`),
      t
        .http()
        .post(`${w(token)}/conversations/${conv}/messages`)
        .set('Origin', SHOP)
        .set('Authorization', `Bearer ${b}`)
        .send({ text: 'hi' }),
    ]) {
      expect((await req).status).toBe(404);
    }
    await t
      .http()
      .get(`${w(token)}/conversations/${conv}`)
      .set('Origin', SHOP)
      .expect(401);
    const own = await t
      .http()
      .get(`${w(token)}/conversations/${conv}`)
      .set('Origin', SHOP)
      .set('Authorization', `Bearer ${a}`)
      .expect(200);
    expect(own.body.data.messages).toHaveLength(2);

    // Streamed: SSE headers, tokens, then the cited message.
    const base = await t.url();
    const res = await fetch(`${base}${w(token)}/conversations/${conv}/stream`, {
      method: 'POST',
      headers: { Origin: SHOP, Authorization: `Bearer ${a}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ text: 'How much is an electric bike per day?' }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(res.headers.get('x-accel-buffering')).toBe('no');
    expect(res.headers.get('access-control-allow-origin')).toBe(SHOP);
    const events = await readEvents(res);
    const done = events.at(-1)!;
    expect(done.type).toBe('done');
    const tokens = events.filter((e) => e.type === 'token').map((e) => e.text as string);
    expect(tokens.length).toBeGreaterThan(0);
    const [reply] = done.messages as Array<{ data: { content: string; sources: unknown[] } }>;
    expect(reply.data.content).toContain('45');
    expect(tokens.join('')).toBe(reply.data.content);

    // The owner reads the visitors' conversations, read-only; another owner does not.
    const list = await t
      .http()
      .get(`${dep(o)}/conversations`)
      .set(...o.user.auth())
      .expect(200);
    expect(list.body.data).toEqual([expect.objectContaining({ conversationId: conv, origin: SHOP, messages: 4 })]);
    const read = await t
      .http()
      .get(`${dep(o)}/conversations/${conv}`)
      .set(...o.user.auth())
      .expect(200);
    expect(read.body.data.messages).toHaveLength(4);
    const stranger = await owner(t);
    await t
      .http()
      .get(`/api/v1/sparks/${o.sparkId}/deployment/conversations/${conv}`)
      .set(...stranger.user.auth())
      .expect(404);
    await t
      .http()
      .get(`/api/v1/llm/chat-history/${conv}`)
      .set(...stranger.user.auth())
      .expect(404);
  });

  it('scopes tokens: a visitor token of one Spark is refused on another, tokens open no owner route', async () => {
    const [x, y] = [await owner(t), await owner(t)];
    const [tx, ty] = [await publish(t, x), await publish(t, y)];
    const vx = await visitor(t, tx);
    await t
      .http()
      .post(`${w(ty)}/conversations`)
      .set('Origin', SHOP)
      .set('Authorization', `Bearer ${vx}`)
      .expect(401);
    const convX = await conversation(t, tx, vx);
    const vy = await visitor(t, ty);
    await t
      .http()
      .get(`${w(ty)}/conversations/${convX}`)
      .set('Origin', SHOP)
      .set('Authorization', `Bearer ${vy}`)
      .expect(404);
    for (const bearer of [tx, vx]) {
      await t.http().get('/api/v1/sparks').set('Authorization', `Bearer ${bearer}`).expect(401);
      await t.http().get(dep(x)).set('Authorization', `Bearer ${bearer}`).expect(401);
    }
    // The public token alone cannot touch the allow-list: there is no such public route.
    const res = await t
      .http()
      .post(`${w(tx)}/origins`)
      .set('Origin', SHOP)
      .send({ origin: OTHER });
    expect(res.status).toBe(404);
    await widgetConfig(t, tx, OTHER).expect(403);
  });

  it('publishing completes the Spark’s own "Deploy it" step, to 100 % — also for a Spark published earlier; unpublishing makes it pending again', async () => {
    const o = await owner(t);
    type Group = { _id: string; status: string; steps: Array<{ _id: string; status: string }> };
    const objectives = async (lang: 'en' | 'es' = 'en') =>
      (
        await t
          .http()
          .get(`/api/v1/objectives/${o.sparkId}?lang=${lang}`)
          .set(...o.user.auth())
          .expect(200)
      ).body as { data: Group[]; meta: { progress: number; isCompleted: boolean } };
    const publishStep = (body: { data: Group[] }) => body.data.find((g) => g._id === 'deploy')!;
    // Every other step of the builder done (as the builder chat marks them).
    const before = await objectives();
    const others = before.data.flatMap((g) => g.steps.map((s) => s._id)).filter((id) => id !== 'deploy.publish');
    expect(others).toHaveLength(11);
    for (const stepId of others)
      await t
        .http()
        .patch(`/api/v1/objectives/${o.sparkId}`)
        .set(...o.user.auth())
        .send({ stepId, status: 'completed' })
        .expect(200);
    const waiting = await objectives();
    expect(publishStep(waiting)).toMatchObject({
      status: 'pending',
      steps: [{ _id: 'deploy.publish', status: 'pending' }],
    });
    expect(waiting.meta).toMatchObject({ progress: 92, isCompleted: false });

    await publish(t, o);
    for (const lang of ['en', 'es'] as const) {
      const live = await objectives(lang);
      expect(publishStep(live)).toMatchObject({ status: 'completed', steps: [{ status: 'completed' }] });
      expect(live.meta).toMatchObject({ progress: 100, isCompleted: true });
    }

    // A Spark published before the rule: a deployment and no stored status for the step at all.
    await sql.query(`UPDATE objectives SET statuses = statuses - 'deploy.publish' WHERE key = $1`, [o.sparkId]);
    expect((await objectives()).meta.progress).toBe(100);

    await t
      .http()
      .delete(dep(o))
      .set(...o.user.auth())
      .expect(200);
    expect(publishStep(await objectives()).steps[0].status).toBe('pending');
  });

  it('rotating kills the old token and its visitor sessions at once; unpublishing kills the new one', async () => {
    const o = await owner(t);
    const old = await publish(t, o);
    const v = await visitor(t, old);
    const rotated = (
      await t
        .http()
        .post(`${dep(o)}/rotate`)
        .set(...o.user.auth())
        .expect(200)
    ).body.data;
    expect(rotated.token).not.toBe(old);
    const gone = await widgetConfig(t, old).expect(404);
    expect(gone.body.errors[0].code).toBe('DEPLOY_TOKEN_INVALID');
    await widgetConfig(t, rotated.token).expect(200);
    await t
      .http()
      .post(`${w(rotated.token)}/conversations`)
      .set('Origin', SHOP)
      .set('Authorization', `Bearer ${v}`)
      .expect(401);
    await t
      .http()
      .delete(dep(o))
      .set(...o.user.auth())
      .expect(200);
    await widgetConfig(t, rotated.token).expect(404);
  });

  it('the deploy assistant replaces the code and unpublishes from its conversation, each only after a yes', async () => {
    const o = await owner(t);
    const old = await publish(t, o);
    const config = (token: string) => widgetConfig(t, token);
    // One deployment in the plan, in use: a second Spark cannot be published yet.
    const second = (
      await t
        .http()
        .post('/api/v1/sparks')
        .set(...o.user.auth())
        .send({ name: 'Second', options: { language: 'en' } })
        .expect(201)
    ).body.data._id as string;
    await t
      .http()
      .post(`/api/v1/sparks/${second}/deployment`)
      .set(...o.user.auth())
      .send({})
      .expect(402);

    const welcome = await askDeploy(t, o.user, 'inicio');
    expect(welcome.buttons).toEqual(['unpublish', 'new code']);
    const v = await visitor(t, old);

    // A new code: asked, then confirmed; the old token and its visitors' sessions die at once.
    const rotate = await askDeploy(t, o.user, 'new code', welcome.sessionId);
    expect(rotate.texts.join(' ')).toContain('Replace the code of **Northwind**?');
    expect(rotate.buttons).toEqual(['yes', 'no']);
    await config(old).expect(200);
    const rotated = await askDeploy(t, o.user, 'yes', welcome.sessionId);
    expect(rotated.texts.join(' ')).toContain('the old code of **Northwind** no longer works');
    expect((await config(old).expect(404)).body.errors[0].code).toBe('DEPLOY_TOKEN_INVALID');
    const view = await deployment(t, o);
    expect(view.published).toBe(true);
    expect(view.token).toMatch(/^dt_/);
    expect(view.token).not.toBe(old);
    expect(view.snippet).toContain(view.token);
    await config(view.token).expect(200);
    // Read again, the same new token (it is issued once).
    expect((await deployment(t, o)).token).toBe(view.token);
    await t
      .http()
      .post(`${w(view.token)}/conversations`)
      .set('Origin', SHOP)
      .set('Authorization', `Bearer ${v}`)
      .expect(401);

    // Unpublish: "no" keeps it; "yes" unpublishes, the token dies and the plan's place is free again.
    await askDeploy(t, o.user, 'unpublish', welcome.sessionId);
    const kept = await askDeploy(t, o.user, 'no', welcome.sessionId);
    expect(kept.texts).toEqual(['All right, nothing has changed.']);
    await config(view.token).expect(200);
    const asked = await askDeploy(t, o.user, 'unpublish', welcome.sessionId);
    expect(asked.texts.join(' ')).toContain('Unpublish **Northwind**?');
    const done = await askDeploy(t, o.user, 'Yes, unpublish it', welcome.sessionId);
    expect(done.texts.join(' ')).toContain('Published Sparks: 0 of the 1 your plan allows.');
    await config(view.token).expect(404);
    expect((await deployment(t, o)).published).toBe(false);
    await t
      .http()
      .post(`/api/v1/sparks/${second}/deployment`)
      .set(...o.user.auth())
      .send({})
      .expect(200);
  });

  it('the deploy assistant acts only on the user’s own published Sparks', async () => {
    const o = await owner(t);
    const token = await publish(t, o);
    const stranger = await owner(t);
    const start = await askDeploy(t, stranger.user, 'inicio');
    expect(start.buttons).toEqual([]);
    const none = await askDeploy(t, stranger.user, 'unpublish Northwind', start.sessionId);
    expect(none.texts.join(' ')).toMatch(/None of your Sparks is published/);
    await askDeploy(t, stranger.user, 'yes', start.sessionId);
    await widgetConfig(t, token).expect(200);
  });

  it('says its welcome again in the same conversation on the start keyword a day later (docs/product.md §4: the page sends it)', async () => {
    const o = await owner(t);
    const first = await askDeploy(t, o.user, 'inicio');
    const welcome = first.texts[0];
    expect(welcome).toMatch(/^Let's publish your Spark/);
    await sql.query(`UPDATE messages SET created_at = created_at - interval '25 hours' WHERE conversation_id = $1`, [
      first.sessionId,
    ]);
    const again = await askDeploy(t, o.user, 'inicio', first.sessionId);
    expect(again.sessionId).toBe(first.sessionId);
    expect(again.texts).toEqual([welcome]);
    const welcomes = again.messages.filter((m) => m.type === 'ai' && m.data.content === welcome);
    expect(welcomes).toHaveLength(2);
  });

  it('renews a visitor with their previous token (same conversations), never with another Spark’s', async () => {
    const o = await owner(t);
    const token = await publish(t, o);
    const first = await visitor(t, token);
    const conv = await conversation(t, token, first);
    const renewed = (
      await t
        .http()
        .post(`${w(token)}/visitors`)
        .set('Origin', SHOP)
        .send({ visitorToken: first })
        .expect(200)
    ).body.data.visitorToken;
    await t
      .http()
      .get(`${w(token)}/conversations/${conv}`)
      .set('Origin', SHOP)
      .set('Authorization', `Bearer ${renewed}`)
      .expect(200);
  });

  it('rate-limits sends per visitor: 429 with Retry-After', async () => {
    const o = await owner(t);
    const token = await publish(t, o);
    const v = await visitor(t, token);
    const conv = await conversation(t, token, v);
    const statuses: number[] = [];
    let retryAfter: string | undefined;
    for (let i = 0; i < 5; i += 1) {
      const res = await t
        .http()
        .post(`${w(token)}/conversations/${conv}/messages`)
        .set('Origin', SHOP)
        .set('Authorization', `Bearer ${v}`)
        .send({ text: `Rentals ${i}?` });
      statuses.push(res.status);
      if (res.status === 429) retryAfter = res.headers['retry-after'];
    }
    // 4 per minute: the conversation's creation took one point of the visitor's.
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(1);
    expect(statuses[0]).toBe(200);
    expect(Number(retryAfter)).toBeGreaterThan(0);
  });

  it('out of interactions: 402 in the visitor’s language, no answer stored; the visitor can leave an e-mail', async () => {
    const o = await owner(t);
    const token = await publish(t, o);
    const v = await visitor(t, token);
    const conv = await conversation(t, token, v);
    await sql.query('UPDATE tenants SET usage_interactions = limit_interactions WHERE user_id = $1', [o.userId]);
    const res = await t
      .http()
      .post(`${w(token)}/conversations/${conv}/stream`)
      .set('Origin', SHOP)
      .set('Accept-Language', 'es-ES')
      .set('Authorization', `Bearer ${v}`)
      .send({ text: '¿Horario?' })
      .expect(402);
    // The visitor's message, never the owner's billing text ("upgrade your plan", issue 30), in both languages.
    expect(res.body.errors[0]).toMatchObject({
      code: 'INTERACTIONS_EXHAUSTED',
      message: expect.stringMatching(/deja(r)? tu correo/),
    });
    expect(res.body.errors[0].message).not.toMatch(/plan|interacciones|créditos/i);
    const en = await t
      .http()
      .post(`${w(token)}/conversations/${conv}/messages`)
      .set('Origin', SHOP)
      .set('Accept-Language', 'en')
      .set('Authorization', `Bearer ${v}`)
      .send({ text: 'Hours?' })
      .expect(402);
    expect(en.body.errors[0]).toMatchObject({
      code: 'INTERACTIONS_EXHAUSTED',
      message: expect.stringMatching(/e-mail/),
    });
    expect(en.body.errors[0].message).not.toMatch(/plan|interactions|credits|upgrade/i);
    // The trial's end reads the same to a visitor.
    await sql.query(
      `UPDATE tenants SET usage_interactions = 0, trial_ends_at = now() - interval '1 day' WHERE user_id = $1`,
      [o.userId],
    );
    const ended = await t
      .http()
      .post(`${w(token)}/conversations/${conv}/messages`)
      .set('Origin', SHOP)
      .set('Authorization', `Bearer ${v}`)
      .send({ text: 'Hours?' })
      .expect(402);
    expect(ended.body.errors[0].code).toBe('INTERACTIONS_EXHAUSTED');
    const history = await t
      .http()
      .get(`${w(token)}/conversations/${conv}`)
      .set('Origin', SHOP)
      .set('Authorization', `Bearer ${v}`)
      .expect(200);
    expect(history.body.data.messages).toEqual([]);
    await t
      .http()
      .post(`${w(token)}/contact`)
      .set('Origin', SHOP)
      .set('Authorization', `Bearer ${v}`)
      .send({ email: 'visitor@example.com', conversationId: conv })
      .expect(200);
    const list = await t
      .http()
      .get(`${dep(o)}/conversations`)
      .set(...o.user.auth())
      .expect(200);
    expect(list.body.data[0]).toMatchObject({ conversationId: conv, contactEmail: 'visitor@example.com' });
  });

  it('a disabled account answers no visitor: the widget’s send gets the polite 402, nothing is stored or held', async () => {
    const o = await owner(t);
    const token = await publish(t, o);
    const v = await visitor(t, token);
    const conv = await conversation(t, token, v);
    const send = (route: 'messages' | 'stream', text: string) =>
      t
        .http()
        .post(`${w(token)}/conversations/${conv}/${route}`)
        .set('Origin', SHOP)
        .set('Accept-Language', 'es-ES')
        .set('Authorization', `Bearer ${v}`)
        .send({ text });
    expect((await send('messages', 'Rentals?')).status).toBe(200);
    const stored = async () =>
      Number(
        (await sql.query<{ n: string }>('SELECT count(*) AS n FROM messages WHERE conversation_id = $1', [conv]))
          .rows[0].n,
      );
    const held = async () =>
      Number(
        (
          await sql.query<{ n: string }>(
            'SELECT count(*) AS n FROM usage_reservations r JOIN tenants t ON t.id = r.tenant_id WHERE t.user_id = $1 AND r.settled_at IS NULL',
            [o.userId],
          )
        ).rows[0].n,
      );
    const before = await stored();

    // Disabled (docs/product.md §4: the first tenant inactive), with interactions left.
    await sql.query("UPDATE tenants SET status = 'inactive' WHERE user_id = $1", [o.userId]);
    for (const route of ['stream', 'messages'] as const) {
      const res = await send(route, '¿Horario?');
      // The same refusal as a Spark out of interactions: the widget shows its own polite text and
      // e-mail form on any 402, and an anonymous visitor is not told the owner's account status.
      expect({ route, status: res.status, code: res.body.errors?.[0]?.code }).toEqual({
        route,
        status: 402,
        code: 'INTERACTIONS_EXHAUSTED',
      });
    }
    expect(await stored()).toBe(before);
    expect(await held()).toBe(0);
    // The launcher still loads and the visitor can still leave an e-mail for the owner.
    await widgetConfig(t, token).expect(200);
    await t
      .http()
      .post(`${w(token)}/contact`)
      .set('Origin', SHOP)
      .set('Authorization', `Bearer ${v}`)
      .send({ email: 'visitor@example.com', conversationId: conv })
      .expect(200);

    // Enabled again: the widget answers again.
    await sql.query("UPDATE tenants SET status = 'active' WHERE user_id = $1", [o.userId]);
    expect((await send('messages', 'Rentals?')).status).toBe(200);
  });

  it('connects a WordPress site with a one-time site key that adds its origin; the key works once', async () => {
    const o = await owner(t);
    await t
      .http()
      .post(`${dep(o)}/site-key`)
      .set(...o.user.auth())
      .expect(409);
    const token = await publish(t, o, []);
    const { siteKey } = (
      await t
        .http()
        .post(`${dep(o)}/site-key`)
        .set(...o.user.auth())
        .expect(200)
    ).body.data;
    expect(siteKey).toMatch(/^sk_/);
    await widgetConfig(t, token, 'https://blog.example.org').expect(403);
    const connected = await t
      .http()
      .post('/api/v1/public/connect')
      .send({ siteKey, origin: 'https://blog.example.org/wp-admin/' })
      .expect(200);
    expect(connected.body.data).toMatchObject({
      sparkId: o.sparkId,
      token,
      origin: 'https://blog.example.org',
      snippet: expect.stringContaining(`data-token="${token}"`),
    });
    await widgetConfig(t, token, 'https://blog.example.org').expect(200);
    const again = await t.http().post('/api/v1/public/connect').send({ siteKey, origin: 'https://other.example' });
    expect(again.status).toBe(403);
    expect(again.body.errors[0].code).toBe('SITE_KEY_INVALID');
    const view = await deployment(t, o);
    expect(view.origins).toEqual([expect.objectContaining({ origin: 'https://blog.example.org', source: 'pulse' })]);
  });

  it('previews on the app’s own origin only, before publishing', async () => {
    const o = await owner(t, 0);
    const { token } = (
      await t
        .http()
        .post(`${dep(o)}/preview`)
        .set(...o.user.auth())
        .expect(200)
    ).body.data;
    expect(token).toMatch(/^pv_/);
    await widgetConfig(t, token).expect(403);
    const res = await widgetConfig(t, token, APP);
    expect(res.status).toBe(200);
  });
});

describe('deploy: the deploy assistant tells its owner when the widget is first seen on an allowed site', () => {
  let t: TestApp;
  let subscriber: Redis;
  beforeAll(async () => {
    t = await startApp();
    subscriber = new Redis(process.env.REDIS_URL!, { maxRetriesPerRequest: null });
  });
  afterAll(async () => {
    subscriber.disconnect();
    await t.close();
  });

  /** The ai messages of a conversation that say a Spark was first seen. */
  const sightings = async (o: Owner, sessionId: string) =>
    (
      (
        await t
          .http()
          .get(`/api/v1/spark-sys/conversations/${sessionId}`)
          .set(...o.user.auth())
          .expect(200)
      ).body.data.messages as Array<{ type: string; data: { content: string } }>
    )
      .filter((m) => m.type === 'ai' && /It's live!|¡Ya está en marcha!/.test(m.data.content))
      .map((m) => m.data.content);

  it('one message in the owner’s deploy conversation for the first config from an allowed site; none for a second, none for the app’s own origin', async () => {
    const o = await owner(t);
    const { sessionId } = await askDeploy(t, o.user, 'inicio');
    const token = await publish(t, o);
    // The chat open on /deploy listens on its conversation's channel: the message is published there too.
    const channel = `${process.env.QUEUE_PREFIX}:conversation:${sessionId}`;
    const published: Array<{ type: string; message?: { type: string; data: { content: string } } }> = [];
    subscriber.on('message', (ch: string, payload: string) => {
      if (ch === channel) published.push(JSON.parse(payload));
    });
    await subscriber.subscribe(channel);

    // The app's own origin (the preview) is no sighting.
    expect((await widgetConfig(t, token, APP)).status).toBe(200);
    expect(await sightings(o, sessionId)).toEqual([]);
    expect((await deployment(t, o)).firstSeenAt).toBeNull();

    await widgetConfig(t, token).expect(200);
    // The address is escaped as markdown (no autolink): it reads as typed.
    const told = "**Northwind** was seen for the first time on http\\://shop.localhost:8081. It's live!";
    expect(await sightings(o, sessionId)).toEqual([told]);
    await eventually(() => {
      expect(published).toEqual([
        { type: 'message', message: expect.objectContaining({ type: 'ai', data: { content: told } }) },
      ]);
      return Promise.resolve(true);
    });

    // Seen already: a second page view tells nothing more, nor does the app's own origin.
    await widgetConfig(t, token).expect(200);
    await widgetConfig(t, token, APP).expect(200);
    expect(await sightings(o, sessionId)).toEqual([told]);
    await subscriber.unsubscribe(channel);
    expect(published).toHaveLength(1);
  });

  it('in the owner’s language, in the deploy conversation last written to; a new code is told again once seen', async () => {
    const o = await owner(t);
    await sql.query(`UPDATE users SET language = 'es' WHERE id = $1`, [o.userId]);
    const older = await askDeploy(t, o.user, 'inicio');
    const newer = await askDeploy(t, o.user, 'inicio');
    expect(newer.sessionId).not.toBe(older.sessionId);
    const token = await publish(t, o);
    await widgetConfig(t, token).expect(200);
    const told = '**Northwind** se ha visto por primera vez en http\\://shop.localhost:8081. ¡Ya está en marcha!';
    expect(await sightings(o, newer.sessionId)).toEqual([told]);
    expect(await sightings(o, older.sessionId)).toEqual([]);

    const rotated = (
      await t
        .http()
        .post(`${dep(o)}/rotate`)
        .set(...o.user.auth())
        .expect(200)
    ).body.data.token as string;
    expect(await sightings(o, newer.sessionId)).toEqual([told]);
    await widgetConfig(t, rotated).expect(200);
    await widgetConfig(t, rotated).expect(200);
    expect(await sightings(o, newer.sessionId)).toEqual([told, told]);
  });

  it('an owner with no deploy conversation yet: the sighting is recorded, no conversation is made', async () => {
    const o = await owner(t);
    const token = await publish(t, o);
    await widgetConfig(t, token).expect(200);
    expect(await deployment(t, o)).toMatchObject({ firstSeenOrigin: SHOP, firstSeenAt: expect.any(String) });
    const { rows } = await sql.query(
      `SELECT count(*)::int AS n FROM conversations WHERE user_id = $1 AND kind = 'system'`,
      [o.userId],
    );
    expect(rows[0].n).toBe(0);
  });
});

describe('deploy: the public widget API’s limits per IP and per deploy token (429 with Retry-After)', () => {
  let t: TestApp;
  beforeAll(async () => {
    // Behind a proxy the api trusts (loopback here), X-Forwarded-For names the client, so each request
    // can come from an address of its own. Sends: 3 per IP, 5 per token; reads 5 times as many.
    t = await startApp({
      TRUST_PROXY: 'loopback',
      WIDGET_RATE_VISITOR_MAX: '100',
      WIDGET_RATE_IP_MAX: '3',
      WIDGET_RATE_TOKEN_MAX: '5',
    });
  });
  afterAll(() => t.close());

  /** A visitor of `token` with a conversation of their own, set up from the address `ip`. */
  async function visitorFrom(token: string, ip: string): Promise<{ v: string; conv: string }> {
    const v = (
      await t
        .http()
        .post(`${w(token)}/visitors`)
        .set('Origin', SHOP)
        .set('X-Forwarded-For', ip)
        .send({})
        .expect(200)
    ).body.data.visitorToken as string;
    const conv = (
      await t
        .http()
        .post(`${w(token)}/conversations`)
        .set('Origin', SHOP)
        .set('X-Forwarded-For', ip)
        .set('Authorization', `Bearer ${v}`)
        .expect(201)
    ).body.data.conversationId as string;
    return { v, conv };
  }

  const send = (token: string, { v, conv }: { v: string; conv: string }, ip: string) =>
    t
      .http()
      .post(`${w(token)}/conversations/${conv}/messages`)
      .set('Origin', SHOP)
      .set('X-Forwarded-For', ip)
      .set('Authorization', `Bearer ${v}`)
      .send({ text: 'How much is an electric bike per day?' });

  /** A 429 of the widget API: the code, a Retry-After in seconds, and the CORS header the widget needs to read it. */
  const expectTooMany = (res: { status: number; headers: Record<string, string>; body: { errors: unknown[] } }) => {
    expect(res.status).toBe(429);
    expect(res.body.errors[0]).toMatchObject({ code: 'TOO_MANY_REQUESTS' });
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(res.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(res.headers['access-control-allow-origin']).toBe(SHOP);
  };

  it('counts sends per client IP across Sparks and visitors; another IP still gets answers', async () => {
    const [a, b] = [await owner(t), await owner(t)];
    const [ta, tb] = [await publish(t, a), await publish(t, b)];
    const [va, vb] = [await visitorFrom(ta, '198.51.100.11'), await visitorFrom(tb, '198.51.100.12')];
    const ip = '198.51.100.1';
    // Two Sparks, two visitors, one address: each token and visitor is far from its own limit.
    expect((await send(ta, va, ip)).status).toBe(200);
    expect((await send(tb, vb, ip)).status).toBe(200);
    expect((await send(ta, va, ip)).status).toBe(200);
    expectTooMany(await send(tb, vb, ip));
    expect((await send(tb, vb, '198.51.100.2')).status).toBe(200);
  });

  it('counts sends per deploy token across IPs and visitors; another Spark’s token still gets answers', async () => {
    const [c, d] = [await owner(t), await owner(t)];
    const [tc, td] = [await publish(t, c), await publish(t, d)];
    const visitors = [await visitorFrom(tc, '203.0.113.101'), await visitorFrom(tc, '203.0.113.102')];
    // Five sends from five addresses (each far from its IP limit): the token's five for the minute.
    for (let i = 0; i < 5; i += 1) {
      expect((await send(tc, visitors[i % 2], `203.0.113.${i + 1}`)).status).toBe(200);
    }
    expectTooMany(await send(tc, visitors[0], '203.0.113.6'));
    const other = await visitorFrom(td, '203.0.113.103');
    expect((await send(td, other, '203.0.113.6')).status).toBe(200);
  });

  it('limits the reads too: the widget’s config per IP and per token, a conversation read back per IP', async () => {
    const o = await owner(t);
    const token = await publish(t, o);
    const config = (ip: string) => widgetConfig(t, token).set('X-Forwarded-For', ip);
    // Reads may go 5 times the sends' limits: 15 per IP, 25 per token.
    for (let i = 0; i < 15; i += 1) expect((await config('192.0.2.1')).status).toBe(200);
    expectTooMany(await config('192.0.2.1'));
    for (let i = 0; i < 10; i += 1) expect((await config(`192.0.2.${i + 10}`)).status).toBe(200);
    expectTooMany(await config('192.0.2.30'));

    const other = await owner(t);
    const otherToken = await publish(t, other);
    const visitor = await visitorFrom(otherToken, '192.0.2.101');
    const history = (ip: string) =>
      t
        .http()
        .get(`${w(otherToken)}/conversations/${visitor.conv}`)
        .set('Origin', SHOP)
        .set('X-Forwarded-For', ip)
        .set('Authorization', `Bearer ${visitor.v}`);
    for (let i = 0; i < 15; i += 1) expect((await history('192.0.2.200')).status).toBe(200);
    expectTooMany(await history('192.0.2.200'));
    expect((await history('192.0.2.201')).status).toBe(200);
  });
});

describe('deploy: a widget answer is one interaction, recorded through the usage queue (real worker)', () => {
  let t: TestApp;
  let redis: Redis;
  let usage: Queue;
  beforeAll(async () => {
    t = await startApp();
    redis = new Redis(process.env.REDIS_URL!, { maxRetriesPerRequest: null });
    usage = new Queue('usage', { connection: redis, prefix: process.env.QUEUE_PREFIX });
  });
  afterAll(async () => {
    await usage.close();
    redis.disconnect();
    await t.close();
  });

  it('a visitor’s answered question makes exactly one usage event and counts one interaction for the tenant', async () => {
    const o = await owner(t);
    const token = await publish(t, o);
    const tenant = async () =>
      (
        await sql.query(
          `SELECT t.id, t.usage_interactions,
                  (SELECT count(*)::int FROM usage_events e WHERE e.tenant_id = t.id) AS events,
                  (SELECT count(*)::int FROM usage_reservations r WHERE r.tenant_id = t.id) AS holds
           FROM tenants t WHERE t.user_id = $1`,
          [o.userId],
        )
      ).rows[0] as { id: string; usage_interactions: number; events: number; holds: number };
    const before = await tenant();
    expect(before.events).toBe(0);

    const v = await visitor(t, token);
    const conv = await conversation(t, token, v);
    const answer = await t
      .http()
      .post(`${w(token)}/conversations/${conv}/messages`)
      .set('Origin', SHOP)
      .set('Authorization', `Bearer ${v}`)
      .send({ text: 'What is the return policy for parts?' })
      .expect(200);
    expect(answer.body.data.ai.data.content).toContain('Handbook, page 3');
    const human = answer.body.data.human._id as string;

    // The worker's usage.record (job usage-<message id>) turns the hold into the message's one event.
    const job = await eventually(async () => {
      const found = await usage.getJob(`usage-${human}`);
      return found && (await found.isCompleted()) ? found : undefined;
    });
    expect(job.name).toBe('usage.record');
    expect(job.data).toEqual({ messageId: human });
    const after = await eventually(async () => {
      const row = await tenant();
      return row.events === 1 && row.holds === 0 ? row : undefined;
    });
    expect(after.usage_interactions).toBe(before.usage_interactions + 1);
    const events = (await sql.query('SELECT message_id, source FROM usage_events WHERE tenant_id = $1', [before.id]))
      .rows;
    expect(events).toEqual([{ message_id: human, source: 'plan' }]);

    // Recording it again (a redelivered job) changes nothing.
    await job.retry('completed');
    await eventually(() => job.isCompleted());
    await new Promise((r) => setTimeout(r, 1000));
    expect(await tenant()).toMatchObject({ events: 1, usage_interactions: before.usage_interactions + 1 });
  });
});
