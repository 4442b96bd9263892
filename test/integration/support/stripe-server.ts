import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import qs from 'qs';
import Stripe from 'stripe';

type Obj = Record<string, unknown> & { id: string };
type Params = Record<string, unknown>;

export interface StripeRequest {
  method: string;
  path: string;
  params: Params;
  idempotencyKey?: string;
}

const DAY = 86_400;
const nowS = () => Math.floor(Date.now() / 1000);
const newId = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;

/**
 * A local server that speaks the parts of Stripe's HTTP API that Sparks uses (customers and their deletion, products,
 * prices with lookup keys, billing meters and meter events, Checkout Sessions, subscriptions, the
 * Customer Portal), with Stripe's form encoding, list shape, error shape and idempotency keys
 * (a repeated key answers the first response; the same key with other parameters is a 400
 * idempotency_error). The api's official `stripe` client reaches it through STRIPE_API_BASE.
 *
 * Test controls play Stripe's side: paying a checkout, renewing, failing a payment, cancelling, and
 * delivering events signed with `stripe.webhooks.generateTestHeaderString` to the app's webhook.
 */
export class StripeTestServer {
  readonly requests: StripeRequest[] = [];
  readonly customers = new Map<string, Obj>();
  readonly products = new Map<string, Obj>();
  readonly prices = new Map<string, Obj>();
  readonly meters = new Map<string, Obj>();
  readonly sessions = new Map<string, Obj>();
  readonly subscriptions = new Map<string, Obj>();
  readonly meterEvents = new Map<string, Obj>();
  /** Answers 500 to this many of the next requests (Stripe having a bad moment). */
  failNext = 0;
  private readonly idempotent = new Map<string, { params: string; status: number; body: unknown }>();
  private readonly signer = new Stripe('sk_test_signer');
  private server!: http.Server;
  url = '';

  private constructor(readonly webhookSecret: string) {}

