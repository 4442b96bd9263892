/**
 * What pg-pool says when no connection could be had in time: every pooled connection stayed busy for
 * `connectionTimeoutMillis`, or the server did not answer a new one. Both are load, not bugs: the api
 * answers them 503 with Retry-After (like Redis away), never 500.
 */
const BUSY_MESSAGES = ['timeout exceeded when trying to connect', 'Connection terminated due to connection timeout'];

/** Whether `err` (or an error it wraps, as Drizzle's query errors do) is the pool giving up waiting for a connection. */
export function isDatabaseBusy(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth += 1) {
    if (BUSY_MESSAGES.includes(e.message)) return true;
  }
  return false;
}
