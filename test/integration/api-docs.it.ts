import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { startApp } from './harness';

/** The OpenAPI document as committed (docs/openapi.json): what clients read without running the api. */
const COMMITTED = path.resolve(__dirname, '../../docs/openapi.json');

const PRODUCTION = { NODE_ENV: 'production', JWT_SECRET: 'a-secret-for-the-production-mode-tests' };

describe('the API documentation', () => {
  const PATHS = ['/api/docs', '/api/docs/', '/api/docs/openapi.json', '/api/docs-yaml', '/api/docs/swagger-ui.css'];

  it('is not served in production: it answers as a route that does not exist', async () => {
    const production = await startApp(PRODUCTION);
    try {
      for (const path of PATHS) {
        const res = await production.http().get(path).set('Accept-Language', 'es').expect(404);
        expect(res.body).toEqual({
          statusCode: 404,
          errors: [{ code: 'ROUTE_NOT_FOUND', message: `No hay nada en GET ${path}` }],
        });
      }
      await production.http().get('/api/v1/health').expect(200);
    } finally {
      await production.close();
    }
  });

  it('is served in development', async () => {
    const development = await startApp({ NODE_ENV: 'development' });
    try {
      for (const path of PATHS) await development.http().get(path).expect(200);
      const doc = await development.http().get('/api/docs/openapi.json').expect(200);
      expect(doc.body.openapi).toMatch(/^3\./);
      // The committed document is the api's own: a route, field or response changed without it fails here.
      // `npm run docs:openapi` writes it anew (never in CI).
      if (process.env.UPDATE_OPENAPI === '1' && process.env.CI !== 'true') {
        fs.writeFileSync(COMMITTED, JSON.stringify(doc.body));
        execFileSync(process.execPath, [require.resolve('prettier/bin/prettier.cjs'), '--write', COMMITTED]);
      }
      expect(fs.existsSync(COMMITTED)).toBe(true);
      expect(JSON.parse(fs.readFileSync(COMMITTED, 'utf8'))).toEqual(doc.body);
    } finally {
      await development.close();
    }
  });
});
