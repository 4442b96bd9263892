import jwt from 'jsonwebtoken';
import { tokenKey } from '../../api/src/auth/jwt-options';
import { createUser, eventually, startApp, uniqueEmail, type SignedUser, type TestApp } from './harness';

const JWT_SECRET = 'queues-board-secret-0123456789abcdef';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Every kind of path Bull Board serves: its page, its client routes, its static files, its API and its actions. */
function boardPaths(css: string, jobId: string): Array<[method: string, path: string]> {
  return [
    ['GET', '/admin/queues'],
    ['GET', '/admin/queues/'],
    ['GET', '/admin/queues/queue/email'],
    ['GET', `/admin/queues/queue/email/${jobId}`],
    ['GET', `/admin/queues/static/css/${css}`],
    ['GET', '/admin/queues/static/favicon-32x32.png'],
    ['GET', '/admin/queues/api/queues'],
    ['GET', '/admin/queues/api/redis/stats'],
    ['GET', `/admin/queues/api/queues/email/${jobId}`],
    ['GET', `/admin/queues/api/queues/email/${jobId}/logs`],
    ['PUT', '/admin/queues/api/queues/usage/retry/failed'],
    ['PUT', '/admin/queues/api/queues/usage/clean/completed'],
    ['PUT', '/admin/queues/api/queues/usage/promote'],
    ['PUT', '/admin/queues/api/queues/usage/pause'],
    ['PUT', '/admin/queues/api/queues/usage/resume'],
    ['PUT', `/admin/queues/api/queues/email/${jobId}/retry`],
    ['PUT', `/admin/queues/api/queues/email/${jobId}/promote`],
    ['PUT', `/admin/queues/api/queues/email/${jobId}/clean`],
    ['POST', '/admin/queues/api/queues/email/add'],
    ['PUT', '/admin/queues/api/queues/pause'],
    ['GET', '/admin/queues/no/such/thing'],
  ];
}

