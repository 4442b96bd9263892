import type { NextFunction, Request, RequestHandler, Response } from 'express';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * helmet's security headers, worked out once: with these options none of them depends on the request (no CSP
 * nonce, nothing read from `req`), so one middleware sets the same list on every response instead of running
 * helmet's dozen middlewares each time (a measurable share of the request path, bench/RESULTS.md). helmet stays
 * the source of the headers and their values: an upgrade of it changes what is set here too.
 */
export function securityHeaders(options: HelmetOptions): RequestHandler {
  const headers: [string, string][] = [];
  const removed: string[] = [];
  const recorder = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers.push([name, String(value)]);
      return recorder;
    },
    removeHeader(name: string) {
      removed.push(name);
    },
  };
  let ran = false;
  helmet(options)({} as Request, recorder as unknown as Response, () => {
    ran = true;
  });
  if (!ran) throw new Error('helmet did not answer synchronously: its headers cannot be computed once');
  return (_req: Request, res: Response, next: NextFunction): void => {
    for (const name of removed) res.removeHeader(name);
    for (const [name, value] of headers) res.setHeader(name, value);
    next();
  };
}
