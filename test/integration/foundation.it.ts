import { EmailsRepository } from '@sparks/db';
import { MailService } from '../../api/src/mail/mail.service';
import { eventually, startApp, uniqueEmail, type TestApp } from './harness';

describe('api foundation (real PostgreSQL, Redis and worker)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('reports database and Redis up on /api/v1/health', async () => {
    const res = await t.http().get('/api/v1/health').expect(200);
    expect(res.body).toEqual({ data: { status: 'ok', db: 'up', redis: 'up', version: '1.0.12' } });
  });

  it('answers malformed JSON with 400 in the error envelope', async () => {
    const res = await t
      .http()
      .post('/api/v1/health')
      .set('Content-Type', 'application/json')
      .send('{"username": ')
      .expect(400);
    expect(res.body).toEqual({
      statusCode: 400,
      errors: [{ code: 'MALFORMED_JSON', message: 'The request body is not valid JSON' }],
    });
  });

  it('answers an oversized JSON body with 413 in the envelope', async () => {
    const big = JSON.stringify({ text: 'x'.repeat(1024 * 1024 + 10) });
    const res = await t.http().post('/api/v1/health').set('Content-Type', 'application/json').send(big).expect(413);
    expect(res.body.statusCode).toBe(413);
    expect(res.body.errors[0].code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('answers an unknown route with 404 in the envelope, in the caller’s language', async () => {
    const en = await t.http().get('/api/v1/no/such/thing').expect(404);
    expect(en.body).toEqual({
      statusCode: 404,
      errors: [{ code: 'ROUTE_NOT_FOUND', message: 'There is nothing at GET /api/v1/no/such/thing' }],
    });
    const es = await t.http().delete('/api/v1/nothing').set('Accept-Language', 'es-ES,es;q=0.9').expect(404);
    expect(es.body.errors[0].message).toBe('No hay nada en DELETE /api/v1/nothing');
    const cookie = await t.http().get('/api/v1/nothing').set('Cookie', 'i18nextLng=es').expect(404);
    expect(cookie.body.errors[0].message).toMatch(/^No hay nada/);
  });

  it('validates query parameters with the shared zod schemas', async () => {
    const res = await t
      .http()
      .get(`/api/v1/dev/outbox?to=${'a'.repeat(400)}`)
      .expect(400);
    expect(res.body.errors[0]).toMatchObject({ code: 'INVALID_PARAMS', field: 'to' });
  });

  it('publishes the OpenAPI document', async () => {
    const res = await t.http().get('/api/docs/openapi.json').expect(200);
    expect(res.body.openapi).toMatch(/^3\./);
    expect(Object.keys(res.body.paths)).toEqual(expect.arrayContaining(['/api/v1/health', '/api/v1/dev/outbox']));
    await t.http().get('/api/docs').expect(200).expect('Content-Type', /html/);
  });

  it('sets security headers and a correlation id on every answer', async () => {
    const res = await t.http().get('/api/v1/health').expect(200);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-request-id']).toMatch(/^[\w-]{8,}$/);
    expect(res.headers['x-powered-by']).toBeUndefined();
  });

  it('delivers email.send through the queue and the worker into the dev outbox, newest first', async () => {
    const mail = t.app.get(MailService);
    const to = uniqueEmail('outbox');
    await mail.send({ to, subject: 'First', text: 'one', language: 'en' });
    await mail.send({ to: to.toUpperCase(), subject: 'Second', text: 'two', language: 'en' });
    const messages = await eventually(async () => {
      const res = await t.http().get('/api/v1/dev/outbox').query({ to }).expect(200);
      const list = res.body.data as Array<{ subject: string }>;
      return list.length === 2 ? list : undefined;
    });
    expect(messages.map((m) => m.subject)).toEqual(['Second', 'First']);
    expect(messages[0]).toEqual({ to, subject: 'Second', text: 'two', createdAt: expect.any(String) });
    const stored = await t.app.get(EmailsRepository).outbox(to);
    expect(stored.every((e) => e.status === 'sent' && e.transport === 'outbox')).toBe(true);
  });

  it('keeps the outbox closed unless the setting turns it on', async () => {
    const off = await startApp({ DEV_OUTBOX: 'false' });
    try {
      const res = await off.http().get('/api/v1/dev/outbox').expect(404);
      expect(res.body.errors[0].code).toBe('NOT_FOUND');
    } finally {
      await off.close();
    }
    const smtp = await startApp({ DEV_OUTBOX: 'true', SMTP_URL: 'smtp://127.0.0.1:2525' });
    try {
      await smtp.http().get('/api/v1/dev/outbox').expect(404);
    } finally {
      await smtp.close();
    }
  });
});
