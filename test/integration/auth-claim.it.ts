import { codeIn, PASSWORD, startApp, uniqueEmail, waitForMail, type TestApp } from './harness';

/**
 * Who keeps a password when an address is proved (issue 30): the code's verification keeps the
 * password chosen at sign-up only when the caller gives it; signing up again over an unproved address
 * replaces it. The attacks themselves are in test/security/account-takeover.sec.ts.
 */
describe('claiming an address', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp();
  });
  afterAll(() => t.close());

  const register = (username: string, password = PASSWORD) =>
    t
      .http()
      .post('/api/v1/auth/register')
      .send({ username, password, config: { language: 'en' } });
  const verify = (body: Record<string, unknown>) => t.http().post('/api/v1/auth/verify-code').send(body);
  const login = (username: string, password: string) =>
    t.http().post('/api/v1/auth/login').send({ username, password });

  async function signedUp(): Promise<{ username: string; code: string }> {
    const username = uniqueEmail('claim');
    await register(username).expect(201);
    return { username, code: codeIn(await waitForMail(t, username)) };
  }

  it('keeps the sign-up password when the code comes with it', async () => {
    const { username, code } = await signedUp();
    await verify({ username, code, password: PASSWORD }).expect(200);
    await login(username, PASSWORD).expect(200);
  });

  it('refuses a wrong password with the code without spending the code', async () => {
    const { username, code } = await signedUp();
    const res = await verify({ username, code, password: 'Not-the-0ne!' }).expect(400);
    expect(res.body.errors[0]).toMatchObject({ code: 'WRONG_PASSWORD', field: 'password' });
    await verify({ username, code, password: PASSWORD }).expect(200);
  });

  it('verifies with the code alone, and then no password signs in until one is chosen', async () => {
    const { username, code } = await signedUp();
    const res = await verify({ username, code }).expect(200);
    await t
      .http()
      .get('/api/v1/account/profile')
      .set('Authorization', `Bearer ${res.body.data.access_token}`)
      .expect(200);
    expect((await login(username, PASSWORD).expect(400)).body.errors[0].code).toBe('WRONG_CREDENTIALS');
  });

  it('answers a sign-up over an unproved address as a new account, in the new language', async () => {
    const { username } = await signedUp();
    const again = await t
      .http()
      .post('/api/v1/auth/register')
      .send({ username, password: 'An0ther-secret!', config: { language: 'es' } })
      .expect(201);
    expect(again.body.data).toMatchObject({ username, verified: false, config: { language: 'es' } });
    expect(again.body.data.tenants[0].trial).toMatchObject({ daysLeft: 15, active: true });
    const mail = await waitForMail(t, username, (m) => m.subject.startsWith('Tu código'));
    await verify({ username, code: codeIn(mail), password: 'An0ther-secret!' }).expect(200);
    await login(username, 'An0ther-secret!').expect(200);
    expect((await login(username, PASSWORD).expect(400)).body.errors[0].code).toBe('WRONG_CREDENTIALS');
  });
});
