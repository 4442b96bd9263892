import { ArgumentsHost, Catch, HttpException, Logger, type ExceptionFilter } from '@nestjs/common';
import type { Request, Response } from 'express';
import { DomainError, withoutQueryValues, type ErrorCode } from '@sparks/core';
import { isDatabaseUnavailable } from '@sparks/db';
import { isRedisUnavailable } from '@sparks/queues';
import { envelopeFor, simpleEnvelope } from './error-envelope';
import { CODE_BY_STATUS, statusOf } from './error-status';

/** What a client is told to wait before trying again while Redis is away or the database pool is full. */
const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

/** 503s that pass: the client is told when to try again. (`…_NOT_CONFIGURED` is no outage: it stays until configured.) */
const TRANSIENT: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  'SERVICE_UNAVAILABLE',
  'TEMPORARILY_UNAVAILABLE',
  'PAYMENT_PROVIDER_UNAVAILABLE',
  'UPLOAD_FAILED',
  'ASSISTANT_UNAVAILABLE',
]);

/** The innermost message of an error (pg's own words, never Drizzle's text with the statement's values). */
function rootMessage(err: unknown): string {
  const message = (e: unknown) => (e as { message?: unknown } | null)?.message;
  let e: unknown = err;
  for (let depth = 0; typeof message((e as { cause?: unknown }).cause) === 'string' && depth < 5; depth += 1) {
    e = (e as { cause?: unknown }).cause;
  }
  return typeof message(e) === 'string' ? String(message(e)) : 'unknown';
}

/**
 * The one place where errors become HTTP answers. Domain errors carry codes, answered with the
 * status `error-status.ts` gives the first one; Nest's HTTP exceptions map by status; anything else is a bug: logged with the request's correlation id
 * and answered 500 without internals.
 */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');

  catch(exception: unknown, host: ArgumentsHost): void {
    const ctx = host.switchToHttp();
    const req = ctx.getRequest<Request & { id?: string }>();
    const res = ctx.getResponse<Response>();
    if (res.headersSent) {
      this.logger.error(
        { err: withoutQueryValues(exception), correlationId: req.id },
        'Error after the response started',
      );
      res.end();
      return;
    }

    if (exception instanceof DomainError) {
      const status = statusOf(exception.code);
      const wait = exception.details.find((d) => typeof d.params?.seconds === 'number')?.params?.seconds;
      if (status === 429 && wait !== undefined) res.setHeader('Retry-After', String(wait));
      if (status === 503 && TRANSIENT.has(exception.code)) {
        res.setHeader('Retry-After', String(UNAVAILABLE_RETRY_AFTER_SECONDS));
      }
      res.status(status).json(envelopeFor(req, status, exception));
      return;
    }

    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      const isRouteMiss =
        status === 404 && /^Cannot [A-Z]+ /.test(String((exception.getResponse() as { message?: unknown }).message));
      if (isRouteMiss) {
        res.status(404).json(simpleEnvelope(req, 404, 'ROUTE_NOT_FOUND', { method: req.method, path: req.path }));
        return;
      }
      // The router could not decode a path segment: its escapes are not UTF-8 (an encoded surrogate).
      const isUndecodablePath =
        status === 400 &&
        /^Failed to decode param /.test(String((exception.getResponse() as { message?: unknown }).message));
      if (isUndecodablePath) {
        res.status(400).json(simpleEnvelope(req, 400, 'INVALID_CHARACTERS'));
        return;
      }
      const code = CODE_BY_STATUS[status];
      if (code) {
        res.status(status).json(simpleEnvelope(req, status, code));
        return;
      }
    }

    if (isRedisUnavailable(exception)) {
      // Not a bug: Redis is frozen or down. The client may try again; ioredis reconnects meanwhile.
      this.logger.warn({ correlationId: req.id, err: (exception as Error).message }, 'Redis unavailable');
      res.setHeader('Retry-After', String(UNAVAILABLE_RETRY_AFTER_SECONDS));
      res.status(503).json(simpleEnvelope(req, 503, 'TEMPORARILY_UNAVAILABLE'));
      return;
    }

    if (isDatabaseUnavailable(exception)) {
      // Not a bug either: every database connection stayed busy for the pool's wait (load), or the server is down,
      // restarting or unreachable. The client may try again shortly. Logged without the statement's values.
      this.logger.warn({ correlationId: req.id, err: rootMessage(exception) }, 'Database unavailable');
      res.setHeader('Retry-After', String(UNAVAILABLE_RETRY_AFTER_SECONDS));
      res.status(503).json(simpleEnvelope(req, 503, 'TEMPORARILY_UNAVAILABLE'));
      return;
    }

    const correlationId = String(req.id ?? 'unknown');
    this.logger.error({ err: withoutQueryValues(exception), correlationId }, 'Unhandled error');
    res.status(500).json({ ...simpleEnvelope(req, 500, 'INTERNAL', { correlationId }), correlationId });
  }
}
