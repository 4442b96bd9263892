import { UsageRepository } from '@sparks/db';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import { CLOCK } from '@sparks/nest';
import { buyPlan, createSpark, createTest } from './factories';
import { userIdOf } from './fixtures/knowledge';
import { createUser, eventually, startApp, type OutboxMail, type SignedUser, type TestApp } from './harness';

const sql = new Pool({ connectionString: process.env.DATABASE_URL, max: 4 });
sql.on('error', () => undefined);
afterAll(() => sql.end());

const DAY = 86_400_000;

interface Ctx {
  user: SignedUser;
  userId: string;
  tenantId: string;
  customerId: string;
  sparkId: string;
  testId: string;
  conversationId: string;
}

let t: TestApp;
beforeAll(async () => {
  t = await startApp();
});
afterAll(() => t.close());

async function owner(language: 'en' | 'es' = 'en'): Promise<Ctx> {
  const user = await createUser(t, { language, tag: 'billing' });
  const userId = await userIdOf(sql, user.username);
  const tenant = (await sql.query('SELECT id, customer_id FROM tenants WHERE user_id = $1', [userId])).rows[0];
  const spark = await createSpark(t, user);
  const test = await createTest(t, user, spark._id, { name: 'T1' });
  // The start keyword opens the test's conversation and is free.
  const start = await t
    .http()
    .post(`/api/v1/sparks/${spark._id}/tests/${test._id}/restart`)
    .set(...user.auth())
    .expect(201);
  return {
    user,
    userId,
    tenantId: tenant.id,
    customerId: tenant.customer_id,
    sparkId: spark._id,
    testId: test._id,
    conversationId: start.body.data.conversationId,
  };
}

const send = (c: Ctx, text = 'What are your opening hours?') =>
  t
    .http()
    .post(`/api/v1/sparks/${c.sparkId}/chat/${c.testId}`)
    .set(...c.user.auth())
    .send({ input: { text }, conversationId: c.conversationId });

async function tenantRow(c: Ctx) {
  return (
    await sql.query(
      `SELECT usage_interactions, limit_interactions, product_name, subscription_id,
              (SELECT count(*)::int FROM usage_events e WHERE e.tenant_id = t.id) AS events,
              (SELECT count(*)::int FROM usage_reservations r WHERE r.tenant_id = t.id) AS holds
       FROM tenants t WHERE id = $1`,
      [c.tenantId],
    )
  ).rows[0] as {
    usage_interactions: number;
    limit_interactions: number;
    product_name: string;
    subscription_id: string | null;
    events: number;
    holds: number;
  };
}

/** The billing assistant's objective steps of the owner, by id. */
async function billingSteps(c: Ctx): Promise<Record<string, string>> {
  const groups = (
    await t
      .http()
      .get('/api/v1/objectives/billing?lang=en')
      .set(...c.user.auth())
      .expect(200)
  ).body.data as Array<{ steps: Array<{ _id: string; status: string }> }>;
  return Object.fromEntries(groups.flatMap((g) => g.steps.map((s) => [s._id, s.status])));
}

/** Waits until every hold of the tenant has become a usage event. */
const settled = (c: Ctx) => eventually(async () => ((await tenantRow(c)).holds === 0 ? tenantRow(c) : undefined));

/** Buys a plan on the local provider (the same fulfilment as a webhook); answers the checkout session's id. */
const buy = (c: Ctx, priceId = 'price_ruby_month') => buyPlan(t, c.user, c.customerId, priceId, { unit_amount: 1 });

