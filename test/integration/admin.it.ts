import { runAdminCli } from '../../api/src/cli/admin';
import { createUser, uniqueEmail, startApp, type SignedUser, type TestApp } from './harness';

/** The routes a disabled account must be refused, each as the web calls it. */
async function billableCalls(
  t: TestApp,
  u: SignedUser,
): Promise<Array<{ name: string; status: number; code?: string }>> {
  const base = await t.url();
  const results: Array<{ name: string; status: number; code?: string }> = [];
  const record = (name: string, res: { status: number; body?: { errors?: Array<{ code: string }> } }) =>
    results.push({ name, status: res.status, code: res.body?.errors?.[0]?.code });
  record(
    'create a Spark',
    await t
      .http()
      .post('/api/v1/sparks')
      .set(...u.auth())
      .send({}),
  );
  const stream = await fetch(`${base}/api/v1/spark-sys/main/chat?input.text=hello`, {
    headers: { Authorization: `Bearer ${u.access}` },
  });
  record('chat with an assistant (event stream)', {
    status: stream.status,
    body: stream.headers.get('content-type')?.includes('json')
      ? ((await stream.json()) as { errors?: Array<{ code: string }> })
      : undefined,
  });
  if (!stream.headers.get('content-type')?.includes('json')) await stream.body?.cancel();
  return results;
}

