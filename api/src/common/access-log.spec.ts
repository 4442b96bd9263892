import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import pinoHttp from 'pino-http';
import { accessLogOptions, pathOf } from './access-log';

/** A server with the api's access log written to memory. */
async function logged(): Promise<{ server: Server; base: string; lines: () => string }> {
  let out = '';
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      out += chunk.toString();
      done();
    },
  });
  const log = pinoHttp(accessLogOptions('info'), stream);
  const server = createServer((req, res) => {
    log(req, res);
    req.log.info('handling');
    res.end('ok');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, lines: () => out };
}

describe('the access log', () => {
  it("logs a chat send's path, never the text that travels in its query", async () => {
    const { server, base, lines } = await logged();
    try {
      const res = await fetch(
        `${base}/api/v1/sparks/s1/tests/chat/t1?input.text=${encodeURIComponent('my secret order #42')}&conversationId=c1`,
        { headers: { authorization: 'Bearer abc.def.ghi' } },
      );
      expect(res.status).toBe(200);
      await res.text();
      const log = lines();
      expect(log).toContain('"url":"/api/v1/sparks/s1/tests/chat/t1"');
      expect(log).toContain('"statusCode":200');
      expect(log).not.toMatch(/secret|input\.text|conversationId|abc\.def/);
    } finally {
      server.close();
    }
  });

  it('does not log the health probes', async () => {
    const { server, base, lines } = await logged();
    try {
      await (await fetch(`${base}/api/v1/health/live?x=1`)).text();
      expect(lines()).not.toContain('request completed');
      await (await fetch(`${base}/api/v1/sparks`)).text();
      expect(lines()).toContain('request completed');
    } finally {
      server.close();
    }
  });

  it('cuts a URL at its query', () => {
    expect(pathOf('/a/b?c=d?e')).toBe('/a/b');
    expect(pathOf('/a')).toBe('/a');
    expect(pathOf(undefined)).toBe('');
  });
});
