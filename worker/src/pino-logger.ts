import type { LoggerService } from '@nestjs/common';
import type { Logger } from '@sparks/core';

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';

/**
 * Nest's logger written as pino JSON lines, like the api's: what the worker's services log through
 * `new Logger(Context)` goes out with `context`, and an error's stack with `stack`. The level is
 * pino's (LOG_LEVEL).
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
    const rest = [...params];
    // Nest passes the context last, and for errors a stack before it.
    const context = rest.length > 0 && typeof rest[rest.length - 1] === 'string' ? rest.pop() : undefined;
    const stack = level === 'error' && typeof rest[rest.length - 1] === 'string' ? rest.pop() : undefined;
    const fields: Record<string, unknown> = { ...(context ? { context } : {}), ...(stack ? { stack } : {}) };
    if (message instanceof Error) this.pino[level]({ ...fields, err: message }, message.message);
    else if (message && typeof message === 'object') this.pino[level]({ ...fields, ...message });
    else this.pino[level](fields, String(message));
  }
}
