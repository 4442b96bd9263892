import 'reflect-metadata';
import type { Server } from 'node:http';
import { createLogger, loadConfig } from '@sparks/core';
import { runMigrations } from '@sparks/db';
import { createApp } from './app.factory';
import { endEventStreams } from './chat/chat.transport';

async function main(): Promise<void> {
  const config = loadConfig();
  const log = createLogger('api', config.LOG_LEVEL);
  await runMigrations(config.DATABASE_URL);
  const app = await createApp();
  const http: Server = app.getHttpServer();
  http.keepAliveTimeout = config.HTTP_KEEP_ALIVE_TIMEOUT_MS;
  // Node requires the headers timeout to exceed the keep-alive timeout, or it cuts kept sockets first.
  http.headersTimeout = config.HTTP_KEEP_ALIVE_TIMEOUT_MS + 1000;
  await app.listen(config.PORT, config.HOST);
  log.info({ port: config.PORT, url: config.APP_URL, devOutbox: config.DEV_OUTBOX }, 'api listening');

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    // Open event streams end now, so their clients read the reply from another replica (the worker still stores it).
    log.info({ signal, eventStreamsEnded: endEventStreams() }, 'api stopping');
    // Whatever still hangs (an open event stream, a stuck socket) must not keep us past the deadline.
    setTimeout(() => {
      log.warn('api shutdown deadline reached; exiting');
      process.exit(1);
    }, config.SHUTDOWN_TIMEOUT_MS).unref();
    const server = app.getHttpServer();
    setTimeout(() => server.closeAllConnections(), Math.min(3000, config.SHUTDOWN_TIMEOUT_MS / 2)).unref();
    app.close().then(
      () => process.exit(0),
      (err: unknown) => {
        log.error({ err }, 'api shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
