import { ForbiddenException, Logger, type ArgumentsHost } from '@nestjs/common';
import { DomainError } from '@sparks/core';
import { AllExceptionsFilter } from './all-exceptions.filter';

function host(req: Record<string, unknown>) {
  const res = {
    headersSent: false,
    statusCode: 0,
    body: undefined as unknown,
    headers: {} as Record<string, string>,
    setHeader(name: string, value: string) {
      this.headers[name] = value;
    },
    status(code: number) {
      this.statusCode = code;
      return this;
    },
    json(body: unknown) {
      this.body = body;
      return this;
    },
    end() {},
  };
  const h = { switchToHttp: () => ({ getRequest: () => req, getResponse: () => res }) } as unknown as ArgumentsHost;
  return { h, res };
}

describe('AllExceptionsFilter', () => {
  let logged: jest.SpyInstance;
  beforeEach(() => {
    logged = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => logged.mockRestore());
  const filter = new AllExceptionsFilter();
  const req = { id: 'corr-123', headers: {}, method: 'GET', path: '/x' };

  it('answers a database pool that gave up waiting for a connection with 503 and Retry-After, not 500', () => {
    const warned = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const { h, res } = host(req);
    const poolTimeout = new Error('timeout exceeded when trying to connect');
    filter.catch(new Error('Failed query: select 1', { cause: poolTimeout }), h);
    expect(res.statusCode).toBe(503);
    expect(res.headers['Retry-After']).toBe('5');
    expect(res.body).toMatchObject({ statusCode: 503, errors: [{ code: 'TEMPORARILY_UNAVAILABLE' }] });
    expect(logged).not.toHaveBeenCalled();
    warned.mockRestore();
  });

  it('tells when to try again on a passing 503 (a failed upload), not on a missing configuration', () => {
    const failed = host(req);
    filter.catch(DomainError.of('UPLOAD_FAILED'), failed.h);
    expect(failed.res.statusCode).toBe(503);
    expect(failed.res.headers['Retry-After']).toBe('5');
    const unconfigured = host(req);
    filter.catch(DomainError.of('GOOGLE_NOT_CONFIGURED'), unconfigured.h);
    expect(unconfigured.res.statusCode).toBe(503);
    expect(unconfigured.res.headers['Retry-After']).toBeUndefined();
  });

  it('answers unknown errors with 500, a correlation id and no internals', () => {
    const { h, res } = host(req);
    filter.catch(new Error('database password is hunter2'), h);
    expect(res.statusCode).toBe(500);
    expect(JSON.stringify(res.body)).not.toContain('hunter2');
    expect(logged).toHaveBeenCalledWith(expect.objectContaining({ correlationId: 'corr-123' }), 'Unhandled error');
    expect(res.body).toEqual({
      statusCode: 500,
      correlationId: 'corr-123',
      errors: [{ code: 'INTERNAL', message: 'Something went wrong on our side. Reference: corr-123' }],
    });
  });

  it('answers domain errors with their status, codes and fields in the caller’s language', () => {
    const { h, res } = host({ ...req, headers: { 'accept-language': 'es' } });
    filter.catch(DomainError.invalid('REQUIRED', 'email'), h);
    expect(res.statusCode).toBe(400);
    expect(res.body).toEqual({
      statusCode: 400,
      errors: [{ code: 'REQUIRED', message: 'Campo requerido', field: 'email' }],
    });
  });

  it('maps Nest HTTP exceptions by status', () => {
    const { h, res } = host(req);
    filter.catch(new ForbiddenException(), h);
    expect(res.statusCode).toBe(403);
    expect((res.body as { errors: Array<{ code: string }> }).errors[0].code).toBe('FORBIDDEN');
  });
});