describe('catalogue', () => {
  let c: Ctx;
  beforeAll(async () => {
    c = await owner();
  });

  it('sells Ruby, Emerald and Zaphire at their prices, and the packs sorted by interactions', async () => {
    const prices = (
      await t
        .http()
        .get('/api/v1/prices')
        .set(...c.user.auth())
        .expect(200)
    ).body.data;
    expect(prices.map((p: { slug: string; unit_amount: number }) => [p.slug, p.unit_amount])).toEqual([
      ['ruby', 4500],
      ['emeral', 9000],
      ['zaphire', 18000],
    ]);
    expect(prices[0].limits.interactions.value).toBe(600);
    expect(prices[1].limits.deployments.value).toBe(3);
    const { items } = (
      await t
        .http()
        .get('/api/v1/billing/catalog/credits')
        .set(...c.user.auth())
        .expect(200)
    ).body.data;
    const sizes = items.map((i: { limits: { interactions: { value: number } } }) => i.limits.interactions.value);
    expect(sizes).toEqual([...sizes].sort((a, b) => a - b));
    expect(items[0]).toMatchObject({ productId: 'prod_itx_100', unit_amount: 1000 });
    // Each pack's name as each language writes it (Spanish has no thousands separator at 1000).
    expect(items.find((i: { productId: string }) => i.productId === 'prod_itx_1000')).toMatchObject({
      name: '1,000 ITx',
      names: { en: '1,000 ITx', es: '1000 ITx' },
    });
  });

  it("answers the caller's subscriptions and credits, and 404 for another customer or feature", async () => {
    const other = await owner();
    await t
      .http()
      .get(`/api/v1/billing/subscriptions/${c.customerId}`)
      .set(...c.user.auth())
      .expect(200, { data: [] });
    await t
      .http()
      .get(`/api/v1/billing/subscriptions/${other.customerId}`)
      .set(...c.user.auth())
      .expect(404);
    await t
      .http()
      .post(`/api/v1/billing/customers/${other.customerId}/session`)
      .set(...c.user.auth())
      .send({ mode: 'subscription', priceId: 'price_ruby_month' })
      .expect(404);
    await t
      .http()
      .post(`/api/v1/billing/customers/${c.customerId}/session`)
      .set(...c.user.auth())
      .send({ mode: 'subscription', priceId: 'price_made_up' })
      .expect(404);
    const credits = await t
      .http()
      .get('/api/v1/billing/credits/interactions/available')
      .set(...c.user.auth())
      .expect(200);
    expect(credits.body.data).toEqual({ total: 0 });
    await t
      .http()
      .get('/api/v1/billing/credits/rockets/available')
      .set(...c.user.auth())
      .expect(404);
  });

  it("a new account starts on the catalogue's free plan: its name and limits are read from the database", async () => {
    const free = (
      await sql.query("SELECT product_name, limit_interactions, limit_deployments FROM plans WHERE slug = 'free'")
    ).rows[0] as { product_name: string; limit_interactions: number; limit_deployments: number };
    // The catalogue changes (as an operator's migration would): the next registration follows it.
    await sql.query(
      "UPDATE plans SET product_name = 'Free Plan 2026', limit_interactions = 137, limit_deployments = 2 WHERE slug = 'free'",
    );
    try {
      const user = await createUser(t, { tag: 'freeplan' });
      const profile = (
        await t
          .http()
          .get('/api/v1/account/profile')
          .set(...user.auth())
          .expect(200)
      ).body.data;
      expect(profile.tenants[0].subscription).toMatchObject({
        productName: 'Free Plan 2026',
        subscriptionId: null,
        limits: { interactions: { value: 137 }, deployments: { value: 2 } },
      });
    } finally {
      await sql.query(
        "UPDATE plans SET product_name = $1, limit_interactions = $2, limit_deployments = $3 WHERE slug = 'free'",
        [free.product_name, free.limit_interactions, free.limit_deployments],
      );
    }
  });
});

