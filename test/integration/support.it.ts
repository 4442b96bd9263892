import { loadConfig } from '@sparks/core';
import { startApp, type TestApp } from './harness';

/**
 * Where users ask for help (issue 18: a disabled account was told to "contact support" with no contact):
 * GET /auth/support answers SUPPORT_EMAIL, or null when the server has none, to anyone (the inactive-account
 * dialog and the sign-in page read it).
 */
describe('the support contact', () => {
  const apps: TestApp[] = [];
  afterAll(async () => {
    for (const app of apps) await app.close();
  });

  it('answers the configured SUPPORT_EMAIL, without signing in', async () => {
    const t = await startApp({ SUPPORT_EMAIL: ' help@bakery-support.example ' });
    apps.push(t);
    const res = await t.http().get('/api/v1/auth/support').expect(200);
    expect(res.body.data).toEqual({ email: 'help@bakery-support.example' });
  });

  it('answers null when none is configured', async () => {
    const t = await startApp({ SUPPORT_EMAIL: '' });
    apps.push(t);
    expect((await t.http().get('/api/v1/auth/support').expect(200)).body.data).toEqual({ email: null });
  });

  it('refuses a SUPPORT_EMAIL that is not an e-mail address at start', () => {
    expect(() => loadConfig({ ...process.env, SUPPORT_EMAIL: 'write to us' })).toThrow(/SUPPORT_EMAIL/);
  });
});
