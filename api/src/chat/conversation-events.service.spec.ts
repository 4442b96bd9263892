import { createServer, type Server, type Socket } from 'node:net';
import type { AppConfig } from '@sparks/core';
import { createFailFastRedis, logRedisErrors } from '@sparks/queues';
import { ConversationEventsService } from './conversation-events.service';

/** A "Redis" that accepts connections and never answers: a frozen server (SIGSTOP). */
async function frozenRedis(): Promise<{ url: string; close: () => Promise<void> }> {
  const sockets: Socket[] = [];
  const server: Server = createServer((socket) => sockets.push(socket));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  return {
    url: `redis://127.0.0.1:${port}`,
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise<void>((r) => server.close(() => r()));
    },
  };
}

describe('ConversationEventsService', () => {
  it('handles the errors of its subscriber connection when Redis is frozen (none left unhandled)', async () => {
    const redis = await frozenRedis();
    const errors = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const client = createFailFastRedis(redis.url, 100);
    logRedisErrors(client, { warn: () => undefined, log: () => undefined });
    const events = new ConversationEventsService(client, { QUEUE_PREFIX: 'spec' } as AppConfig);
    try {
      // The subscription times out, and the ready check of both connections fails.
      await expect(events.listen('c1', () => undefined)).rejects.toThrow();
      await new Promise((r) => setTimeout(r, 400));
      const unhandled = errors.mock.calls.filter((args) => String(args[0]).includes('Unhandled error event'));
      expect(unhandled).toEqual([]);
    } finally {
      events.onApplicationShutdown();
      client.disconnect();
      errors.mockRestore();
      await redis.close();
    }
  });
});