describe('local payment provider', () => {
  it('a paid plan checkout becomes the subscription once, at the catalogue price; a stranger cannot see it', async () => {
    const c = await owner();
    const sessionId = await buy(c);
    const profile = (
      await t
        .http()
        .get('/api/v1/account/profile')
        .set(...c.user.auth())
        .expect(200)
    ).body.data;
    expect(profile.tenants[0].subscription).toMatchObject({
      productName: 'Ruby',
      limits: { interactions: { value: 600 }, deployments: { value: 1 } },
    });
    const subId = profile.tenants[0].subscription.subscriptionId;
    expect(subId).toBeTruthy();
    // Paying the same session again changes nothing.
    await t
      .http()
      .post(`/api/v1/billing/checkout/${sessionId}/pay`)
      .set(...c.user.auth())
      .expect(200);
    const view = (
      await t
        .http()
        .get(`/api/v1/billing/checkout/${sessionId}`)
        .set(...c.user.auth())
        .expect(200)
    ).body.data;
    expect(view).toMatchObject({ status: 'paid', unit_amount: 4500, provider: 'local' });
    const subs = (
      await t
        .http()
        .get(`/api/v1/billing/subscriptions/${c.customerId}`)
        .set(...c.user.auth())
        .expect(200)
    ).body.data;
    expect(subs).toEqual([
      expect.objectContaining({ subscriptionId: subId, slug: 'ruby', status: 'active', provider: 'local' }),
    ]);
    // The billing assistant's objectives: a plan chosen and paid (the fulfilment marks them); no pack yet.
    expect(await billingSteps(c)).toMatchObject({
      'billing.choose': 'completed',
      'billing.pay': 'completed',
      'billing.credits': 'pending',
    });
    const stranger = await owner();
    await t
      .http()
      .get(`/api/v1/billing/checkout/${sessionId}`)
      .set(...stranger.user.auth())
      .expect(404);
    await t
      .http()
      .post(`/api/v1/billing/checkout/${sessionId}/pay`)
      .set(...stranger.user.auth())
      .expect(404);
  });

  it('a credit pack on the free plan opens a checkout; with a paid plan it is paid at once, once per session', async () => {
    const c = await owner();
    const open = await t
      .http()
      .post('/api/v1/billing/credits/purchase')
      .set(...c.user.auth())
      .send({ productId: 'prod_itx_100' })
      .expect(200);
    expect(open.body.data).toMatchObject({ success: true, status: 'open' });
    expect(open.body.data.sessionUrl).toMatch(/\/checkout\/cs_local_/);
    await buy(c);
    const paid = await t
      .http()
      .post('/api/v1/billing/credits/purchase')
      .set(...c.user.auth())
      .send({ productId: 'prod_itx_250' })
      .expect(200);
    expect(paid.body.data).toEqual({ success: true, status: 'paid' });
    const credits = await t
      .http()
      .get('/api/v1/billing/credits/interactions/available')
      .set(...c.user.auth())
      .expect(200);
    expect(credits.body.data).toEqual({ total: 250 });
    await t
      .http()
      .post('/api/v1/billing/credits/purchase')
      .set(...c.user.auth())
      .send({ productId: 'prod_nothing' })
      .expect(404);
  });
});

