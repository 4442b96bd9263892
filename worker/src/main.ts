import 'reflect-metadata';
import type { LogLevel } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { createLogger, loadConfig } from '@sparks/core';
import { runMigrations } from '@sparks/db';
import { ConsumersService } from './consumers.service';
import { WorkerModule } from './worker.module';

const NEST_LEVELS: LogLevel[] = ['fatal', 'error', 'warn', 'log', 'debug', 'verbose'];
const PINO_TO_NEST: Record<string, LogLevel> = {
  fatal: 'fatal',
  error: 'error',
  warn: 'warn',
  info: 'log',
  debug: 'debug',
  trace: 'verbose',
};

/** The same LOG_LEVEL setting for Nest's own logger as for pino. */
function nestLogLevels(level: string): LogLevel[] | false {
  const nest = PINO_TO_NEST[level];
  return nest ? NEST_LEVELS.slice(0, NEST_LEVELS.indexOf(nest) + 1) : false;
}

async function main(): Promise<void> {
  const config = loadConfig();
  const log = createLogger('worker', config.LOG_LEVEL);
  await runMigrations(config.DATABASE_URL);
  const app = await NestFactory.createApplicationContext(WorkerModule, {
    logger: nestLogLevels(config.LOG_LEVEL),
  });
  log.info({ concurrency: config.WORKER_CONCURRENCY, prefix: config.QUEUE_PREFIX }, 'worker ready');

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'worker stopping: finishing jobs in flight');
    setTimeout(() => {
      log.warn('worker shutdown deadline reached; exiting');
      process.exit(1);
    }, config.SHUTDOWN_TIMEOUT_MS).unref();
    app
      .get(ConsumersService)
      .drain()
      .then(() => app.close())
      .then(
        () => process.exit(0),
        (err: unknown) => {
          log.error({ err }, 'worker shutdown failed');
          process.exit(1);
        },
      );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? (err.stack ?? err.message) : err);
  process.exit(1);
});
