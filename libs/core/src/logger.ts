import pino, { type DestinationStream, type Logger } from 'pino';

/** Fields of database errors that carry the values of a statement (an e-mail, a name): never logged. */
const VALUE_FIELDS = ['params', 'detail', 'where', 'parameters'] as const;

/**
 * The same error without the values of the SQL statement it ran (issue 30): Drizzle's query errors say
 * `Failed query: <sql>\nparams: <values>` and keep `params`; pg's say which key value clashed in `detail`.
 * The statement (with its `$1` placeholders), the SQLSTATE and the cause's message are kept; the values are not.
 * Errors that carry none come back as they are.
 */
export function withoutQueryValues(value: unknown, depth = 0): unknown {
  // Error-like, not `instanceof Error`: a socket's error may come from another realm (a test runner's sandbox).
  if (typeof value !== 'object' || value === null || typeof (value as Error).message !== 'string' || depth > 5) {
    return value;
  }
  const err = value as Error;
  const cause = withoutQueryValues(err.cause, depth + 1);
  const fields = err as unknown as Record<string, unknown>;
  const carries = VALUE_FIELDS.some((k) => fields[k] !== undefined) || /\nparams: /.test(err.message);
  if (!carries && cause === err.cause) return err;
  const message = err.message.replace(/\nparams: [\s\S]*$/, '\nparams: [not logged]');
  const copy = new Error(message, cause === undefined ? undefined : { cause });
  copy.name = err.name;
  copy.stack = err.stack?.replace(err.message, message);
  for (const [key, value] of Object.entries(fields)) {
    if (!(VALUE_FIELDS as readonly string[]).includes(key) && key !== 'cause') {
      (copy as unknown as Record<string, unknown>)[key] = value;
    }
  }
  return copy;
}

/** Every process's logger: JSON lines; an error logged as `err` never carries the values of a statement. */
export function createLogger(
  name: string,
  level: string = process.env.LOG_LEVEL ?? 'info',
  destination?: DestinationStream,
): Logger {
  const options = {
    name,
    level,
    serializers: { err: (err: unknown) => pino.stdSerializers.err(withoutQueryValues(err) as Error) },
  };
  return destination ? pino(options, destination) : pino(options);
}
export type { Logger };