describe('local payment provider: a credit pack on the Free Plan, and cancelling a checkout', () => {
  const available = async (c: Ctx) =>
    (
      await t
        .http()
        .get('/api/v1/billing/credits/interactions/available')
        .set(...c.user.auth())
        .expect(200)
    ).body.data.total as number;

  it("cancelling a checkout charges nothing, and the session can't be paid afterwards", async () => {
    const c = await owner('es');
    const open = await t
      .http()
      .post('/api/v1/billing/credits/purchase')
      .set(...c.user.auth())
      .send({ productId: 'prod_itx_1000' })
      .expect(200);
    const sessionId = String(open.body.data.sessionUrl).split('/checkout/')[1];
    const view = (
      await t
        .http()
        .get(`/api/v1/billing/checkout/${sessionId}`)
        .set(...c.user.auth())
        .expect(200)
    ).body.data;
    expect(view).toMatchObject({ mode: 'payment', status: 'open', names: { en: '1,000 ITx', es: '1000 ITx' } });
    const cancelled = await t
      .http()
      .post(`/api/v1/billing/checkout/${sessionId}/cancel`)
      .set(...c.user.auth())
      .expect(200);
    expect(cancelled.body.data).toMatchObject({ status: 'canceled' });
    // Paying it now (a second tab, a replayed request) fulfils nothing.
    const late = await t
      .http()
      .post(`/api/v1/billing/checkout/${sessionId}/pay`)
      .set(...c.user.auth())
      .expect(200);
    expect(late.body.data).toMatchObject({ status: 'canceled' });
    expect(await available(c)).toBe(0);
    expect(await billingSteps(c)).toMatchObject({ 'billing.credits': 'pending', 'billing.pay': 'pending' });
    const credits = await sql.query('SELECT count(*)::int AS n FROM tenant_credits WHERE tenant_id = $1', [c.tenantId]);
    expect(credits.rows[0].n).toBe(0);
    expect((await tenantRow(c)).subscription_id).toBeNull();
  });

  it('the Free Plan used up: a pack bought through checkout is credited once and answers again', async () => {
    const c = await owner();
    await sql.query('UPDATE tenants SET usage_interactions = limit_interactions WHERE id = $1', [c.tenantId]);
    const refused = await send(c);
    expect(refused.status).toBe(402);
    expect(refused.body.errors[0].code).toBe('OUT_OF_INTERACTIONS');

    const open = await t
      .http()
      .post('/api/v1/billing/credits/purchase')
      .set(...c.user.auth())
      .send({ productId: 'prod_itx_100' })
      .expect(200);
    expect(open.body.data).toMatchObject({ success: true, status: 'open' });
    expect(await available(c)).toBe(0); // nothing until it is paid
    const sessionId = String(open.body.data.sessionUrl).split('/checkout/')[1];
    for (let i = 0; i < 2; i += 1)
      await t
        .http()
        .post(`/api/v1/billing/checkout/${sessionId}/pay`)
        .set(...c.user.auth())
        .expect(200);
    expect(await available(c)).toBe(100);
    expect(await billingSteps(c)).toMatchObject({ 'billing.credits': 'completed', 'billing.pay': 'pending' });

    const answered = await send(c);
    expect(answered.status).toBe(201);
    await settled(c);
    expect(await available(c)).toBe(99);
    // Still the Free Plan: a pack is no subscription.
    const row = await tenantRow(c);
    expect(row).toMatchObject({ product_name: 'Free Plan', subscription_id: null });
  });
});

