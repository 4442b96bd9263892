import { randomUUID } from 'node:crypto';
import { buyPlan, createSpark } from '../integration/factories';
import { createUser, startApp, uniqueEmail, type SignedUser, type TestApp } from '../integration/harness';
import { describeResponse, probe } from './scoreboard';

/**
 * The edges of trust found by the probe of issue 30, attacked over HTTP against the real api: who the app
 * believes it is (its own origin), what an admin may do on the queues board, and who may spend an owner's
 * interactions through the website widget.
 */
const EVIL = 'http://evil.example';
/** The integration environment's APP_URL (test/integration/global-setup.ts). */
const APP = 'http://localhost:3000';

let t: TestApp;
beforeAll(async () => {
  t = await startApp({ JWT_SECRET: `trust-edges-${randomUUID()}` });
});
afterAll(() => t.close());

async function publishedSpark(): Promise<{ owner: SignedUser; sparkId: string; token: string; preview: string }> {
  const owner = await createUser(t, { tag: 'edges' });
  const profile = await t
    .http()
    .get('/api/v1/account/profile')
    .set(...owner.auth())
    .expect(200);
  await buyPlan(t, owner, profile.body.data.tenants[0].customerId as string, 'price_ruby_month');
  const spark = await createSpark(t, owner);
  const dep = `/api/v1/sparks/${spark._id}/deployment`;
  const published = await t
    .http()
    .post(dep)
    .set(...owner.auth())
    .send({})
    .expect(200);
  const preview = await t
    .http()
    .post(`${dep}/preview`)
    .set(...owner.auth())
    .expect(200);
  return {
    owner,
    sparkId: spark._id,
    token: published.body.data.token as string,
    preview: preview.body.data.token as string,
  };
}

describe('the app’s own origin', () => {
  probe(
    'a forged Host or Sec-Fetch-Site never makes another site the app: only APP_URL’s origin is the app’s own',
    async (tally) => {
      const { token, preview } = await publishedSpark();
      const forged: Array<[string, Record<string, string>]> = [
        ['Origin and Host of the attacker', { Origin: EVIL, Host: 'evil.example' }],
        ['Origin with a port and the same Host', { Origin: `${EVIL}:8443`, Host: 'evil.example:8443' }],
        [
          'Origin, Host and Sec-Fetch-Site: same-origin',
          { Origin: EVIL, Host: 'evil.example', 'Sec-Fetch-Site': 'same-origin' },
        ],
        ['X-Forwarded-Host of the attacker', { Origin: EVIL, 'X-Forwarded-Host': 'evil.example' }],
      ];
      for (const [what, token_] of [
        ['the preview token', preview],
        ['a published token (no site listed)', token],
      ] as const) {
        for (const [how, headers] of forged) {
          for (const method of ['GET', 'OPTIONS'] as const) {
            const req =
              method === 'GET'
                ? t.http().get(`/api/v1/public/widgets/${token_}/config`)
                : t.http().options(`/api/v1/public/widgets/${token_}/config`);
            for (const [k, v] of Object.entries(headers)) void req.set(k, v);
            const res = await req;
            const acao = res.headers['access-control-allow-origin'] as string | undefined;
            tally.check(
              `${method} config with ${what}, ${how}: 403 and no CORS header`,
              res.status === 403 && acao === undefined,
              `${describeResponse(res)} (Access-Control-Allow-Origin ${acao})`,
            );
          }
        }
      }
      // The app itself still is: its preview works from APP_URL's origin, and from a same-origin request.
      const own = await t.http().get(`/api/v1/public/widgets/${preview}/config`).set('Origin', APP);
      tally.check(
        'the preview from APP_URL’s origin works',
        own.status === 200 && own.headers['access-control-allow-origin'] === APP,
        describeResponse(own),
      );
      // A same-origin request (no Origin) is the app's page: it is answered for APP_URL's origin, whatever the Host.
      for (const host of [undefined, 'evil.example']) {
        const req = t.http().get(`/api/v1/public/widgets/${preview}/config`).set('Sec-Fetch-Site', 'same-origin');
        if (host) void req.set('Host', host);
        const same = await req;
        tally.check(
          `a same-origin request (no Origin${host ? `, Host ${host}` : ''}) is the app's, for APP_URL's origin only`,
          same.status === 200 && same.headers['access-control-allow-origin'] === APP,
          `${describeResponse(same)} (Access-Control-Allow-Origin ${same.headers['access-control-allow-origin']})`,
        );
      }
    },
  );
});

