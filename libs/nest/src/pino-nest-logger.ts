import type { LoggerService } from '@nestjs/common';
import type { Logger } from '@sparks/core';

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';

/**
 * Nest's logger written as pino JSON lines, in the api and the worker alike: what a service logs
 * through `new Logger(Context)` goes out with `context`. The level is pino's (LOG_LEVEL).
 *
 * Nest calls `log(message, ...params, context)`: the context is the last parameter. A message that
 * is an object is merged into the line and the parameter after it, if any, is the text
 * (`logger.error({ err, correlationId }, 'Unhandled error')`); an Error becomes `err`; Nest's own
 * `error(text, stack, context)` keeps the stack as `stack`.
 *
 * Lines are not tied to the request being served by an AsyncLocalStorage (docs/decisions.md, "The
 * access log"): a line about a request carries its id itself (`correlationId`).
 */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly pino: Logger) {}

  fatal(message: unknown, ...params: unknown[]): void {
    this.write('fatal', message, params);
  }
  error(message: unknown, ...params: unknown[]): void {
    this.write('error', message, params);
  }
  warn(message: unknown, ...params: unknown[]): void {
    this.write('warn', message, params);
  }
  log(message: unknown, ...params: unknown[]): void {
    this.write('info', message, params);
  }
  debug(message: unknown, ...params: unknown[]): void {
    this.write('debug', message, params);
  }
  verbose(message: unknown, ...params: unknown[]): void {
    this.write('trace', message, params);
  }

  private write(level: Level, message: unknown, params: unknown[]): void {
    if (!this.pino.isLevelEnabled(level)) return;
    const rest = [...params];
    const context = rest.length > 0 && typeof rest[rest.length - 1] === 'string' ? rest.pop() : undefined;
    const fields: Record<string, unknown> = context ? { context } : {};
    const text = typeof rest[0] === 'string' ? rest[0] : undefined;
    if (message instanceof Error) {
      this.pino[level]({ ...fields, err: message }, text ?? message.message);
    } else if (message && typeof message === 'object') {
      this.pino[level]({ ...fields, ...message }, text);
    } else if (level === 'error' && text !== undefined) {
      this.pino[level]({ ...fields, stack: text }, String(message));
    } else {
      this.pino[level](fields, String(message));
    }
  }
}