describe('local payment provider: stale and expired checkouts (issue 30)', () => {
  const open = async (c: Ctx, priceId = 'price_ruby_month') => {
    const res = await t
      .http()
      .post(`/api/v1/billing/customers/${c.customerId}/session`)
      .set(...c.user.auth())
      .send({ mode: 'subscription', priceId })
      .expect(201);
    return String(res.body.data.sessionUrl).split('/checkout/')[1];
  };
  const pay = (c: Ctx, sessionId: string, language = 'en') =>
    t
      .http()
      .post(`/api/v1/billing/checkout/${sessionId}/pay`)
      .set('Accept-Language', language)
      .set(...c.user.auth());

  it("a checkout expires 24 h after it was opened, as Stripe's do: paying it then is 409 CHECKOUT_EXPIRED, no plan", async () => {
    const c = await owner('es');
    const sessionId = await open(c);
    await sql.query(`UPDATE checkout_sessions SET created_at = now() - interval '24 hours 1 minute' WHERE id = $1`, [
      sessionId,
    ]);
    const late = await pay(c, sessionId, 'es').expect(409);
    expect(late.body.errors[0]).toMatchObject({ code: 'CHECKOUT_EXPIRED', message: expect.stringMatching(/caducó/) });
    expect(await tenantRow(c)).toMatchObject({ product_name: 'Free Plan', subscription_id: null });
    const view = await t
      .http()
      .get(`/api/v1/billing/checkout/${sessionId}`)
      .set(...c.user.auth())
      .expect(200);
    expect(view.body.data.status).toBe('expired');
    // Within its 24 hours a checkout still pays.
    const fresh = await open(c);
    await sql.query(`UPDATE checkout_sessions SET created_at = now() - interval '23 hours' WHERE id = $1`, [fresh]);
    await pay(c, fresh).expect(200);
    expect(await tenantRow(c)).toMatchObject({ product_name: 'Ruby' });
  });

  it('a second, stale checkout for the plan already held is refused at payment: 409 PLAN_ALREADY_HELD, usage kept', async () => {
    const c = await owner();
    const first = await open(c);
    const stale = await open(c); // opened before the first was paid: creation cannot refuse it
    await pay(c, first).expect(200);
    const held = await tenantRow(c);
    await sql.query('UPDATE tenants SET usage_interactions = 37 WHERE id = $1', [c.tenantId]);
    const refused = await pay(c, stale).expect(409);
    expect(refused.body.errors[0].code).toBe('PLAN_ALREADY_HELD');
    expect(await tenantRow(c)).toMatchObject({
      product_name: 'Ruby',
      subscription_id: held.subscription_id,
      usage_interactions: 37,
    });
    // The stale session is closed: trying again changes nothing either.
    await pay(c, stale).expect(200);
    expect((await tenantRow(c)).usage_interactions).toBe(37);
    // Another plan is still a change of plan.
    await pay(c, await open(c, 'price_emeral_month')).expect(200);
    expect(await tenantRow(c)).toMatchObject({ product_name: 'Emerald' });
  });
});

describe('local payment provider: the portal and the webhook', () => {
  it("the portal link is the app's billing page; another customer's is 404; no Stripe webhook without Stripe", async () => {
    const c = await owner();
    const res = await t
      .http()
      .post(`/api/v1/billing/customers/${c.customerId}/portal`)
      .set(...c.user.auth())
      .expect(201);
    expect(res.body.data.sessionUrl).toMatch(/\/billing$/);
    const other = await owner();
    await t
      .http()
      .post(`/api/v1/billing/customers/${other.customerId}/portal`)
      .set(...c.user.auth())
      .expect(404);
    await t
      .http()
      .post('/api/v1/billing/webhooks/stripe')
      .set('stripe-signature', 't=1,v1=00')
      .send({ id: 'evt_1', type: 'checkout.session.completed' })
      .expect(404);
  });
});