describe('the queues board', () => {
  probe('adding or rewriting a job by hand is refused however the path is spelled', async (tally) => {
    const adminEmail = uniqueEmail('edges-admin');
    const app = await startApp({ ADMIN_EMAILS: adminEmail });
    try {
      const admin = await createUser(app, { username: adminEmail });
      const session = await app
        .http()
        .post('/api/v1/admin/session')
        .set(...admin.auth())
        .expect(200);
      const cookie = [session.headers['set-cookie'] ?? []]
        .flat()
        .find((c) => c.startsWith('sparks_admin='))!
        .split(';')[0];
      const base = await app.url();
      const jobId = randomUUID();
      const paths = [
        '/admin/queues/api/queues/email/add',
        '/admin/queues/api/queues/email/ADD',
        '/admin/queues/api/queues/email/Add',
        '/admin/queues/api/queues/email/add/',
        '/admin/queues/API/queues/email/add',
        '/admin/queues/Api/Queues/email/aDd',
        '/admin/queues/api/queues/EMAIL/add',
        '/admin/queues/api/queues/email/%61dd',
        '/admin/queues/api/queues/email/%41DD',
        '/admin/queues/api/queues/email//add',
        '/admin/queues//api/queues/email/add',
        `/admin/queues/api/queues/email/${jobId}/update-data`,
        `/admin/queues/api/queues/email/${jobId}/UPDATE-DATA`,
        `/admin/queues/API/QUEUES/email/${jobId}/Update-Data/`,
        `/admin/queues/api/queues/email/${jobId}/update%2Ddata`,
      ];
      for (const path of paths) {
        for (const method of ['POST', 'PUT']) {
          const res = await fetch(`${base}${path}`, {
            method,
            headers: { Cookie: cookie, 'Content-Type': 'application/json' },
            body: JSON.stringify({ name: 'email.send', data: { emailId: randomUUID() } }),
            redirect: 'manual',
          });
          tally.check(
            `${method} ${path}: never a job added or rewritten`,
            res.status === 403 || res.status === 404 || res.status === 405,
            `${res.status} ${(await res.text()).slice(0, 200)}`,
          );
        }
      }
    } finally {
      await app.close();
    }
  });
});

