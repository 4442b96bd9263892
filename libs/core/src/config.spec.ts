import { ConfigError, loadConfig } from './config';

const base = { DATABASE_URL: 'postgres://x/y', REDIS_URL: 'redis://z' };

describe('configuration', () => {
  it('has defaults for everything but the two service URLs', () => {
    const c = loadConfig(base);
    expect(c).toMatchObject({
      PORT: 3000,
      APP_URL: 'http://localhost:3000',
      DEV_OUTBOX: false,
      QUEUE_PREFIX: 'sparks',
    });
  });

  it('names what is missing or wrong', () => {
    expect(() => loadConfig({})).toThrow(ConfigError);
    expect(() => loadConfig({ ...base, PORT: 'eighty' })).toThrow(/PORT/);
  });

  it('turns the dev outbox on only when asked and never with SMTP configured or in production', () => {
    expect(loadConfig({ ...base, DEV_OUTBOX: 'true' }).DEV_OUTBOX).toBe(true);
    expect(loadConfig({ ...base, DEV_OUTBOX: 'true', SMTP_URL: 'smtp://mail:25' }).DEV_OUTBOX).toBe(false);
    const production = { ...base, NODE_ENV: 'production', JWT_SECRET: 's' };
    expect(loadConfig({ ...production, DEV_OUTBOX: 'true' }).DEV_OUTBOX).toBe(false);
  });

  it('builds links from APP_URL without a trailing slash', () => {
    expect(loadConfig({ ...base, APP_URL: 'https://sparks.example.com/' }).APP_URL).toBe('https://sparks.example.com');
  });
});
