import { ForbiddenException, Logger, type ArgumentsHost } from '@nestjs/common';
import { DomainError, ERROR_CODES, type ErrorCode } from '@sparks/core';
import { AllExceptionsFilter } from './all-exceptions.filter';
import { ERROR_STATUS, statusOf } from './error-status';

describe('error-status table', () => {
  it('gives every error code a status, and only error codes', () => {
    expect(Object.keys(ERROR_STATUS).sort()).toEqual([...ERROR_CODES].sort());
    for (const status of Object.values(ERROR_STATUS)) {
      expect(status >= 400 && status <= 599).toBe(true);
    }
  });

  it.each<[ErrorCode, number]>([
    ['INVALID_PARAMS', 400],
    ['SESSION_EXPIRED', 401],
    ['DOCUMENT_LIMIT', 402],
    ['ACCOUNT_INACTIVE', 403],
    ['USER_NOT_FOUND', 404],
    ['UPLOAD_TIMEOUT', 408],
    ['FILE_TOO_LARGE', 413],
    ['INCORRECT_FORMAT', 415],
    ['RESEND_TOO_SOON', 429],
    ['REPLY_FAILED', 502],
    ['GOOGLE_NOT_CONFIGURED', 503],
    ['REPLY_TIMEOUT', 504],
  ])('answers %s with %i', (code, status) => {
    expect(statusOf(code)).toBe(status);
  });

  describe('in the exception filter', () => {
    const filter = new AllExceptionsFilter();
    const run = (exception: unknown) => {
      const headers: Record<string, string> = {};
      const res = {
        headersSent: false,
        statusCode: 0,
        body: undefined as unknown,
        setHeader: (name: string, value: string) => (headers[name] = value),
        status(code: number) {
          this.statusCode = code;
          return this;
        },
        json(body: unknown) {
          this.body = body;
          return this;
        },
      };
      const req = { id: 'c', headers: {}, method: 'GET', path: '/x' };
      const host = { switchToHttp: () => ({ getRequest: () => req, getResponse: () => res }) };
      filter.catch(exception, host as unknown as ArgumentsHost);
      return { ...res, headers };
    };

    it('answers a domain error with the status of its first code', () => {
      const res = run(new DomainError([{ code: 'DOCUMENT_LIMIT' }, { code: 'DOCUMENT_LIMIT_DETAIL' }]));
      expect(res.statusCode).toBe(402);
      expect(res.body).toMatchObject({
        statusCode: 402,
        errors: [{ code: 'DOCUMENT_LIMIT' }, { code: 'DOCUMENT_LIMIT_DETAIL' }],
      });
      expect(run(DomainError.of('ACCOUNT_INACTIVE')).statusCode).toBe(403);
    });

    it('tells a 429 when to come back', () => {
      const res = run(DomainError.of('RESEND_TOO_SOON', { seconds: 12 }));
      expect(res.statusCode).toBe(429);
      expect(res.headers['Retry-After']).toBe('12');
    });

    it('still maps Nest exceptions by status', () => {
      const logged = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
      expect(run(new ForbiddenException()).statusCode).toBe(403);
      logged.mockRestore();
    });
  });
});