describe('spending an owner’s interactions through the widget', () => {
  const SHOP = 'https://shop.example';
  let ipCounter = 0;
  /** A client address of its own (documentation ranges, RFC 5737), named by X-Forwarded-For behind the proxy. */
  const newIp = () => {
    ipCounter += 1;
    return `203.0.${113 + (ipCounter >> 8)}.${ipCounter % 250}`;
  };
  let spend: TestApp;
  beforeAll(async () => {
    // Sends limited per minute as in production; new visitors: the defaults per IP, 30 per published Spark.
    spend = await startApp({ TRUST_PROXY: 'loopback', WIDGET_NEW_VISITORS_TOKEN_HOUR: '30' });
  });
  afterAll(() => spend.close());

  async function shopSpark() {
    const owner = await createUser(spend, { tag: 'spend' });
    const profile = await spend
      .http()
      .get('/api/v1/account/profile')
      .set(...owner.auth())
      .expect(200);
    await buyPlan(spend, owner, profile.body.data.tenants[0].customerId as string, 'price_ruby_month');
    const spark = await createSpark(spend, owner);
    const dep = `/api/v1/sparks/${spark._id}/deployment`;
    const token = (
      await spend
        .http()
        .post(dep)
        .set(...owner.auth())
        .send({})
        .expect(200)
    ).body.data.token as string;
    await spend
      .http()
      .post(`${dep}/origins`)
      .set(...owner.auth())
      .send({ origin: SHOP })
      .expect(200);
    return { owner, dep, widget: `/api/v1/public/widgets/${token}` };
  }

  const newVisitor = (widget: string, ip: string, previous?: string) =>
    spend
      .http()
      .post(`${widget}/visitors`)
      .set('Origin', SHOP)
      .set('X-Forwarded-For', ip)
      .send(previous ? { visitorToken: previous } : {});

  probe(
    'fresh visitor tokens cost: 20 an hour per IP, 30 per published Spark; a returning visitor renews freely',
    async (tally) => {
      const { widget } = await shopSpark();
      const attacker = newIp();
      let first: string | undefined;
      for (let i = 1; i <= 25; i += 1) {
        const res = await newVisitor(widget, attacker);
        first ??= res.body.data?.visitorToken as string | undefined;
        if (i <= 20) tally.status(`new visitor ${i} of 20 from one IP`, res, [200]);
        else {
          const wait = Number(res.headers['retry-after']);
          tally.check(
            `new visitor ${i} from the same IP: 429 with Retry-After within the hour`,
            res.status === 429 && wait >= 1 && wait <= 3600,
            `${describeResponse(res)} (Retry-After ${res.headers['retry-after']})`,
          );
        }
      }
      tally.status('the same IP renewing a visitor it already has', await newVisitor(widget, attacker, first), [200]);
      // Spread over many IPs: the published Spark's own count (30 an hour here) stops them.
      for (let i = 21; i <= 32; i += 1) {
        const res = await newVisitor(widget, newIp());
        if (i <= 30) tally.status(`new visitor ${i} of 30 of the Spark, from an IP of its own`, res, [200]);
        else tally.check(`new visitor ${i} of the Spark: 429`, res.status === 429, describeResponse(res));
      }
    },
  );

  probe(
    'a burst from many IPs and visitors against a daily limit of 5: exactly 5 answered, the rest 429',
    async (tally) => {
      const { owner, dep, widget } = await shopSpark();
      await spend
        .http()
        .patch(dep)
        .set(...owner.auth())
        .send({ dailyLimit: 5 })
        .expect(200);
      const visitors = [];
      for (let i = 0; i < 25; i += 1) {
        const ip = newIp();
        const v = (await newVisitor(widget, ip)).body.data.visitorToken as string;
        const conv = (
          await spend
            .http()
            .post(`${widget}/conversations`)
            .set('Origin', SHOP)
            .set('X-Forwarded-For', ip)
            .set('Authorization', `Bearer ${v}`)
        ).body.data.conversationId as string;
        visitors.push({ ip, v, conv });
      }
      const answers = await Promise.all(
        visitors.map(({ ip, v, conv }) =>
          spend
            .http()
            .post(`${widget}/conversations/${conv}/messages`)
            .set('Origin', SHOP)
            .set('X-Forwarded-For', ip)
            .set('Authorization', `Bearer ${v}`)
            .send({ text: 'What do you sell?' }),
        ),
      );
      const answered = answers.filter((r) => r.status === 200).length;
      tally.check('exactly 5 of 25 parallel sends answered', answered === 5, `${answered} answered`);
      for (const [i, res] of answers.entries()) {
        if (res.status === 200) continue;
        tally.check(
          `send ${i + 1}: 429 DEPLOYMENT_DAILY_LIMIT with Retry-After`,
          res.status === 429 &&
            (res.body as { errors?: Array<{ code?: string }> }).errors?.[0]?.code === 'DEPLOYMENT_DAILY_LIMIT' &&
            Number(res.headers['retry-after']) >= 1,
          describeResponse(res),
        );
      }
      const view = await spend
        .http()
        .get(dep)
        .set(...owner.auth())
        .expect(200);
      tally.check('the owner reads 5 used today', view.body.data.usedToday === 5, JSON.stringify(view.body.data));
    },
  );
});
