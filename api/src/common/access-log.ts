import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Options } from 'pino-http';

/** The path of a request URL, without its query (which may hold what a user typed: `?input.text=`). */
export function pathOf(url: string | undefined): string {
  const at = url?.indexOf('?') ?? -1;
  return at === -1 ? (url ?? '') : url!.slice(0, at);
}

/**
 * The access log's options (pino-http): one line per request with its id, method, path (never the
 * query: chat text travels in it), status and time; the health probes are not logged.
 */
export function accessLogOptions(level: string): Options {
  return {
    level,
    genReqId: (req, res) => {
      const incoming = req.headers['x-request-id'];
      const id = typeof incoming === 'string' && /^[\w-]{8,64}$/.test(incoming) ? incoming : randomUUID();
      res.setHeader('X-Request-Id', id);
      return id;
    },
    // Given the standard serialization (url with its query, query, params, headers): kept lean.
    serializers: {
      req: (req: { id?: unknown; method?: string; url?: string }) => ({
        id: req.id,
        method: req.method,
        url: pathOf(req.url),
      }),
      res: (res: { statusCode?: number }) => ({ statusCode: res.statusCode }),
    },
    redact: ['req.headers.authorization', 'req.headers.cookie'],
    autoLogging: {
      ignore: (req: IncomingMessage) => /^\/api\/v1\/health(?:\/live|\/ready)?$/.test(pathOf(req.url)),
    },
  };
}
