import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { createLogger, loadConfig } from '@sparks/core';
import { runMigrations } from '@sparks/db';
import { PinoNestLogger } from '@sparks/nest';
import { ConsumersService } from './consumers.service';
import { serveMetrics } from './metrics';
import { WorkerModule } from './worker.module';

async function main(): Promise<void> {
  const config = loadConfig();
  const log = createLogger('worker', config.LOG_LEVEL);
  await runMigrations(config.DATABASE_URL);
  const app = await NestFactory.createApplicationContext(WorkerModule, {
    // Nest's own logs and the services' too: JSON lines (pino), like the api's.
    logger: new PinoNestLogger(log),
  });
  const metrics = serveMetrics(config, log);
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
      .then(() => metrics?.close())
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
  createLogger('worker').fatal({ err }, 'worker failed to start');
  process.exit(1);
});