  static async start(webhookSecret = `whsec_${randomBytes(16).toString('hex')}`): Promise<StripeTestServer> {
    const s = new StripeTestServer(webhookSecret);
    s.server = http.createServer((req, res) => void s.serve(req, res));
    await new Promise<void>((resolve) => s.server.listen(0, '127.0.0.1', resolve));
    s.url = `http://127.0.0.1:${(s.server.address() as AddressInfo).port}`;
    return s;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private async serve(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const [path, query = ''] = (req.url ?? '/').split('?');
    const params = { ...qs.parse(query), ...qs.parse(raw) } as Params;
    const method = req.method ?? 'GET';
    const key = req.headers['idempotency-key'] as string | undefined;
    this.requests.push({ method, path, params, idempotencyKey: key });
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json', 'request-id': newId('req') });
      res.end(JSON.stringify(body));
    };
    if (!/^Bearer sk_/.test(req.headers.authorization ?? '')) {
      return send(401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } });
    }
    if (this.failNext > 0) {
      this.failNext -= 1;
      return send(500, { error: { type: 'api_error', message: 'Something went wrong on our end' } });
    }
    const scope = key ? `${method} ${path} ${key}` : undefined;
    const cached = scope ? this.idempotent.get(scope) : undefined;
    if (cached) {
      if (cached.params !== raw) {
        return send(400, {
          error: {
            type: 'idempotency_error',
            message: 'Keys for idempotent requests can only be used with the same parameters',
          },
        });
      }
      res.setHeader('idempotent-replayed', 'true');
      return send(cached.status, cached.body);
    }
    let status = 200;
    let body: unknown;
    try {
      body = this.route(method, path, params);
    } catch (err) {
      status = (err as { status?: number }).status ?? 500;
      body = { error: (err as { error?: unknown }).error ?? { type: 'api_error', message: String(err) } };
    }
    if (scope && status < 500) this.idempotent.set(scope, { params: raw, status, body });
    send(status, body);
  }

  private route(method: string, path: string, p: Params): unknown {
    const m = (re: RegExp) => re.exec(path);
    let r: RegExpExecArray | null;
    if (method === 'POST' && path === '/v1/customers') {
      return this.put(this.customers, { id: newId('cus'), object: 'customer', metadata: p.metadata ?? {} });
    }
    if ((r = m(/^\/v1\/customers\/([^/]+)$/)) && method === 'DELETE') {
      // Deleting a customer cancels its subscriptions at once, as Stripe does.
      this.get(this.customers, r[1]);
      this.customers.delete(r[1]);
      for (const sub of this.subscriptions.values()) {
        if (sub.customer === r[1] && sub.status !== 'canceled') {
          sub.status = 'canceled';
          sub.canceled_at = nowS();
        }
      }
      return { id: r[1], object: 'customer', deleted: true };
    }
    if (method === 'POST' && path === '/v1/products') {
      const id = (p.id as string | undefined) ?? newId('prod');
      if (this.products.has(id)) {
        throw fail(400, 'resource_already_exists', `A product with ID ${id} already exists`);
      }
      return this.put(this.products, { id, object: 'product', name: p.name, active: true });
    }
    if (method === 'GET' && path === '/v1/prices') {
      const keys = [p.lookup_keys ?? []].flat().map(String);
      return list([...this.prices.values()].filter((x) => keys.length === 0 || keys.includes(String(x.lookup_key))));
    }
    if (method === 'POST' && path === '/v1/prices') {
      if (!this.products.has(String(p.product))) throw fail(400, 'resource_missing', 'No such product');
      if (p.transfer_lookup_key === 'true') {
        for (const other of this.prices.values()) if (other.lookup_key === p.lookup_key) other.lookup_key = null;
      }
      const rec = p.recurring as Params | undefined;
      return this.put(this.prices, {
        id: newId('price'),
        object: 'price',
        active: true,
        product: p.product,
        unit_amount: Number(p.unit_amount),
        currency: p.currency,
        lookup_key: p.lookup_key ?? null,
        type: rec ? 'recurring' : 'one_time',
        recurring: rec
          ? {
              interval: rec.interval,
              interval_count: 1,
              usage_type: rec.usage_type ?? 'licensed',
              meter: rec.meter ?? null,
            }
          : null,
      });
    }
    if (method === 'GET' && path === '/v1/billing/meters') return list([...this.meters.values()]);
    if (method === 'POST' && path === '/v1/billing/meters') {
      return this.put(this.meters, {
        id: newId('mtr'),
        object: 'billing.meter',
        status: 'active',
        event_name: p.event_name,
        display_name: p.display_name,
        customer_mapping: p.customer_mapping,
        value_settings: p.value_settings,
        default_aggregation: p.default_aggregation,
      });
    }
    if (method === 'POST' && path === '/v1/billing/meter_events') {
      const identifier = (p.identifier as string | undefined) ?? newId('mev');
      const event = {
        id: identifier,
        object: 'billing.meter_event',
        event_name: p.event_name,
        identifier,
        payload: p.payload,
        timestamp: Number(p.timestamp ?? nowS()),
      };
      if (!this.meters.size || ![...this.meters.values()].some((x) => x.event_name === p.event_name)) {
        throw fail(400, 'resource_missing', `No active meter with event_name ${String(p.event_name)}`);
      }
      // Stripe keeps one event per identifier.
      if (!this.meterEvents.has(identifier)) this.meterEvents.set(identifier, event);
      return event;
    }
    if (method === 'POST' && path === '/v1/checkout/sessions') {
      if (!this.customers.has(String(p.customer))) throw fail(400, 'resource_missing', 'No such customer');
      const items = (p.line_items as Params[]).map((li) => {
        const price = this.prices.get(String(li.price));
        if (!price) throw fail(400, 'resource_missing', `No such price: ${String(li.price)}`);
        return { price, quantity: li.quantity === undefined ? null : Number(li.quantity) };
      });
      const id = newId('cs_test');
      return this.put(this.sessions, {
        id,
        object: 'checkout.session',
        mode: p.mode,
        customer: p.customer,
        client_reference_id: p.client_reference_id ?? null,
        metadata: p.metadata ?? {},
        subscription_data: p.subscription_data ?? null,
        success_url: p.success_url,
        cancel_url: p.cancel_url,
        url: `${this.url}/pay/${id}`,
        status: 'open',
        payment_status: 'unpaid',
        subscription: null,
        payment_intent: null,
        amount_total: items.reduce((n, i) => n + Number(i.price.unit_amount) * (i.quantity ?? 0), 0),
        currency: items[0]?.price.currency,
        line_items_: items,
      });
    }
    if ((r = m(/^\/v1\/checkout\/sessions\/([^/]+)$/)) && method === 'GET') return this.get(this.sessions, r[1]);
    if ((r = m(/^\/v1\/subscriptions\/([^/]+)$/))) {
      const sub = this.get(this.subscriptions, r[1]);
      if (method === 'GET') return sub;
      if (method === 'DELETE') {
        sub.status = 'canceled';
        sub.canceled_at = nowS();
        return sub;
      }
    }
    if (method === 'POST' && path === '/v1/billing_portal/sessions') {
      if (!this.customers.has(String(p.customer))) throw fail(400, 'resource_missing', 'No such customer');
      const id = newId('bps');
      return {
        id,
        object: 'billing_portal.session',
        customer: p.customer,
        return_url: p.return_url,
        url: `${this.url}/portal/${id}`,
      };
    }
    throw fail(404, 'resource_missing', `Unrecognized request URL (${method}: ${path})`);
  }

  private put(map: Map<string, Obj>, obj: Obj): Obj {
    map.set(obj.id, obj);
    return obj;
  }

  private get(map: Map<string, Obj>, id: string): Obj {
    const obj = map.get(id);
    if (!obj) throw fail(404, 'resource_missing', `No such object: '${id}'`);
    return obj;
  }

  // — Stripe's side —

  /** The customer pays the checkout: the session completes; a subscription mode one makes an active subscription. */
  pay(sessionId: string): Obj {
    const session = this.get(this.sessions, sessionId);
    session.status = 'complete';
    session.payment_status = 'paid';
    if (session.mode === 'subscription') {
      const start = nowS();
      const items = (session.line_items_ as Array<{ price: Obj }>).map((li) => ({
        id: newId('si'),
        object: 'subscription_item',
        price: li.price,
        current_period_start: start,
        current_period_end: start + 30 * DAY,
      }));
      const sub = this.put(this.subscriptions, {
        id: newId('sub'),
        object: 'subscription',
        customer: session.customer,
        status: 'active',
        start_date: start,
        metadata: (session.subscription_data as Params | null)?.metadata ?? {},
        items: { object: 'list', data: items, has_more: false },
      });
      session.subscription = sub.id;
    }
    return session;
  }

  /** The next period starts (Stripe charged it): the invoice.paid event. */
  renew(subscriptionId: string): Stripe.Event {
    const sub = this.get(this.subscriptions, subscriptionId);
    for (const item of (sub.items as { data: Array<Record<string, number>> }).data) {
      item.current_period_start = item.current_period_end;
      item.current_period_end += 30 * DAY;
    }
    sub.status = 'active';
    return this.event('invoice.paid', this.invoice(sub, 'paid'));
  }

  /** The renewal payment failed: Stripe marks the subscription past_due and keeps retrying. */
  failPayment(subscriptionId: string): Stripe.Event {
    const sub = this.get(this.subscriptions, subscriptionId);
    sub.status = 'past_due';
    return this.event('invoice.payment_failed', this.invoice(sub, 'open'));
  }

  cancel(subscriptionId: string): Stripe.Event {
    const sub = this.get(this.subscriptions, subscriptionId);
    sub.status = 'canceled';
    sub.canceled_at = nowS();
    return this.event('customer.subscription.deleted', structuredClone(sub));
  }

  private invoice(sub: Obj, status: string): Obj {
    return {
      id: newId('in'),
      object: 'invoice',
      customer: sub.customer,
      status,
      parent: { type: 'subscription_details', subscription_details: { subscription: sub.id, metadata: sub.metadata } },
    };
  }

  /** An event as Stripe sends it, carrying a copy of the object as it was when it happened. */
  event(type: string, object: Obj): Stripe.Event {
    const copy = structuredClone(object);
    delete copy.line_items_;
    return {
      id: newId('evt'),
      object: 'event',
      type,
      api_version: Stripe.API_VERSION,
      created: nowS(),
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      data: { object: copy },
    } as unknown as Stripe.Event;
  }

  /** Delivers an event to the app's webhook, signed with the webhook secret (or another one). */
  async deliver(
    webhookUrl: string,
    event: Stripe.Event,
    secret = this.webhookSecret,
  ): Promise<{ status: number; body: unknown }> {
    const payload = JSON.stringify(event, null, 2);
    const header = this.signer.webhooks.generateTestHeaderString({ payload, secret });
    const res = await fetch(webhookUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': header },
      body: payload,
    });
    return { status: res.status, body: await res.json().catch(() => undefined) };
  }

  calls(method: string, path: string | RegExp): StripeRequest[] {
    return this.requests.filter(
      (r) => r.method === method && (typeof path === 'string' ? r.path === path : path.test(r.path)),
    );
  }
}

function fail(status: number, code: string, message: string) {
  return Object.assign(new Error(message), { status, error: { type: 'invalid_request_error', code, message } });
}

function list(data: Obj[]) {
  return { object: 'list', data, has_more: false, url: '' };
}
