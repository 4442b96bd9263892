import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { Pool } from 'pg';
import Stripe from 'stripe';
import { userIdOf } from './fixtures/knowledge';
import { createUser, eventually, startApp, type SignedUser, type TestApp } from './harness';
import { ROOT } from './paths';
import { StripeTestServer } from './support/stripe-server';

/**
 * Payments with Stripe: the api (and a worker of its own) configured with Stripe keys and pointed at
 * a local server that speaks Stripe's API; the official `stripe` client does every call, and the
 * server plays Stripe's side (payments, renewals, failures, cancellations, signed webhooks).
 */
const sql = new Pool({ connectionString: process.env.DATABASE_URL, max: 4 });
sql.on('error', () => undefined);

let stripe: StripeTestServer;
let t: TestApp;
let webhook: string;
let worker: ChildProcess;
const prefix = `${process.env.QUEUE_PREFIX}_stripe`;
const jwtSecret = randomUUID();

beforeAll(async () => {
  stripe = await StripeTestServer.start();
  const env = {
    QUEUE_PREFIX: prefix,
    STRIPE_SECRET_KEY: 'sk_test_sparks',
    STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
    STRIPE_API_BASE: stripe.url,
    APP_URL: 'https://sparks.example',
    // Shared with the local-provider api of "stale checkouts", so that one user's token works on both.
    JWT_SECRET: jwtSecret,
  };
  t = await startApp(env);
  webhook = `${await t.url()}/api/v1/billing/webhooks/stripe`;
  worker = spawn(process.execPath, [path.join(ROOT, 'worker', 'dist', 'main.js')], {
    cwd: ROOT,
    env: { ...process.env, ...env, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
});

afterAll(async () => {
  if (worker && worker.exitCode === null) {
    const exited = new Promise((r) => worker.once('exit', r));
    worker.kill('SIGTERM');
    await exited;
  }
  await t?.close();
  await stripe?.close();
  await sql.end();
});

interface Ctx {
  user: SignedUser;
  tenantId: string;
  customerId: string;
}

async function owner(): Promise<Ctx> {
  const user = await createUser(t, { tag: 'stripe' });
  const userId = await userIdOf(sql, user.username);
  const tenant = (await sql.query('SELECT id, customer_id FROM tenants WHERE user_id = $1', [userId])).rows[0];
  return { user, tenantId: tenant.id, customerId: tenant.customer_id };
}

const checkout = (c: Ctx, body: Record<string, unknown>) =>
  t
    .http()
    .post(`/api/v1/billing/customers/${c.customerId}/session`)
    .set(...c.user.auth())
    .send(body);

const sessionIdOf = (url: string) => url.split('/pay/')[1];
/** The app's address in this file's api (APP_URL above). */
const APP = 'https://sparks.example';

async function state(c: Ctx) {
  return (
    await sql.query(
      `SELECT t.product_name, t.subscription_id, t.usage_interactions, t.limit_interactions,
              b.plan_slug, b.subscription_status, b.period_start, b.period_end, b.stripe_customer_id,
              (SELECT count(*)::int FROM tenant_credits c WHERE c.tenant_id = t.id) AS packs,
              (SELECT COALESCE(sum(c.interactions), 0)::int FROM tenant_credits c WHERE c.tenant_id = t.id) AS credits
       FROM tenants t LEFT JOIN tenant_billing b ON b.tenant_id = t.id WHERE t.id = $1`,
      [c.tenantId],
    )
  ).rows[0] as {
    product_name: string;
    subscription_id: string | null;
    usage_interactions: number;
    limit_interactions: number;
    plan_slug: string;
    subscription_status: string;
    period_start: Date;
    period_end: Date;
    stripe_customer_id: string | null;
    packs: number;
    credits: number;
  };
}

const eventCount = async () => (await sql.query('SELECT count(*)::int AS n FROM billing_events')).rows[0].n as number;

/** Opens a checkout for a plan, pays it at "Stripe" and delivers checkout.session.completed. */
async function subscribe(c: Ctx, priceId = 'price_ruby_month') {
  const res = await checkout(c, { mode: 'subscription', priceId }).expect(201);
  const session = stripe.pay(sessionIdOf(res.body.data.sessionUrl));
  const completed = stripe.event('checkout.session.completed', session);
  expect((await stripe.deliver(webhook, completed)).status).toBe(200);
  return { sessionId: session.id, subscriptionId: String(session.subscription), completed };
}

describe('checkout sessions', () => {
  it('a plan: subscription mode at the catalogue price whatever the client sends, the customer created once and reused', async () => {
    const c = await owner();
    const res = await checkout(c, {
      mode: 'subscription',
      priceId: 'price_ruby_month',
      unit_amount: 1,
      amount: 1,
    }).expect(201);
    expect(res.body.data.sessionUrl).toMatch(new RegExp(`^${stripe.url}/pay/cs_test_`));
    const session = stripe.sessions.get(sessionIdOf(res.body.data.sessionUrl))!;
    expect(session).toMatchObject({ mode: 'subscription', client_reference_id: c.tenantId });
    const items = session.line_items_ as Array<{ price: Record<string, unknown>; quantity: number | null }>;
    // The plan at 45 € a month, and the metered overage price on Ruby's 12-cent rate.
    expect(items.map((i) => [i.price.unit_amount, i.price.currency, i.price.recurring, i.quantity])).toEqual([
      [4500, 'eur', expect.objectContaining({ interval: 'month', usage_type: 'licensed' }), 1],
      [
        12,
        'eur',
        expect.objectContaining({ interval: 'month', usage_type: 'metered', meter: expect.any(String) }),
        null,
      ],
    ]);
    expect(session.amount_total).toBe(4500);
    const customer = String(session.customer);
    expect((await state(c)).stripe_customer_id).toBe(customer);

    const pack = await checkout(c, { mode: 'payment', priceId: 'price_itx_250' }).expect(201);
    const packSession = stripe.sessions.get(sessionIdOf(pack.body.data.sessionUrl))!;
    expect(packSession).toMatchObject({ mode: 'payment', customer, amount_total: 2250, currency: 'usd' });
    expect(
      [...stripe.customers.values()].filter((x) => (x.metadata as Record<string, string>).tenantId === c.tenantId),
    ).toHaveLength(1);

    // A price that is not in our catalogue is 404, and nothing is asked of Stripe.
    const before = stripe.requests.length;
    await checkout(c, { mode: 'payment', priceId: 'price_made_up' }).expect(404);
    await checkout(c, { mode: 'subscription', priceId: 'price_itx_250' }).expect(404);
    expect(stripe.requests.length).toBe(before);
  });

  it('is idempotent: the same purchase asked five times at once is one Stripe session, created with an idempotency key', async () => {
    const c = await owner();
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => checkout(c, { mode: 'subscription', priceId: 'price_emeral_month' })),
    );
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201, 201, 201]);
    const urls = new Set(answers.map((a) => a.body.data.sessionUrl as string));
    expect(urls.size).toBe(1);
    const created = [...stripe.sessions.values()].filter((s) => s.client_reference_id === c.tenantId);
    expect(created).toHaveLength(1);
    const posts = stripe
      .calls('POST', '/v1/checkout/sessions')
      .filter((r) => r.params.client_reference_id === c.tenantId);
    expect(posts.length).toBeGreaterThanOrEqual(1);
    expect(posts.every((r) => typeof r.idempotencyKey === 'string' && r.idempotencyKey.length > 20)).toBe(true);
    const rows = await sql.query('SELECT id, provider, url FROM checkout_sessions WHERE tenant_id = $1', [c.tenantId]);
    expect(rows.rows).toEqual([{ id: created[0].id, provider: 'stripe', url: created[0].url }]);
  });

  it('comes back to the page the checkout was opened from (issue 34, item 9); never to another site', async () => {
    const c = await owner();
    const page = '/spark/5f0c/test/9a1b';
    await checkout(c, { mode: 'subscription', priceId: 'price_zaphire_month', returnTo: page }).expect(201);
    const made = stripe
      .calls('POST', '/v1/checkout/sessions')
      .filter((r) => r.params.client_reference_id === c.tenantId)
      .at(-1)!;
    expect(made.params.success_url).toBe(`${APP}${page}?checkout=success&session_id={CHECKOUT_SESSION_ID}`);
    expect(made.params.cancel_url).toBe(`${APP}${page}?checkout=cancel`);
    // A pack from a page with a query of its own; a plan from nowhere in particular goes to /billing.
    await t
      .http()
      .post('/api/v1/billing/credits/purchase')
      .set(...c.user.auth())
      .send({ productId: 'prod_itx_100', returnTo: '/deploy?q=Northwind' })
      .expect(200);
    const pack = stripe.calls('POST', '/v1/checkout/sessions').at(-1)!;
    expect(pack.params.cancel_url).toBe(`${APP}/deploy?q=Northwind&checkout=cancel`);
    await checkout(c, { mode: 'subscription', priceId: 'price_emeral_month' }).expect(201);
    expect(stripe.calls('POST', '/v1/checkout/sessions').at(-1)!.params.cancel_url).toBe(
      `${APP}/billing?checkout=cancel`,
    );
    // Anything but a path of this app is refused before Stripe is asked.
    const before = stripe.requests.length;
    for (const returnTo of ['//evil.example/x', 'https://evil.example', '/\\evil.example', 'billing', '/a b'])
      await checkout(c, { mode: 'subscription', priceId: 'price_zaphire_month', returnTo }).expect(400);
    expect(stripe.requests.length).toBe(before);
  });

  it('a credit pack bought on a paid plan also goes through Checkout (status open)', async () => {
    const c = await owner();
    await subscribe(c);
    const res = await t
      .http()
      .post('/api/v1/billing/credits/purchase')
      .set(...c.user.auth())
      .send({ productId: 'prod_itx_100' })
      .expect(200);
    expect(res.body.data).toMatchObject({ success: true, status: 'open' });
    expect(stripe.sessions.get(sessionIdOf(res.body.data.sessionUrl))).toMatchObject({
      mode: 'payment',
      amount_total: 1000,
    });
    expect((await state(c)).packs).toBe(0);
  });

  it('Stripe down: 503 PAYMENT_PROVIDER_UNAVAILABLE, nothing recorded', async () => {
    const c = await owner();
    stripe.failNext = 50;
    try {
      const res = await checkout(c, { mode: 'subscription', priceId: 'price_zaphire_month' }).expect(503);
      expect(res.body.errors[0].code).toBe('PAYMENT_PROVIDER_UNAVAILABLE');
    } finally {
      stripe.failNext = 0;
    }
    const rows = await sql.query('SELECT count(*)::int AS n FROM checkout_sessions WHERE tenant_id = $1', [c.tenantId]);
    expect(rows.rows[0].n).toBe(0);
  });
});

