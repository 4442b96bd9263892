import { createServer, type Socket } from 'node:net';
import { JobProducer } from './producer';
import { createRedis } from './redis';

const INFO = '# Server\r\nredis_version:7.0.15\r\nloading:0\r\n';

/** Splits complete RESP command arrays off the front of `buf`; returns their names and the rest. */
function takeCommands(buf: string): { names: string[]; rest: string } {
  const names: string[] = [];
  for (;;) {
    const m = /^\*(\d+)\r\n/.exec(buf);
    if (!m) return { names, rest: buf };
    let at = m[0].length;
    const args: string[] = [];
    for (let i = 0; i < Number(m[1]); i++) {
      const head = /^\$(\d+)\r\n/.exec(buf.slice(at));
      if (!head || buf.length < at + head[0].length + Number(head[1]) + 2) return { names, rest: buf };
      at += head[0].length;
      args.push(buf.slice(at, at + Number(head[1])));
      at += Number(head[1]) + 2;
    }
    names.push(args[0].toUpperCase());
    buf = buf.slice(at);
  }
}

/**
 * A Redis peer that answers what a client sends on connecting (CLIENT SETINFO, the ready check's
 * INFO) and never answers a second INFO, so BullMQ's own version check stays in flight.
 */
async function stallingRedis(): Promise<{ url: string; close: () => Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = createServer((s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    let pending = '';
    let infos = 0;
    s.on('data', (chunk) => {
      const { names, rest } = takeCommands(pending + chunk.toString('latin1'));
      pending = rest;
      for (const name of names) {
        if (name !== 'INFO') s.write('+OK\r\n');
        else if (++infos === 1) s.write(`$${Buffer.byteLength(INFO)}\r\n${INFO}\r\n`);
      }
    });
  });
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

describe('JobProducer', () => {
  it('closes, and lets its client close, while its queues are still checking the Redis version', async () => {
    // Before ClosableConnection, closing the client here rejected the version checks after the
    // queues had dropped their listeners, and Node threw "Unhandled error. (Connection is
    // closed.)" — jest fails the test on that.
    const peer = await stallingRedis();
    const redis = createRedis(peer.url, { maxRetriesPerRequest: 3 }); // as the api's client
    try {
      const producer = new JobProducer(redis, 'spec');
      await new Promise((r) => setTimeout(r, 100));
      await producer.close();
      redis.disconnect(); // rejects the version checks still in flight
      await new Promise((r) => setTimeout(r, 100));
      expect(redis.status).toBe('end');
    } finally {
      redis.disconnect();
      await peer.close();
    }
  });

  it('reports a Redis outage to its error callback instead of throwing it', async () => {
    const peer = await stallingRedis();
    const redis = createRedis(peer.url, { retryStrategy: () => null });
    redis.on('error', () => undefined);
    const errors: string[] = [];
    let reported!: () => void;
    const closedReported = new Promise<void>((r) => (reported = r));
    const producer = new JobProducer(redis, 'spec', (queue, err) => {
      errors.push(`${queue}: ${err.message}`);
      if (queue === 'email' && /Connection is closed/.test(err.message)) reported();
    });
    try {
      await new Promise((r) => setTimeout(r, 100));
      await peer.close(); // the server drops every connection
      await closedReported; // the callback's call, however long it takes (jest's timeout otherwise)
      expect(errors).toEqual(expect.arrayContaining([expect.stringMatching(/^email: .*Connection is closed/)]));
    } finally {
      await producer.close();
      redis.disconnect();
    }
  });
});
