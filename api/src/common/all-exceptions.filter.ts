import { ArgumentsHost, Catch, HttpException, Logger, type ExceptionFilter } from '@nestjs/common';
import type { Request, Response } from 'express';
import { DomainError } from '@sparks/core';
import { isDatabaseBusy } from '@sparks/db';
import { isRedisUnavailable } from '@sparks/queues';
import { envelopeFor, simpleEnvelope } from './error-envelope';
import { CODE_BY_STATUS, statusOf } from './error-status';

/** What a client is told to wait before trying again while Redis is away or the database pool is full. */
const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

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
      this.logger.error({ err: exception, correlationId: req.id }, 'Error after the response started');
      res.end();
      return;
    }

    if (exception instanceof DomainError) {
      const status = statusOf(exception.code);
      const wait = exception.details.find((d) => typeof d.params?.seconds === 'number')?.params?.seconds;
      if (status === 429 && wait !== undefined) res.setHeader('Retry-After', String(wait));
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

    if (isDatabaseBusy(exception)) {
      // Not a bug either: every database connection stayed busy for the pool's wait (load), or the server did
      // not take a new one. The client may try again shortly.
      this.logger.warn({ correlationId: req.id, err: (exception as Error).message }, 'Database busy');
      res.setHeader('Retry-After', String(UNAVAILABLE_RETRY_AFTER_SECONDS));
      res.status(503).json(simpleEnvelope(req, 503, 'TEMPORARILY_UNAVAILABLE'));
      return;
    }

    const correlationId = String(req.id ?? 'unknown');
    this.logger.error({ err: exception, correlationId }, 'Unhandled error');
    res.status(500).json({ ...simpleEnvelope(req, 500, 'INTERNAL', { correlationId }), correlationId });
  }
}