describe('webhooks', () => {
  it('duplicated, shuffled and concurrent deliveries of a plan purchase give one subscription', async () => {
    const c = await owner();
    const res = await checkout(c, { mode: 'subscription', priceId: 'price_ruby_month' }).expect(201);
    const session = stripe.pay(sessionIdOf(res.body.data.sessionUrl));
    const sub = stripe.subscriptions.get(String(session.subscription))!;
    const completed = stripe.event('checkout.session.completed', session);
    const created = stripe.event('customer.subscription.created', sub);
    const updated = stripe.event('customer.subscription.updated', sub);
    const paid = stripe.event('invoice.paid', {
      id: 'in_first',
      object: 'invoice',
      parent: { subscription_details: { subscription: sub.id } },
    });
    // Shuffled: the subscription's events before the checkout's; then each again, all at once.
    const deliveries = [updated, created, paid, completed, completed, updated, paid, completed, created, completed];
    const answers = await Promise.all(deliveries.map((e) => stripe.deliver(webhook, e)));
    expect(answers.map((a) => a.status)).toEqual(deliveries.map(() => 200));
    const s = await state(c);
    expect(s).toMatchObject({
      product_name: 'Ruby',
      subscription_id: sub.id,
      plan_slug: 'ruby',
      subscription_status: 'active',
      limit_interactions: 600,
    });
    const item = (sub.items as { data: Array<{ current_period_start: number; current_period_end: number }> }).data[0];
    expect(s.period_start.getTime()).toBe(item.current_period_start * 1000);
    expect(s.period_end.getTime()).toBe(item.current_period_end * 1000);
    const events = await sql.query('SELECT id, processed_at FROM billing_events WHERE id = ANY($1)', [
      [completed.id, created.id, updated.id, paid.id],
    ]);
    expect(events.rows).toHaveLength(4);
    expect(events.rows.every((r: { processed_at: Date | null }) => r.processed_at)).toBe(true);
    const fulfilled = await sql.query('SELECT status, fulfilled_at FROM checkout_sessions WHERE id = $1', [session.id]);
    expect(fulfilled.rows[0].status).toBe('paid');
    // Stripe's fulfilment marks the billing assistant's objectives as the local provider's does.
    const groups = (
      await t
        .http()
        .get('/api/v1/objectives/billing?lang=en')
        .set(...c.user.auth())
        .expect(200)
    ).body.data as Array<{ steps: Array<{ _id: string; status: string }> }>;
    expect(Object.fromEntries(groups.flatMap((g) => g.steps.map((st) => [st._id, st.status])))).toMatchObject({
      'billing.choose': 'completed',
      'billing.pay': 'completed',
      'billing.credits': 'pending',
    });
    // A delivery seen before is answered as a duplicate.
    expect((await stripe.deliver(webhook, completed)).body).toEqual({ data: { received: true, duplicate: true } });
  });

  it('a credit pack delivered many times, at once and under two event ids, is credited once', async () => {
    const c = await owner();
    const res = await checkout(c, { mode: 'payment', priceId: 'price_itx_100' }).expect(201);
    const session = stripe.pay(sessionIdOf(res.body.data.sessionUrl));
    const completed = stripe.event('checkout.session.completed', session);
    const succeeded = stripe.event('checkout.session.async_payment_succeeded', session);
    const answers = await Promise.all(
      [completed, succeeded, completed, succeeded, completed, completed].map((e) => stripe.deliver(webhook, e)),
    );
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect(await state(c)).toMatchObject({ packs: 1, credits: 100 });
    const available = await t
      .http()
      .get('/api/v1/billing/credits/interactions/available')
      .set(...c.user.auth())
      .expect(200);
    expect(available.body.data).toEqual({ total: 100 });
  });

  it('an unpaid session is not fulfilled: the event is re-read from Stripe, not believed', async () => {
    const c = await owner();
    const res = await checkout(c, { mode: 'payment', priceId: 'price_itx_500' }).expect(201);
    const session = stripe.sessions.get(sessionIdOf(res.body.data.sessionUrl))!;
    // A forged copy that says "paid", signed correctly (the secret leaked, say): Stripe says open.
    const forged = stripe.event('checkout.session.completed', {
      ...session,
      status: 'complete',
      payment_status: 'paid',
    });
    expect((await stripe.deliver(webhook, forged)).status).toBe(200);
    expect((await state(c)).packs).toBe(0);
  });

  it('bad signatures: 400 and nothing changes', async () => {
    const c = await owner();
    const res = await checkout(c, { mode: 'payment', priceId: 'price_itx_100' }).expect(201);
    const session = stripe.pay(sessionIdOf(res.body.data.sessionUrl));
    const completed = stripe.event('checkout.session.completed', session);
    const before = await eventCount();

    const wrongSecret = await stripe.deliver(webhook, completed, 'whsec_not_the_one');
    expect(wrongSecret.status).toBe(400);
    expect((wrongSecret.body as { errors: Array<{ code: string }> }).errors[0].code).toBe('INVALID_SIGNATURE');

    const payload = JSON.stringify(completed);
    const header = new Stripe('sk_test_x').webhooks.generateTestHeaderString({
      payload,
      secret: stripe.webhookSecret,
    });
    const post = (body: string, headers: Record<string, string>) =>
      fetch(webhook, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
    // The body changed after signing (the id of another event put in).
    expect((await post(payload.replace(completed.id, 'evt_other'), { 'stripe-signature': header })).status).toBe(400);
    expect((await post(payload, {})).status).toBe(400);
    expect((await post(payload, { 'stripe-signature': 't=1,v1=00' })).status).toBe(400);
    // A signature from long ago (a replay) is refused too.
    const old = new Stripe('sk_test_x').webhooks.generateTestHeaderString({
      payload,
      secret: stripe.webhookSecret,
      timestamp: Math.floor(Date.now() / 1000) - 3600,
    });
    expect((await post(payload, { 'stripe-signature': old })).status).toBe(400);
    expect((await post('not json', { 'stripe-signature': header })).status).toBe(400);

    expect(await eventCount()).toBe(before);
    expect((await state(c)).packs).toBe(0);
    // The genuine delivery still works afterwards.
    expect((await stripe.deliver(webhook, completed)).status).toBe(200);
    expect((await state(c)).packs).toBe(1);
  });

  it('bad bodies never give a 5xx, signed or not, and record nothing', async () => {
    const before = await eventCount();
    const signer = new Stripe('sk_test_x');
    const post = (body: string, sign: boolean, type = 'application/json') =>
      fetch(webhook, {
        method: 'POST',
        headers: {
          'content-type': type,
          ...(sign
            ? {
                'stripe-signature': signer.webhooks.generateTestHeaderString({
                  payload: body,
                  secret: stripe.webhookSecret,
                }),
              }
            : {}),
        },
        body,
      });
    const bodies = [
      '{}',
      '[]',
      'null',
      '42',
      '"text"',
      '{"id":1,"type":"checkout.session.completed"}',
      '{"id":"evt_x","type":"checkout.session.completed"}',
      '{"id":"evt_x","type":"checkout.session.completed","data":null}',
      '{"id":"evt_x","type":"invoice.paid","data":{"object":"in_1"}}',
      `{"id":"${'e'.repeat(300)}","type":"x","data":{"object":{"id":"x"}}}`,
      '{"id":"evt_\u0000","type":"x","data":{"object":{"id":"x"}}}',
      '{not json',
    ];
    for (const body of bodies) {
      for (const sign of [false, true]) {
        const res = await post(body, sign);
        expect([body, sign, res.status]).toEqual([body, sign, 400]);
      }
    }
    expect((await post('{}', true, 'text/plain')).status).toBe(400);
    expect(await eventCount()).toBe(before);
  });

  it('out of order: a late "updated" or "completed" cannot bring back a cancelled subscription', async () => {
    const c = await owner();
    const { subscriptionId } = await subscribe(c);
    const stale = stripe.event('customer.subscription.updated', stripe.subscriptions.get(subscriptionId)!);
    const deleted = stripe.cancel(subscriptionId);
    expect((await stripe.deliver(webhook, deleted)).status).toBe(200);
    expect(await state(c)).toMatchObject({
      product_name: 'Free Plan',
      subscription_id: null,
      subscription_status: 'canceled',
    });
    // The stale copy says "active"; Stripe says canceled.
    expect((await stripe.deliver(webhook, stale)).status).toBe(200);
    expect(await state(c)).toMatchObject({ product_name: 'Free Plan', subscription_id: null });

    // A checkout completed whose subscription was cancelled before the event was handled grants nothing.
    const d = await owner();
    const res = await checkout(d, { mode: 'subscription', priceId: 'price_emeral_month' }).expect(201);
    const session = stripe.pay(sessionIdOf(res.body.data.sessionUrl));
    const completed = stripe.event('checkout.session.completed', session);
    const gone = stripe.cancel(String(session.subscription));
    expect((await stripe.deliver(webhook, gone)).status).toBe(200);
    expect((await stripe.deliver(webhook, completed)).status).toBe(200);
    expect(await state(d)).toMatchObject({ product_name: 'Free Plan', subscription_id: null });
  });

  it("shuffled subscription updates converge on Stripe's current state, not on the last delivered copy", async () => {
    const c = await owner();
    const { subscriptionId } = await subscribe(c);
    const sub = () => stripe.subscriptions.get(subscriptionId)!;
    stripe.failPayment(subscriptionId);
    const pastDue = stripe.event('customer.subscription.updated', sub());
    stripe.renew(subscriptionId);
    const activeAgain = stripe.event('customer.subscription.updated', sub());
    expect((await stripe.deliver(webhook, activeAgain)).status).toBe(200);
    expect((await stripe.deliver(webhook, pastDue)).status).toBe(200);
    expect((await state(c)).subscription_status).toBe('active');

    // Cancelled at Stripe, its deletion not delivered yet: a stale "active" copy already ends the plan.
    const stale = stripe.event('customer.subscription.updated', sub());
    stripe.cancel(subscriptionId);
    expect((await stripe.deliver(webhook, stale)).status).toBe(200);
    expect(await state(c)).toMatchObject({ product_name: 'Free Plan', subscription_id: null });
  });

  it('invoice.paid on renewal starts a new period: usage back to 0', async () => {
    const c = await owner();
    const { subscriptionId } = await subscribe(c);
    await sql.query('UPDATE tenants SET usage_interactions = 321 WHERE id = $1', [c.tenantId]);
    const first = await state(c);
    const renewal = stripe.renew(subscriptionId);
    await Promise.all([stripe.deliver(webhook, renewal), stripe.deliver(webhook, renewal)]);
    const after = await state(c);
    expect(after.usage_interactions).toBe(0);
    expect(after.period_start.getTime()).toBe(first.period_end.getTime());
    expect(after).toMatchObject({ subscription_status: 'active', product_name: 'Ruby' });
    // The same renewal again, later: usage counted since is kept.
    await sql.query('UPDATE tenants SET usage_interactions = 7 WHERE id = $1', [c.tenantId]);
    const again = stripe.event('invoice.paid', {
      id: 'in_again',
      object: 'invoice',
      parent: { subscription_details: { subscription: subscriptionId } },
    });
    await stripe.deliver(webhook, again);
    expect((await state(c)).usage_interactions).toBe(7);
  });

  it('invoice.payment_failed: the subscription is past_due (Stripe retries) and the plan is kept until Stripe ends it', async () => {
    const c = await owner();
    const { subscriptionId } = await subscribe(c);
    expect((await stripe.deliver(webhook, stripe.failPayment(subscriptionId))).status).toBe(200);
    expect(await state(c)).toMatchObject({ subscription_status: 'past_due', product_name: 'Ruby' });
    const subs = await t
      .http()
      .get(`/api/v1/billing/subscriptions/${c.customerId}`)
      .set(...c.user.auth())
      .expect(200);
    // Managed by Stripe: the web's "Manage subscription" opens its Customer Portal.
    expect(subs.body.data).toEqual([
      expect.objectContaining({ subscriptionId, status: 'past_due', provider: 'stripe' }),
    ]);
    // Paid at the next attempt: active again.
    expect((await stripe.deliver(webhook, stripe.renew(subscriptionId))).status).toBe(200);
    expect((await state(c)).subscription_status).toBe('active');
    // Stripe gives up: the subscription is cancelled and the tenant is back on the free plan.
    expect((await stripe.deliver(webhook, stripe.cancel(subscriptionId))).status).toBe(200);
    expect(await state(c)).toMatchObject({ product_name: 'Free Plan', subscription_id: null });
  });

  it('a new plan replaces the old one: the old subscription is cancelled at Stripe, and its deletion ends nothing', async () => {
    const c = await owner();
    const ruby = await subscribe(c);
    const emerald = await subscribe(c, 'price_emeral_month');
    expect(stripe.subscriptions.get(ruby.subscriptionId)!.status).toBe('canceled');
    const deleted = stripe.event('customer.subscription.deleted', stripe.subscriptions.get(ruby.subscriptionId)!);
    expect((await stripe.deliver(webhook, deleted)).status).toBe(200);
    expect(await state(c)).toMatchObject({ product_name: 'Emerald', subscription_id: emerald.subscriptionId });
  });
});

describe('stale checkouts (issue 30)', () => {
  it('a local checkout left open when Stripe was switched on pays nothing: only the provider that made it fulfils it', async () => {
    const local = await startApp({ QUEUE_PREFIX: prefix, APP_URL: 'https://sparks.example', JWT_SECRET: jwtSecret });
    try {
      const c = await owner();
      const res = await local
        .http()
        .post(`/api/v1/billing/customers/${c.customerId}/session`)
        .set(...c.user.auth())
        .send({ mode: 'subscription', priceId: 'price_ruby_month' })
        .expect(201);
      const sessionId = String(res.body.data.sessionUrl).split('/checkout/')[1];
      expect(sessionId).toMatch(/^cs_local_/);
      await t
        .http()
        .post(`/api/v1/billing/checkout/${sessionId}/pay`)
        .set(...c.user.auth())
        .expect(404);
      expect(await state(c)).toMatchObject({ product_name: 'Free Plan', subscription_id: null });
    } finally {
      await local.close();
    }
  });
});

describe('customer portal', () => {
  it("opens Stripe's portal for the caller's customer; another customer's is 404", async () => {
    const c = await owner();
    const res = await t
      .http()
      .post(`/api/v1/billing/customers/${c.customerId}/portal`)
      .set(...c.user.auth())
      .expect(201);
    expect(res.body.data.sessionUrl).toMatch(new RegExp(`^${stripe.url}/portal/bps_`));
    const call = stripe.calls('POST', '/v1/billing_portal/sessions').at(-1)!;
    expect(call.params).toMatchObject({
      customer: (await state(c)).stripe_customer_id,
      return_url: 'https://sparks.example/billing',
    });
    const other = await owner();
    await t
      .http()
      .post(`/api/v1/billing/customers/${other.customerId}/portal`)
      .set(...c.user.auth())
      .expect(404);
  });
});

describe('overage reported to Stripe', () => {
  it('each overage interaction is one billing meter event whose identifier is its usage event id; plan interactions are not', async () => {
    const c = await owner();
    await subscribe(c);
    const auth = c.user.auth();
    const spark = (
      await t
        .http()
        .post('/api/v1/sparks')
        .set(...auth)
        .send({})
        .expect(201)
    ).body.data;
    const test = (
      await t
        .http()
        .post(`/api/v1/sparks/${spark._id}/tests`)
        .set(...auth)
        .send({ name: 'T1' })
        .expect(201)
    ).body.data;
    const start = await t
      .http()
      .post(`/api/v1/sparks/${spark._id}/tests/${test._id}/restart`)
      .set(...auth)
      .expect(201);
    const send = (text: string) =>
      t
        .http()
        .post(`/api/v1/sparks/${spark._id}/chat/${test._id}`)
        .set(...auth)
        .send({ input: { text }, conversationId: start.body.data.conversationId });
    // One interaction left on the plan, then overage (Ruby: 12 cents) under a 30-cent cap: two more.
    await sql.query('UPDATE tenants SET usage_interactions = limit_interactions - 1 WHERE id = $1', [c.tenantId]);
    await t
      .http()
      .put('/api/v1/billing/overage')
      .set(...auth)
      .send({ enabled: true, capCents: 30 })
      .expect(200);
    await send('Opening hours?').expect(201);
    // Stripe fails the first report (the client's two retries included): the job is tried again.
    stripe.failNext = 3;
    await send('Where are you?').expect(201);
    await send('Do you deliver?').expect(201);
    await send('One more?').expect(402);

    const events = await eventually(async () => {
      const rows = (
        await sql.query(
          `SELECT id, source, meter_reported_at FROM usage_events WHERE tenant_id = $1 ORDER BY created_at`,
          [c.tenantId],
        )
      ).rows as Array<{ id: string; source: string; meter_reported_at: Date | null }>;
      return rows.length === 3 && rows.filter((r) => r.meter_reported_at).length === 2 ? rows : undefined;
    }, 30_000);
    expect(events.map((e) => e.source)).toEqual(['plan', 'overage', 'overage']);
    const overage = events.filter((e) => e.source === 'overage').map((e) => e.id);
    const customer = (await state(c)).stripe_customer_id;
    const reported = [...stripe.meterEvents.values()].filter(
      (m) => (m.payload as Record<string, string>).stripe_customer_id === customer,
    );
    expect(reported.map((m) => m.identifier).sort()).toEqual([...overage].sort());
    expect(stripe.failNext).toBe(0);
    for (const m of reported) {
      expect(m).toMatchObject({ event_name: 'sparks_overage_interactions', payload: { value: '1' } });
    }
    // The plan's checkout carried the metered price on the same meter.
    const meter = [...stripe.meters.values()].find((x) => x.event_name === 'sparks_overage_interactions');
    expect(meter).toBeDefined();
  });
});