describe('Bull Board at /admin/queues', () => {
  const adminEmail = uniqueEmail('board-admin');
  let t: TestApp;
  let base: string;
  let admin: SignedUser;
  let user: SignedUser;
  let adminId: string;
  let css: string;
  let jobId: string;

  const send = (method: string, path: string, headers: Record<string, string> = {}) =>
    fetch(`${base}${path}`, {
      method,
      headers: { ...headers, ...(method === 'GET' ? {} : { 'Content-Type': 'application/json' }) },
      body: method === 'GET' ? undefined : '{}',
      redirect: 'manual',
    });

  async function openSession(u: SignedUser): Promise<{ cookie: string; setCookie: string }> {
    const res = await t
      .http()
      .post('/api/v1/admin/session')
      .set(...u.auth())
      .expect(200);
    const cookies: string[] = [res.headers['set-cookie'] ?? []].flat();
    const setCookie = cookies.find((c) => c.startsWith('sparks_admin='))!;
    return { cookie: setCookie.split(';')[0], setCookie };
  }

  beforeAll(async () => {
    t = await startApp({ JWT_SECRET, ADMIN_EMAILS: adminEmail });
    base = await t.url();
    [admin, user] = await Promise.all([createUser(t, { username: adminEmail }), createUser(t)]);
    // The admin signs out once and back in: their token version is no longer the initial 0, so a session
    // token made with any other version than theirs is refused for that alone (see the expired case).
    await t
      .http()
      .post('/api/v1/auth/logout')
      .set(...admin.auth())
      .send({})
      .expect(200);
    const again = await t
      .http()
      .post('/api/v1/auth/login')
      .send({ username: admin.username, password: admin.password })
      .expect(200);
    const access = again.body.data.access_token as string;
    admin = {
      ...admin,
      access,
      refresh: again.body.data.refresh_token as string,
      auth: () => ['Authorization', `Bearer ${access}`],
    };
    adminId = (
      await t
        .http()
        .get('/api/v1/account/profile')
        .set(...admin.auth())
        .expect(200)
    ).body.data._id;
    // Real jobs: the sign-up mails, and a chat turn (an assistant reply).
    const chat = await fetch(`${base}/api/v1/spark-sys/main/chat?input.text=hello`, {
      headers: { Authorization: `Bearer ${user.access}` },
    });
    await chat.text();
    const { cookie } = await openSession(admin);
    const page = await (await send('GET', '/admin/queues/', { Cookie: cookie })).text();
    css = /static\/css\/([\w.]+\.css)/.exec(page)![1];
    jobId = await eventually(async () => {
      const res = await send('GET', '/admin/queues/api/queues?activeQueue=email&status=completed', { Cookie: cookie });
      const body = (await res.json()) as { queues: Array<{ name: string; jobs: Array<{ id: string }> }> };
      return body.queues.find((q) => q.name === 'email')?.jobs[0]?.id;
    });
  });
  afterAll(() => t.close());

  it('answers 401 on every path without a session', async () => {
    for (const [method, path] of boardPaths(css, jobId)) {
      const res = await send(method, path);
      expect({ method, path, status: res.status }).toEqual({ method, path, status: 401 });
      expect(((await res.json()) as { errors: Array<{ code: string }> }).errors[0].code).toBe('UNAUTHORIZED');
    }
  });

  it('sends a browser that opens one of its pages without a session to the app’s admin page', async () => {
    const html = { Accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };
    for (const path of ['/admin/queues', '/admin/queues/', '/admin/queues/queue/email']) {
      const res = await send('GET', path, html);
      expect({ path, status: res.status, location: res.headers.get('location') }).toEqual({
        path,
        status: 303,
        location: '/admin',
      });
    }
    // A forged session cookie too; the board's API and files keep their JSON refusal.
    const { cookie } = await openSession(admin);
    const token = cookie.split('=')[1];
    expect((await send('GET', '/admin/queues/', { ...html, Cookie: `sparks_admin=${token}x` })).status).toBe(303);
    expect((await send('GET', '/admin/queues/api/queues', html)).status).toBe(401);
    expect((await send('GET', `/admin/queues/static/css/${css}`, html)).status).toBe(401);
    // With the session, the page itself.
    expect((await send('GET', '/admin/queues/', { ...html, Cookie: cookie })).status).toBe(200);
  });

  it("answers 401 on every path with a normal user's token, as a bearer or as the cookie", async () => {
    for (const [method, path] of boardPaths(css, jobId)) {
      const tries: Array<Record<string, string>> = [
        { Authorization: `Bearer ${user.access}` },
        { Cookie: `sparks_admin=${user.access}` },
      ];
      for (const headers of tries) {
        const res = await send(method, path, headers);
        expect({ method, path, status: res.status }).toEqual({ method, path, status: 401 });
      }
    }
    // An admin's bearer token is no session either: a page navigation does not send it.
    expect((await send('GET', '/admin/queues/api/queues', { Authorization: `Bearer ${admin.access}` })).status).toBe(
      401,
    );
  });

  it('answers 401 on every path with an expired or forged admin session', async () => {
    // The admin's real session claims (their current token version), so only the expiry or the key differs.
    const { cookie } = await openSession(admin);
    const real = jwt.decode(cookie.split('=')[1]) as { sub: string; tv: number; typ: string };
    expect(real).toMatchObject({ sub: adminId, typ: 'admin-session', tv: expect.any(Number) });
    expect(real.tv).not.toBe(0);
    const claims = { sub: real.sub, tv: real.tv, typ: real.typ };
    const now = Math.floor(Date.now() / 1000);
    const expired = jwt.sign({ ...claims, exp: now - 5 }, tokenKey(JWT_SECRET, 'admin-session'), {
      algorithm: 'HS256',
    });
    const forged = jwt.sign(claims, 'not-the-secret', { algorithm: 'HS256' });
    // Signed with the key of this kind but never expiring, or with the one secret all keys derive from.
    const endless = jwt.sign(claims, tokenKey(JWT_SECRET, 'admin-session'), { algorithm: 'HS256' });
    const rootKey = jwt.sign({ ...claims, exp: now + 60 }, JWT_SECRET, { algorithm: 'HS256' });
    // The same claims, not expired and signed with the key, open the board: the 401s below are the expiry's.
    const valid = jwt.sign({ ...claims, exp: now + 60 }, tokenKey(JWT_SECRET, 'admin-session'), { algorithm: 'HS256' });
    expect((await send('GET', '/admin/queues/api/queues', { Cookie: `sparks_admin=${valid}` })).status).toBe(200);
    for (const [method, path] of boardPaths(css, jobId)) {
      for (const token of [expired, forged, endless, rootKey]) {
        const res = await send(method, path, { Cookie: `sparks_admin=${token}` });
        expect({ method, path, status: res.status }).toEqual({ method, path, status: 401 });
      }
    }
  });

  it('opens for an admin with the session cookie (httpOnly, SameSite=Strict, scoped to /admin, short-lived)', async () => {
    const { cookie, setCookie } = await openSession(admin);
    expect(setCookie).toMatch(/; HttpOnly/i);
    expect(setCookie).toMatch(/; SameSite=Strict/i);
    expect(setCookie).toMatch(/; Path=\/admin(;|$)/);
    expect(setCookie).toMatch(/; Max-Age=900(;|$)/);
    // The cookie's token is not an access token.
    await t
      .http()
      .get('/api/v1/account/profile')
      .set('Authorization', `Bearer ${cookie.split('=')[1]}`)
      .expect(401);

    const page = await send('GET', '/admin/queues/', { Cookie: cookie });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/html/);
    expect((await send('GET', `/admin/queues/static/css/${css}`, { Cookie: cookie })).status).toBe(200);
    const queues = (await (await send('GET', '/admin/queues/api/queues', { Cookie: cookie })).json()) as {
      queues: Array<{ name: string }>;
    };
    expect(queues.queues.map((q) => q.name).sort()).toEqual([
      'assistant-reply',
      'checks',
      'digest',
      'email',
      'ingestion',
      'integrations',
      'privacy',
      'usage',
    ]);

    // Actions: retry, clean, promote answer; adding or rewriting a job by hand is refused.
    for (const path of ['retry/failed', 'clean/completed', 'promote']) {
      const res = await send('PUT', `/admin/queues/api/queues/usage/${path}`, { Cookie: cookie });
      expect({ path, status: res.status }).toEqual({ path, status: 200 });
    }
    expect((await send('POST', '/admin/queues/api/queues/email/add', { Cookie: cookie })).status).toBe(403);
    expect((await send('PUT', `/admin/queues/api/queues/email/${jobId}/update-data`, { Cookie: cookie })).status).toBe(
      403,
    );
  });

  it('shows job data that holds ids only', async () => {
    const { cookie } = await openSession(admin);
    const seen: string[] = [];
    for (const queue of ['email', 'assistant-reply']) {
      const body = (await (
        await send('GET', `/admin/queues/api/queues?activeQueue=${queue}&status=completed&jobsPerPage=50`, {
          Cookie: cookie,
        })
      ).json()) as { queues: Array<{ name: string; jobs: Array<{ name: string; data: Record<string, unknown> }> }> };
      for (const job of body.queues.find((q) => q.name === queue)!.jobs) {
        seen.push(job.name);
        for (const [key, value] of Object.entries(job.data)) {
          expect({ job: job.name, key, value }).toEqual({
            job: job.name,
            key: expect.stringMatching(/Id$/),
            value: expect.stringMatching(UUID),
          });
        }
      }
    }
    expect(seen).toEqual(expect.arrayContaining(['email.send', 'reply.generate']));
  });

  it('closes a session when its holder signs out (401) or stops being an admin (403)', async () => {
    const { cookie } = await openSession(admin);
    await t
      .http()
      .delete('/api/v1/admin/session')
      .set(...admin.auth())
      .expect(200);
    await t
      .http()
      .post('/api/v1/auth/logout')
      .set(...admin.auth())
      .send({})
      .expect(200);
    expect((await send('GET', '/admin/queues/api/queues', { Cookie: cookie })).status).toBe(401);

    const other = await startApp({ JWT_SECRET });
    try {
      const login = await other
        .http()
        .post('/api/v1/auth/login')
        .send({ username: admin.username, password: admin.password })
        .expect(200);
      // An app where this e-mail is not in ADMIN_EMAILS: no session for it, and the earlier one of
      // the first app (same key) is refused with 403 there.
      await other
        .http()
        .post('/api/v1/admin/session')
        .set('Authorization', `Bearer ${login.body.data.access_token}`)
        .expect(403);
      const fresh = await openSession({
        ...admin,
        auth: () => ['Authorization', `Bearer ${login.body.data.access_token}`],
      });
      const otherBase = await other.url();
      const res = await fetch(`${otherBase}/admin/queues/api/queues`, { headers: { Cookie: fresh.cookie } });
      expect(res.status).toBe(403);
    } finally {
      await other.close();
    }
  });
});
