import { Client } from 'pg';
import { startApp, type TestApp } from './harness';

describe('health: liveness and readiness', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('is live and ready when PostgreSQL and Redis answer and the schema is migrated', async () => {
    const live = await t.http().get('/api/v1/health/live').expect(200);
    expect(live.body).toEqual({ data: { status: 'ok', version: expect.any(String) } });
    const ready = await t.http().get('/api/v1/health/ready').expect(200);
    expect(ready.body.data).toMatchObject({ status: 'ok', db: 'up', redis: 'up', migrations: 'applied' });
    // The old route keeps its contract.
    const health = await t.http().get('/api/v1/health').expect(200);
    expect(Object.keys(health.body.data).sort()).toEqual(['db', 'redis', 'status', 'version']);
  });

  describe('against a database with no migrations applied', () => {
    const name = `sparks_unmigrated_${process.pid}_${Date.now()}`;
    let bare: TestApp;
    beforeAll(async () => {
      const admin = new Client({ connectionString: process.env.SPARKS_IT_ADMIN_URL });
      await admin.connect();
      await admin.query(`CREATE DATABASE "${name}"`);
      await admin.end();
      const url = new URL(process.env.SPARKS_IT_ADMIN_URL!);
      url.pathname = `/${name}`;
      bare = await startApp({ DATABASE_URL: url.toString() });
    });
    afterAll(async () => {
      await bare.close();
      const admin = new Client({ connectionString: process.env.SPARKS_IT_ADMIN_URL });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS "${name}"`);
      await admin.end();
    });

    it('is live but not ready (503, migrations pending)', async () => {
      await bare.http().get('/api/v1/health/live').expect(200);
      const ready = await bare.http().get('/api/v1/health/ready').expect(503);
      expect(ready.body.data).toMatchObject({ status: 'degraded', db: 'up', redis: 'up', migrations: 'pending' });
    });
  });

  describe('when Redis does not answer', () => {
    let away: TestApp;
    beforeAll(async () => {
      // A port nothing listens on.
      away = await startApp({ REDIS_URL: 'redis://127.0.0.1:1', REDIS_COMMAND_TIMEOUT_MS: '300' });
    });
    afterAll(async () => {
      await away.close();
    });

    it('is live but not ready (503, redis down)', async () => {
      await away.http().get('/api/v1/health/live').expect(200);
      const ready = await away.http().get('/api/v1/health/ready').expect(503);
      expect(ready.body.data).toMatchObject({ status: 'degraded', db: 'up', redis: 'down', migrations: 'applied' });
    });
  });
});
