/**
 * What pg-pool says when no connection could be had in time: every pooled connection stayed busy for
 * `connectionTimeoutMillis`, or the server did not answer a new one. Both are load, not bugs: the api
 * answers them 503 with Retry-After (like Redis away), never 500.
 */
const BUSY_MESSAGES = ['timeout exceeded when trying to connect', 'Connection terminated due to connection timeout'];

/** What pg says when the server went away or cannot be reached: an outage, not a bug (issue 30). */
const GONE_MESSAGES = [
  'Connection terminated unexpectedly',
  'Connection terminated',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
];
/** Socket errors of a server that is down or unreachable. */
const GONE_ERRNOS = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EPIPE',
]);
/**
 * SQLSTATEs of a server that is there but not serving: class 08 (connection exception), shutting down or
 * starting (57P01–57P03), out of connections (53300).
 */
const GONE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300']);

/** Error-like: socket errors may come from another realm (a test runner's sandbox), where `instanceof Error` fails. */
const isErrorLike = (e: unknown): e is Error =>
  typeof e === 'object' && e !== null && typeof (e as { message?: unknown }).message === 'string';

/** `err` and the errors it wraps (Drizzle's query errors wrap pg's as `cause`). */
function* chain(err: unknown): Generator<Error> {
  for (let e: unknown = err, depth = 0; isErrorLike(e) && depth < 5; e = e.cause, depth += 1) yield e;
}

/** Whether `err` (or an error it wraps, as Drizzle's query errors do) is the pool giving up waiting for a connection. */
export function isDatabaseBusy(err: unknown): boolean {
  for (const e of chain(err)) if (BUSY_MESSAGES.includes(e.message)) return true;
  return false;
}

/**
 * Whether `err` means the database cannot serve now: busy (above), or down, unreachable, restarting. The api
 * answers it 503 with Retry-After; the client may try again.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  if (isDatabaseBusy(err)) return true;
  for (const e of chain(err)) {
    const code = (e as { code?: unknown }).code;
    if (GONE_MESSAGES.includes(e.message)) return true;
    if (typeof code === 'string' && (GONE_ERRNOS.has(code) || GONE_SQLSTATES.has(code) || code.startsWith('08'))) {
      return true;
    }
    // A connect error of several addresses (localhost: ::1 and 127.0.0.1) is an AggregateError of socket errors.
    const inner = (e as { errors?: unknown }).errors;
    if (Array.isArray(inner) && inner.some((x) => isDatabaseUnavailable(x))) return true;
  }
  return false;
}

/** Whether `err` (or an error it wraps, as Drizzle's query errors do) is PostgreSQL's SQLSTATE `state` (`22023`…). */
export function isSqlState(err: unknown, state: string): boolean {
  for (const e of chain(err)) if ((e as { code?: unknown }).code === state) return true;
  return false;
}