describe('metering', () => {
  it('50 parallel sends against a balance of 5: exactly 5 answers, 45 × 402, never below 0 (twice)', async () => {
    const c = await owner();
    for (const round of [1, 2]) {
      const before = await tenantRow(c);
      await sql.query('UPDATE tenants SET usage_interactions = limit_interactions - 5 WHERE id = $1', [c.tenantId]);
      const results = await Promise.all(Array.from({ length: 50 }, (_, i) => send(c, `Question ${round}.${i}?`)));
      const statuses = results.map((r) => r.status);
      expect(statuses.filter((s) => s === 201)).toHaveLength(5);
      expect(statuses.filter((s) => s === 402)).toHaveLength(45);
      for (const r of results.filter((x) => x.status === 402)) {
        expect(r.body.errors[0].code).toBe('OUT_OF_INTERACTIONS');
      }
      const after = await settled(c);
      expect(after.usage_interactions).toBe(after.limit_interactions);
      expect(after.events).toBe(before.events + 5);
    }
    // Refused messages were taken back: the conversation holds 10 questions beside the start.
    const humans = await sql.query(
      `SELECT count(*)::int AS n FROM messages WHERE conversation_id = $1 AND type = 'human'`,
      [c.conversationId],
    );
    expect(humans.rows[0].n).toBe(11);
  });

  it('spends the plan, then packs oldest first; builder and start messages are free', async () => {
    const c = await owner();
    await buy(c);
    for (const productId of ['prod_itx_100', 'prod_itx_250']) {
      await t
        .http()
        .post('/api/v1/billing/credits/purchase')
        .set(...c.user.auth())
        .send({ productId })
        .expect(200);
    }
    await sql.query('UPDATE tenants SET usage_interactions = limit_interactions - 1 WHERE id = $1', [c.tenantId]);
    await send(c).expect(201);
    await send(c).expect(201);
    await send(c).expect(201);
    const row = await settled(c);
    expect(row.usage_interactions).toBe(row.limit_interactions);
    const packs = await sql.query(
      'SELECT product_id, used FROM tenant_credits WHERE tenant_id = $1 ORDER BY created_at',
      [c.tenantId],
    );
    expect(packs.rows).toEqual([
      { product_id: 'prod_itx_100', used: 2 },
      { product_id: 'prod_itx_250', used: 0 },
    ]);
    await t
      .http()
      .post(`/api/v1/sparks/${c.sparkId}/tests/${c.testId}/restart`)
      .set(...c.user.auth())
      .expect(201);
    await t
      .http()
      .post(`/api/v1/sparks/${c.sparkId}/messages`)
      .set(...c.user.auth())
      .send({ input: { text: 'hola' } })
      .expect(201);
    expect((await settled(c)).events).toBe(3);
  });

  it('overage only when turned on, up to its cap', async () => {
    const c = await owner();
    await buy(c);
    await sql.query('UPDATE tenants SET usage_interactions = limit_interactions WHERE id = $1', [c.tenantId]);
    await send(c).expect(402);
    // Ruby's premium rate is 12 cents: a 30-cent cap pays two interactions.
    await t
      .http()
      .put('/api/v1/billing/overage')
      .set(...c.user.auth())
      .send({ enabled: true, capCents: 30 })
      .expect(200);
    await send(c).expect(201);
    await send(c).expect(201);
    const third = await send(c).expect(402);
    expect(third.body.errors[0].code).toBe('OUT_OF_INTERACTIONS');
    await settled(c);
    const billing = await sql.query('SELECT overage_used FROM tenant_billing WHERE tenant_id = $1', [c.tenantId]);
    expect(billing.rows[0].overage_used).toBe(2);
  });

  it('the trial ends on the test clock: 402 TRIAL_ENDED, until a plan is bought', async () => {
    const c = await owner('es');
    const clock = t.app.get<{ now(): Date }>(CLOCK);
    const spy = jest.spyOn(clock, 'now').mockReturnValue(new Date(Date.now() + 14 * DAY));
    try {
      await send(c).expect(201);
      spy.mockReturnValue(new Date(Date.now() + 15 * DAY + 60_000));
      const res = await send(c).expect(402);
      expect(res.body.errors[0]).toMatchObject({ code: 'TRIAL_ENDED' });
      expect(res.body.errors[0].message).toMatch(/prueba gratuita/);
      await buy(c);
      await send(c).expect(201);
    } finally {
      spy.mockRestore();
    }
  });

  it('e-mails the owner at 80 % and 100 % of the period, once each, in their language', async () => {
    const c = await owner('es');
    await sql.query('UPDATE tenants SET usage_interactions = 78, limit_interactions = 100 WHERE id = $1', [c.tenantId]);
    const outbox = async () =>
      (await t.http().get('/api/v1/dev/outbox').query({ to: c.user.username })).body.data as OutboxMail[];
    await send(c).expect(201); // 79
    await send(c).expect(201); // 80 → the 80 % mail
    await eventually(async () => (await outbox()).some((m) => /80%/.test(m.subject)));
    await send(c).expect(201); // 81: no second mail
    await settled(c);
    await sql.query('UPDATE tenants SET usage_interactions = 99 WHERE id = $1', [c.tenantId]);
    await send(c).expect(201); // 100 → the 100 % mail
    await eventually(async () => (await outbox()).some((m) => /todas/.test(m.subject)));
    await send(c).expect(402);
    const mails = (await outbox()).filter((m) => /interacciones/.test(m.subject));
    expect(mails.map((m) => m.subject).sort()).toEqual([
      'Has usado el 80% de tus interacciones de Sparks',
      'Has usado todas tus interacciones de Sparks',
    ]);
  });
});

