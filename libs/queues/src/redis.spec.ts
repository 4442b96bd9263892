import { createServer } from 'node:net';
import { createRedis, logRedisErrors } from './redis';

describe('logRedisErrors', () => {
  it('logs the first error of an outage once, instead of leaving it unhandled', async () => {
    // A port with nothing listening: every connection attempt fails.
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const { port } = probe.address() as { port: number };
    await new Promise<void>((r) => probe.close(() => r()));

    let attempts = 0;
    const redis = createRedis(`redis://127.0.0.1:${port}`, {
      retryStrategy: () => (++attempts < 3 ? 10 : null),
      lazyConnect: true,
    });
    const warnings: string[] = [];
    logRedisErrors(redis, { warn: (m) => warnings.push(m), log: () => undefined });
    expect(redis.listenerCount('error')).toBe(1);
    const ended = new Promise<void>((r) => redis.once('end', () => r()));
    await redis.connect().catch(() => undefined);
    await ended;
    expect(attempts).toBe(3);
    expect(warnings).toEqual([expect.stringMatching(/^Redis: .*ECONNREFUSED/)]);
    redis.disconnect();
  });
});
