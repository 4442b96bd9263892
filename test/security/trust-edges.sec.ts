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