describe('admins and disabled accounts', () => {
  const adminEmail = uniqueEmail('admin');
  let t: TestApp;
  let admin: SignedUser;
  let user: SignedUser;
  let bystander: SignedUser;

  beforeAll(async () => {
    t = await startApp({ ADMIN_EMAILS: ` Someone@Else.example , ${adminEmail.toUpperCase()}` });
    [admin, user, bystander] = await Promise.all([
      createUser(t, { username: adminEmail }),
      createUser(t, { language: 'es' }),
      createUser(t),
    ]);
  });
  afterAll(() => t.close());

  const userId = async (u: SignedUser) =>
    (
      await t
        .http()
        .get('/api/v1/account/profile')
        .set(...u.auth())
        .expect(200)
    ).body.data._id as string;
  const status = async (u: SignedUser) =>
    (
      await t
        .http()
        .get('/api/v1/account/profile')
        .set(...u.auth())
        .expect(200)
    ).body.data.tenants[0].status as string;

  it('there is no admin but those named: a normal user gets 403 on every admin route', async () => {
    const id = await userId(bystander);
    // Asking whether one is an admin is no admin route: the answer is a plain no, nothing more.
    const me = await t
      .http()
      .get('/api/v1/admin/me')
      .set(...user.auth())
      .expect(200);
    expect(me.body).toEqual({ data: { admin: false } });
    for (const [method, path] of [
      ['get', `/api/v1/admin/users?email=${encodeURIComponent(user.username)}`],
      ['post', `/api/v1/admin/users/${id}/disable`],
      ['post', `/api/v1/admin/users/${id}/enable`],
      ['get', '/api/v1/admin/audit'],
      ['post', '/api/v1/admin/session'],
    ] as const) {
      const res = await t
        .http()
        [method](path)
        .set(...user.auth());
      expect({ path, status: res.status, code: res.body.errors?.[0]?.code }).toEqual({
        path,
        status: 403,
        code: 'FORBIDDEN',
      });
      expect(res.headers['set-cookie']).toBeUndefined();
    }
    expect(await status(bystander)).toBe('active');
  });

  it('an admin from ADMIN_EMAILS disables an account: the API refuses its billable calls with 403 ACCOUNT_INACTIVE', async () => {
    const me = await t
      .http()
      .get('/api/v1/admin/me')
      .set(...admin.auth())
      .expect(200);
    expect(me.body.data).toEqual({ admin: true, username: admin.username });
    const found = await t
      .http()
      .get(`/api/v1/admin/users?email=${encodeURIComponent(user.username.toUpperCase())}`)
      .set(...admin.auth())
      .expect(200);
    expect(found.body.data.account).toMatchObject({ username: user.username, status: 'active', admin: false });

    // Before: the same calls work.
    const before = await billableCalls(t, user);
    expect(before.every((r) => r.status < 400)).toBe(true);

    const id = found.body.data.account._id as string;
    const disabled = await t
      .http()
      .post(`/api/v1/admin/users/${id}/disable`)
      .set(...admin.auth())
      .expect(200);
    expect(disabled.body.data.account.status).toBe('inactive');
    expect(disabled.body.data.audit[0]).toMatchObject({ action: 'disable', actor: admin.username, targetUserId: id });
    expect(await status(user)).toBe('inactive');

    const after = await billableCalls(t, user);
    for (const r of after) expect(r).toEqual({ name: r.name, status: 403, code: 'ACCOUNT_INACTIVE' });
    const es = await t
      .http()
      .post('/api/v1/sparks')
      .set(...user.auth())
      .set('Accept-Language', 'es')
      .send({});
    expect(es.body.errors[0].message).toBe('Esta cuenta está desactivada');
    // It can still read, change its language and sign out (the inactive-tenant modal needs no more).
    await t
      .http()
      .get('/api/v1/sparks')
      .set(...user.auth())
      .expect(200);
    await t
      .http()
      .patch('/api/v1/account/profile')
      .set(...user.auth())
      .send({ language: 'en' })
      .expect(200);
    // Others are untouched.
    expect((await billableCalls(t, bystander)).every((r) => r.status < 400)).toBe(true);

    await t
      .http()
      .post(`/api/v1/admin/users/${id}/enable`)
      .set(...admin.auth())
      .expect(200);
    expect(await status(user)).toBe('active');
    expect((await billableCalls(t, user)).every((r) => r.status < 400)).toBe(true);

    const audit = await t
      .http()
      .get('/api/v1/admin/audit')
      .set(...admin.auth())
      .expect(200);
    expect(
      (audit.body.data as Array<{ action: string; actor: string; targetUserId: string }>)
        .filter((a) => a.targetUserId === id)
        .map((a) => [a.action, a.actor]),
    ).toEqual([
      ['enable', admin.username],
      ['disable', admin.username],
    ]);
  });

  it('answers an unknown account with 404 and a malformed id with 400', async () => {
    await t
      .http()
      .get('/api/v1/admin/users?email=nobody%40example.com')
      .set(...admin.auth())
      .expect(404);
    await t
      .http()
      .post('/api/v1/admin/users/00000000-0000-4000-8000-000000000000/disable')
      .set(...admin.auth())
      .expect(404);
    await t
      .http()
      .post('/api/v1/admin/users/not-an-id/disable')
      .set(...admin.auth())
      .expect(400);
  });

  it('the CLI grants and revokes admins and disables and enables accounts, each logged with who did it', async () => {
    const url = process.env.DATABASE_URL!;
    const cli = (...args: string[]) => runAdminCli([...args, '--as', 'ops-tester'], url);
    expect((await cli('grant', bystander.username.toUpperCase())).out[0]).toBe(
      `${bystander.username} is now an admin.`,
    );
    await t
      .http()
      .get('/api/v1/admin/me')
      .set(...bystander.auth())
      .expect(200);
    expect((await cli('list')).out.join('\n')).toContain(`${bystander.username}\tgranted by cli:ops-tester`);

    expect((await cli('disable', user.username)).code).toBe(0);
    expect(await status(user)).toBe('inactive');
    const refused = await t
      .http()
      .post('/api/v1/sparks')
      .set(...user.auth())
      .send({});
    expect(refused.status).toBe(403);
    expect((await cli('enable', user.username)).code).toBe(0);
    await t
      .http()
      .post('/api/v1/sparks')
      .set(...user.auth())
      .send({})
      .expect(201);
    const shown = (await cli('show', user.username)).out;
    expect(shown[1]).toMatch(/\tenable\tby cli:ops-tester$/);
    expect(shown[2]).toMatch(/\tdisable\tby cli:ops-tester$/);

    expect((await cli('revoke', bystander.username)).out[0]).toBe(`${bystander.username} is no longer an admin.`);
    const revoked = await t
      .http()
      .get('/api/v1/admin/me')
      .set(...bystander.auth())
      .expect(200);
    expect(revoked.body.data).toEqual({ admin: false });
    expect((await cli('disable', 'nobody@example.com')).code).toBe(1);
    expect((await runAdminCli(['frobnicate'], url)).code).toBe(2);
  });
});
