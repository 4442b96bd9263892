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

  it('hashes passwords cheaply only when a test run asks: ignored outside NODE_ENV=test', () => {
    expect(loadConfig(base).PASSWORD_HASH_COST).toBe('standard');
    expect(loadConfig({ ...base, NODE_ENV: 'test', PASSWORD_HASH_COST: 'test-minimal' }).PASSWORD_HASH_COST).toBe(
      'test-minimal',
    );
    expect(loadConfig({ ...base, PASSWORD_HASH_COST: 'test-minimal' }).PASSWORD_HASH_COST).toBe('standard');
    const production = { ...base, NODE_ENV: 'production', JWT_SECRET: 's' };
    expect(loadConfig({ ...production, PASSWORD_HASH_COST: 'test-minimal' }).PASSWORD_HASH_COST).toBe('standard');
    expect(() => loadConfig({ ...base, PASSWORD_HASH_COST: 'none' })).toThrow(/PASSWORD_HASH_COST/);
  });

  it('uses the local payment provider without Stripe keys, and needs the webhook secret with them', () => {
    expect(loadConfig(base).STRIPE_ENABLED).toBe(false);
    expect(() => loadConfig({ ...base, STRIPE_SECRET_KEY: 'sk_test_1' })).toThrow(/STRIPE_WEBHOOK_SECRET/);
    const c = loadConfig({ ...base, STRIPE_SECRET_KEY: 'sk_test_1', STRIPE_WEBHOOK_SECRET: 'whsec_1' });
    expect(c.STRIPE_ENABLED).toBe(true);
    expect(c.STRIPE_METER_EVENT_NAME).toBe('sparks_overage_interactions');
    expect(() => loadConfig({ ...base, STRIPE_API_BASE: 'not a url' })).toThrow(/STRIPE_API_BASE/);
  });

  it('asks Microsoft for the least privilege per service, and refuses scopes without offline_access', () => {
    const c = loadConfig(base);
    expect(c.MICROSOFT_ONEDRIVE_SCOPES).toBe('offline_access Files.Read');
    expect(c.MICROSOFT_SHAREPOINT_SCOPES).toBe('offline_access Files.Read.All Sites.Read.All');
    const custom = loadConfig({ ...base, MICROSOFT_ONEDRIVE_SCOPES: '  offline_access   Files.Read User.Read ' });
    expect(custom.MICROSOFT_ONEDRIVE_SCOPES).toBe('offline_access Files.Read User.Read');
    expect(() => loadConfig({ ...base, MICROSOFT_SHAREPOINT_SCOPES: 'Files.Read.All Sites.Read.All' })).toThrow(
      /MICROSOFT_SHAREPOINT_SCOPES.*offline_access/,
    );
    expect(() => loadConfig({ ...base, MICROSOFT_ONEDRIVE_SCOPES: 'Files.Read' })).toThrow(/MICROSOFT_ONEDRIVE_SCOPES/);
    // The one list for every service is gone: an old override is refused rather than silently ignored.
    expect(() => loadConfig({ ...base, MICROSOFT_SCOPES: 'offline_access Files.Read.All' })).toThrow(
      /MICROSOFT_SCOPES.*MICROSOFT_ONEDRIVE_SCOPES/,
    );
  });

  it('builds links from APP_URL without a trailing slash', () => {
    expect(loadConfig({ ...base, APP_URL: 'https://sparks.example.com/' }).APP_URL).toBe('https://sparks.example.com');
  });
});

describe('ingestion and upload time limits', () => {
  it('gives a whole ingestion job twice the reading time by default', () => {
    expect(loadConfig(base).INGEST_JOB_TIMEOUT_MS).toBe(240_000);
    expect(loadConfig({ ...base, INGEST_TIMEOUT_MS: '30000' }).INGEST_JOB_TIMEOUT_MS).toBe(60_000);
    expect(loadConfig({ ...base, INGEST_JOB_TIMEOUT_MS: '600000' }).INGEST_JOB_TIMEOUT_MS).toBe(600_000);
  });

  it('refuses a job limit that is not longer than the reading limit, naming the setting', () => {
    expect(() => loadConfig({ ...base, INGEST_TIMEOUT_MS: '60000', INGEST_JOB_TIMEOUT_MS: '60000' })).toThrow(
      /INGEST_JOB_TIMEOUT_MS: INGEST_JOB_TIMEOUT_MS must be longer than INGEST_TIMEOUT_MS/,
    );
  });

  it('cuts off an upload that sends nothing for 30 s by default', () => {
    expect(loadConfig(base).UPLOAD_IDLE_TIMEOUT_MS).toBe(30_000);
  });
});
