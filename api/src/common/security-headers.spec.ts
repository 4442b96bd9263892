import express from 'express';
import helmet, { type HelmetOptions } from 'helmet';
import request from 'supertest';
import { securityHeaders } from './security-headers';

/** The headers an app answers with, less those that change per response. */
async function headersOf(use: express.RequestHandler): Promise<Record<string, string>> {
  const app = express();
  app.use(use);
  app.get('/', (_req, res) => {
    res.json({ ok: true });
  });
  const res = await request(app).get('/').expect(200);
  const { date: _date, etag: _etag, connection: _connection, 'keep-alive': _keepAlive, ...rest } = res.headers;
  return rest;
}

describe('securityHeaders', () => {
  const options: HelmetOptions[] = [
    { contentSecurityPolicy: { directives: { upgradeInsecureRequests: null } } }, // the api's
    {},
    { hsts: false, frameguard: { action: 'deny' } },
  ];

  it.each(options)('answers exactly the headers helmet answers (%j)', async (opts) => {
    const computed = await headersOf(securityHeaders(opts));
    expect(computed).toEqual(await headersOf(helmet(opts)));
    expect(computed['content-security-policy']).toBeDefined();
    expect(computed['x-powered-by']).toBeUndefined();
  });

  it('lets a later handler replace a header it set (the widget files are cross-origin resources)', async () => {
    const app = express();
    app.use(securityHeaders(options[0]));
    app.get('/widget.js', (_req, res) => {
      res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
      res.type('application/javascript').send('1');
    });
    const res = await request(app).get('/widget.js').expect(200);
    expect(res.headers['cross-origin-resource-policy']).toBe('cross-origin');
  });
});
