import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { Logger } from '@sparks/core';

/** The path of a request URL, without its query (which may hold what a user typed: `?input.text=`). */
export function pathOf(url: string | undefined): string {
  const at = url?.indexOf('?') ?? -1;
  return at === -1 ? (url ?? '') : url!.slice(0, at);
}

const HEALTH_PROBE = /^\/api\/v1\/health(?:\/live|\/ready)?$/;
/** What is logged: the API's requests, not the health probes, the SPA's and widget's files or `/metrics`. */
const logged = (path: string) => path.startsWith('/api/') && !HEALTH_PROBE.test(path);
const REQUEST_ID = /^[\w-]{8,64}$/;

/**
 * The access log, the api's first middleware: every request gets an id (the caller's `X-Request-Id`
 * when it is a plain token, else a new one), sent back in `X-Request-Id` and used by the exception
 * filter as the correlation id; when the response ends, one line with the id, method, path (never
 * the query: chat text travels in it), status and time in ms. Only API requests are logged: not the
 * health probes, the files of the SPA and the widget, nor Prometheus's scrapes of `/metrics`.
 *
 * Written here rather than with pino-http: the same line for less than half of its CPU per request
 * (no child logger per request), measured in bench/RESULTS.md (docs/decisions.md, "The access log").
 */
export function accessLog(logger: Logger) {
  return (req: IncomingMessage & { id?: string }, res: ServerResponse, next: () => void): void => {
    const given = req.headers['x-request-id'];
    const id = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    req.id = id;
    res.setHeader('X-Request-Id', id);
    const url = pathOf(req.url);
    if (!logger.isLevelEnabled('info') || !logged(url)) return next();
    const start = performance.now();
    const done = () => {
      res.removeListener('finish', done);
      res.removeListener('close', done);
      const status = res.statusCode;
      logger.info(
        {
          req: { id, method: req.method, url },
          res: { statusCode: status },
          responseTime: Math.round(performance.now() - start),
        },
        !res.writableFinished ? 'request aborted' : status >= 500 ? 'request errored' : 'request completed',
      );
    };
    res.on('finish', done);
    res.on('close', done);
    next();
  };
}