describe('overage setting', () => {
  const overage = (c: Ctx) =>
    t
      .http()
      .get('/api/v1/billing/overage')
      .set(...c.user.auth());
  const setOverage = (c: Ctx, body: Record<string, unknown>) =>
    t
      .http()
      .put('/api/v1/billing/overage')
      .set(...c.user.auth())
      .send(body);

  it('the free plan has none: shown as not available, and turning it on is 402 OVERAGE_NEEDS_PLAN', async () => {
    const c = await owner('es');
    expect((await overage(c).expect(200)).body.data).toMatchObject({
      enabled: false,
      capCents: 0,
      available: false,
      unitAmount: 0,
      usedInteractions: 0,
      spentCents: 0,
    });
    const res = await setOverage(c, { enabled: true, capCents: 5000 }).expect(402);
    expect(res.body.errors[0]).toMatchObject({ code: 'OVERAGE_NEEDS_PLAN' });
    expect(res.body.errors[0].message).toMatch(/plan de pago/);
    // Turning it off is always allowed.
    await setOverage(c, { enabled: false, capCents: 0 }).expect(200);
  });

  it("a paid plan: the rate, the cap kept, a cap out of range or below one interaction refused in the owner's language", async () => {
    const c = await owner('es');
    await buy(c);
    const view = (await overage(c).expect(200)).body.data;
    expect(view).toMatchObject({ enabled: false, available: true, unitAmount: 12, currency: 'eur' });
    expect(Date.parse(view.periodEnd)).toBeGreaterThan(Date.now());

    for (const capCents of [-100, 10_000_001, 12.5, 1e12]) {
      const res = await setOverage(c, { enabled: true, capCents }).expect(400);
      expect(res.body.errors[0]).toMatchObject({ code: 'OVERAGE_CAP_INVALID', field: 'capCents' });
      expect(res.body.errors[0].message).toMatch(/límite mensual/);
    }
    const low = await setOverage(c, { enabled: true, capCents: 11 }).expect(400);
    expect(low.body.errors[0]).toMatchObject({ code: 'OVERAGE_CAP_TOO_LOW', field: 'capCents' });
    expect(low.body.errors[0].message).toMatch(/al menos una interacción/);
    expect((await overage(c).expect(200)).body.data).toMatchObject({ enabled: false, capCents: 0 });

    const on = await setOverage(c, { enabled: true, capCents: 2400 }).expect(200);
    expect(on.body.data).toMatchObject({ enabled: true, capCents: 2400, unitAmount: 12 });
    // Spent this period: plan used up, two overage answers at 12 cents.
    await sql.query('UPDATE tenants SET usage_interactions = limit_interactions WHERE id = $1', [c.tenantId]);
    await send(c).expect(201);
    await send(c).expect(201);
    await settled(c);
    expect((await overage(c).expect(200)).body.data).toMatchObject({
      enabled: true,
      capCents: 2400,
      usedInteractions: 2,
      spentCents: 24,
    });
    await setOverage(c, { enabled: false, capCents: 2400 }).expect(200);
    expect((await send(c).expect(402)).body.errors[0].code).toBe('OUT_OF_INTERACTIONS');
  });
});

