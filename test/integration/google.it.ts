import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { createUser, startApp, uniqueEmail, type TestApp } from './harness';

interface Provider {
  child: ChildProcess;
  base: string;
  setProfile(p: Record<string, unknown>): Promise<void>;
}

async function startProvider(): Promise<Provider> {
  const child = spawn(process.execPath, [path.join(__dirname, 'fixtures', 'oauth-server.mjs')], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const { port, control } = await new Promise<{ port: number; control: number }>((resolve, reject) => {
    child.stdout.once('data', (d: Buffer) => resolve(JSON.parse(d.toString()) as { port: number; control: number }));
    child.once('exit', () => reject(new Error('oauth server exited')));
  });
  return {
    child,
    base: `http://127.0.0.1:${port}`,
    setProfile: async (p) => {
      await fetch(`http://127.0.0.1:${control}/profile`, { method: 'POST', body: JSON.stringify(p) });
    },
  };
}

describe('Google sign-in (passport-google-oauth20 against a local OAuth2 server)', () => {
  let provider: Provider;
  let t: TestApp;
  const APP_URL = 'http://localhost:3999';

  beforeAll(async () => {
    provider = await startProvider();
    t = await startApp({
      APP_URL,
      GOOGLE_CLIENT_ID: 'sparks-client',
      GOOGLE_CLIENT_SECRET: 'sparks-secret',
      GOOGLE_AUTHORIZATION_URL: `${provider.base}/authorize`,
      GOOGLE_TOKEN_URL: `${provider.base}/token`,
      GOOGLE_USERINFO_URL: `${provider.base}/userinfo`,
    });
  });
  afterAll(async () => {
    await t.close();
    // Waited for: its stdout pipe and process handle would otherwise keep Jest alive after the run.
    const exited = new Promise((r) => provider.child.once('exit', r));
    provider.child.kill('SIGTERM');
    await exited;
  });

  /** Walks the browser's path: our login → Google → back to our callback. Answers the final redirect. */
  async function signIn(): Promise<URL> {
    const login = await t.http().get('/api/v1/auth/service/google/login').expect(200);
    expect(login.body.data.url).toBe(`${APP_URL}/api/v1/auth/service/google/start`);
    const start = await t.http().get('/api/v1/auth/service/google/start').expect(302);
    const consent = new URL(start.headers.location);
    expect(consent.origin + consent.pathname).toBe(`${provider.base}/authorize`);
    expect(consent.searchParams.get('state')).toMatch(/^[\w-]{20,}$/);
    expect(consent.searchParams.get('redirect_uri')).toBe(`${APP_URL}/api/v1/auth/service/google/callback`);
    const back = await fetch(consent, { redirect: 'manual' });
    const callback = new URL(back.headers.get('location')!);
    const done = await t
      .http()
      .get(callback.pathname + callback.search)
      .expect(302);
    return new URL(done.headers.location);
  }

  it('creates a verified user on first sign-in and hands over tokens through a one-time token', async () => {
    const email = uniqueEmail('google');
    await provider.setProfile({
      sub: `g-${email}`,
      email,
      email_verified: true,
      given_name: 'Lucía',
      family_name: 'Pérez',
    });
    const landing = await signIn();
    expect(landing.origin + landing.pathname).toBe(`${APP_URL}/auth`);
    const token = landing.searchParams.get('token')!;
    const tokens = await t
      .http()
      .get('/api/v1/auth/exchange-token')
      .set('Authorization', `Bearer ${token}`)
      .expect(200);
    expect(tokens.body.data).toMatchObject({ access_token: expect.any(String), refresh_Token: expect.any(String) });
    const profile = await t
      .http()
      .get('/api/v1/account/profile')
      .set('Authorization', `Bearer ${tokens.body.data.access_token}`)
      .expect(200);
    expect(profile.body.data).toMatchObject({ username: email, firstname: 'Lucía', lastname: 'Pérez', verified: true });
    expect(profile.body.data.tenants[0].subscription.productName).toBe('Free Plan');
    // The one-time token works once.
    const again = await t.http().get('/api/v1/auth/exchange-token').set('Authorization', `Bearer ${token}`).expect(400);
    expect(again.body.errors[0].code).toBe('INVALID_TOKEN');
  });

  it('finds the same user again by Google subject id, and links an existing account by e-mail', async () => {
    const existing = await createUser(t);
    await provider.setProfile({ sub: `g-link-${existing.username}`, email: existing.username, email_verified: true });
    const first = await signIn();
    const a = await t
      .http()
      .get('/api/v1/auth/exchange-token')
      .set('Authorization', `Bearer ${first.searchParams.get('token')}`)
      .expect(200);
    // Same subject, e-mail changed at Google: still the same user.
    await provider.setProfile({
      sub: `g-link-${existing.username}`,
      email: uniqueEmail('changed'),
      email_verified: true,
    });
    const second = await signIn();
    const b = await t
      .http()
      .get('/api/v1/auth/exchange-token')
      .set('Authorization', `Bearer ${second.searchParams.get('token')}`)
      .expect(200);
    const who = async (access: string) =>
      (await t.http().get('/api/v1/account/profile').set('Authorization', `Bearer ${access}`).expect(200)).body.data
        .username;
    expect(await who(a.body.data.access_token)).toBe(existing.username);
    expect(await who(b.body.data.access_token)).toBe(existing.username);
  });

  it('linking an address someone signed up with but never proved drops the password they chose', async () => {
    const username = uniqueEmail('g-pending');
    const stranger = 'Str4nger-chose-it!';
    await t.http().post('/api/v1/auth/register').send({ username, password: stranger }).expect(201);
    await provider.setProfile({ sub: `g-pending-${username}`, email: username, email_verified: true });
    const landing = await signIn();
    await t
      .http()
      .get('/api/v1/auth/exchange-token')
      .set('Authorization', `Bearer ${landing.searchParams.get('token')}`)
      .expect(200);
    const res = await t.http().post('/api/v1/auth/login').send({ username, password: stranger }).expect(400);
    expect(res.body.errors[0].code).toBe('WRONG_CREDENTIALS');
  });

  it('refuses a callback whose state it did not issue, or issued and already used', async () => {
    const forged = await t.http().get('/api/v1/auth/service/google/callback?code=abc&state=forged').expect(302);
    expect(new URL(forged.headers.location).searchParams.get('error')).toBe('google');

    await provider.setProfile({ sub: 'g-replay', email: uniqueEmail('replay'), email_verified: true });
    const start = await t.http().get('/api/v1/auth/service/google/start').expect(302);
    const back = await fetch(new URL(start.headers.location), { redirect: 'manual' });
    const callback = new URL(back.headers.get('location')!);
    await t
      .http()
      .get(callback.pathname + callback.search)
      .expect(302);
    const replay = await t
      .http()
      .get(callback.pathname + callback.search)
      .expect(302);
    expect(new URL(replay.headers.location).searchParams.get('error')).toBe('google');
  });

  it('does not create an account from an unverified Google e-mail', async () => {
    await provider.setProfile({
      sub: `g-unverified-${Date.now()}`,
      email: uniqueEmail('unverified'),
      email_verified: false,
    });
    const landing = await signIn();
    expect(landing.searchParams.get('error')).toBe('google');
  });

  it('says clearly when Google is not configured', async () => {
    const plain = await startApp();
    try {
      expect((await plain.http().get('/api/v1/auth/providers').expect(200)).body.data).toEqual({ google: false });
      const res = await plain.http().get('/api/v1/auth/service/google/login').expect(503);
      expect(res.body.errors).toEqual([
        { code: 'GOOGLE_NOT_CONFIGURED', message: 'Google sign-in is not configured on this server' },
      ]);
      await plain.http().get('/api/v1/auth/service/github/login').expect(404);
    } finally {
      await plain.close();
    }
    expect((await t.http().get('/api/v1/auth/providers').expect(200)).body.data).toEqual({ google: true });
  });
});