describe('holds given back', () => {
  it('a failed answer gives its interaction back: the reply job fails in the worker, the api releases the hold', async () => {
    const c = await owner();
    await buy(c);
    // One interaction left on the plan.
    await sql.query('UPDATE tenants SET usage_interactions = limit_interactions - 1 WHERE id = $1', [c.tenantId]);
    const redis = new Redis(process.env.REDIS_URL!, { maxRetriesPerRequest: null });
    const replies = new Queue('assistant-reply', { connection: redis, prefix: process.env.QUEUE_PREFIX });
    try {
      // The reply waits in the paused queue while its conversation loses its Spark: the worker's reply job cannot
      // answer (no Spark), fails for good and publishes REPLY_FAILED.
      await replies.pause();
      const failed = send(c).then((r) => r);
      await eventually(async () => (await tenantRow(c)).holds === 1);
      await sql.query('UPDATE conversations SET spark_id = NULL WHERE id = $1', [c.conversationId]);
      await replies.resume();
      const res = await failed;
      expect(res.status).toBe(502);
      expect(res.body.errors[0].code).toBe('REPLY_FAILED');
    } finally {
      await replies.resume();
      await replies.close();
      redis.disconnect();
    }
    // The hold is gone and nothing was counted: the last interaction is still there.
    await eventually(async () => (await tenantRow(c)).holds === 0);
    const row = await tenantRow(c);
    expect(row.usage_interactions).toBe(row.limit_interactions - 1);
    expect(row.events).toBe(0);
    await sql.query('UPDATE conversations SET spark_id = $2 WHERE id = $1', [c.conversationId, c.sparkId]);
    await send(c).expect(201);
    const after = await settled(c);
    expect(after.usage_interactions).toBe(after.limit_interactions);
    expect(after.events).toBe(1);
    expect((await send(c).expect(402)).body.errors[0].code).toBe('OUT_OF_INTERACTIONS');
  });

  it("the worker's UsageSweep (releaseStale) gives back holds never settled, and only those", async () => {
    const c = await owner();
    await buy(c);
    await sql.query('UPDATE tenants SET usage_interactions = limit_interactions - 1 WHERE id = $1', [c.tenantId]);
    // An api that stopped mid-answer left a hold on the last interaction five minutes ago (the worker's own sweep,
    // at 10 minutes, does not take it); a recent hold and a settled one must stay.
    const stale = randomUUID();
    const fresh = randomUUID();
    const done = randomUUID();
    await sql.query(
      `INSERT INTO usage_reservations (id, tenant_id, source, message_id, settled_at, created_at) VALUES
         ($1, $4, 'plan', NULL, NULL, now() - interval '5 minutes'),
         ($2, $4, 'credits', NULL, NULL, now()),
         ($3, $4, 'plan', $5, now() - interval '5 minutes', now() - interval '6 minutes')`,
      [stale, fresh, done, c.tenantId, randomUUID()],
    );
    expect((await send(c).expect(402)).body.errors[0].code).toBe('OUT_OF_INTERACTIONS');

    const released = await t.app.get(UsageRepository).releaseStale(new Date(Date.now() - 60_000));
    expect(released).toBeGreaterThanOrEqual(1);
    const left = await sql.query('SELECT id FROM usage_reservations WHERE tenant_id = $1 ORDER BY created_at', [
      c.tenantId,
    ]);
    expect(left.rows.map((r) => r.id)).toEqual([done, fresh]);
    // Once more changes nothing of this tenant's.
    await t.app.get(UsageRepository).releaseStale(new Date(Date.now() - 60_000));
    expect(
      (await sql.query('SELECT count(*)::int AS n FROM usage_reservations WHERE tenant_id = $1', [c.tenantId])).rows[0]
        .n,
    ).toBe(2);
    await sql.query('DELETE FROM usage_reservations WHERE id = ANY($1::uuid[])', [[fresh, done]]);

    // The interaction is back: the next send is answered from the plan.
    await send(c).expect(201);
    const row = await settled(c);
    expect(row.usage_interactions).toBe(row.limit_interactions);
    expect(row.events).toBe(1);
  });
});
