import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import pino from 'pino';
import { accessLog, pathOf } from './access-log';

interface Line {
  level: number;
  name: string;
  msg: string;
  req: { id: string; method: string; url: string };
  res: { statusCode: number };
  responseTime: number;
}

/** A server with the api's access log written to memory; `/api/slow` answers after 200 ms, `/api/boom` 500. */
async function logged(level = 'info'): Promise<{ server: Server; base: string; lines: () => Line[] }> {
  let out = '';
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      out += chunk.toString();
      done();
    },
  });
  const log = accessLog(pino({ name: 'api', level }, stream));
  const server = createServer((req, res) => {
    log(req, res, () => {
      if (req.url === '/api/slow') setTimeout(() => res.end('late'), 200);
      else if (req.url === '/api/boom') {
        res.statusCode = 500;
        res.end('no');
      } else res.end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const lines = () =>
    out
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Line);
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, lines };
}

/** Closes the server with the client's kept-alive sockets. */
function stop(server: Server): void {
  server.closeAllConnections();
  server.close();
}

/** Lets the response's 'finish' handlers run after the client has read it. */
const settle = () => new Promise((r) => setTimeout(r, 20));

describe('the access log', () => {
  it("logs a chat send's id, method, path, status and time — never the text that travels in its query", async () => {
    const { server, base, lines } = await logged();
    try {
      const res = await fetch(
        `${base}/api/v1/sparks/s1/tests/chat/t1?input.text=${encodeURIComponent('my secret order #42')}&conversationId=c1`,
        { headers: { authorization: 'Bearer abc.def.ghi' } },
      );
      expect(res.status).toBe(200);
      await res.text();
      await settle();
      const [line] = lines();
      expect(line).toMatchObject({
        level: 30,
        name: 'api',
        msg: 'request completed',
        req: { id: res.headers.get('x-request-id'), method: 'GET', url: '/api/v1/sparks/s1/tests/chat/t1' },
        res: { statusCode: 200 },
      });
      expect(typeof line.responseTime).toBe('number');
      expect(JSON.stringify(lines())).not.toMatch(/secret|input\.text|conversationId|abc\.def/);
    } finally {
      stop(server);
    }
  });

  it("keeps the caller's plain request id and replaces anything else", async () => {
    const { server, base, lines } = await logged();
    try {
      const kept = await fetch(`${base}/api/a`, { headers: { 'x-request-id': 'trace-12345678' } });
      const replaced = await fetch(`${base}/api/b`, { headers: { 'x-request-id': 'bad id\twith spaces' } });
      await Promise.all([kept.text(), replaced.text()]);
      await settle();
      expect(kept.headers.get('x-request-id')).toBe('trace-12345678');
      expect(replaced.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
      expect(lines().map((l) => l.req.id)).toEqual(
        expect.arrayContaining(['trace-12345678', replaced.headers.get('x-request-id')]),
      );
    } finally {
      stop(server);
    }
  });

  it('says a 500 errored and a request the client dropped was aborted, once each', async () => {
    const { server, base, lines } = await logged();
    try {
      await (await fetch(`${base}/api/boom`)).text();
      const gone = new AbortController();
      const slow = fetch(`${base}/api/slow`, { signal: gone.signal }).catch(() => undefined);
      await new Promise((r) => setTimeout(r, 50));
      gone.abort();
      await slow;
      await new Promise((r) => setTimeout(r, 300));
      const byUrl = Object.fromEntries(lines().map((l) => [l.req.url, l.msg]));
      expect(byUrl).toEqual({ '/api/boom': 'request errored', '/api/slow': 'request aborted' });
      expect(lines()).toHaveLength(2);
    } finally {
      stop(server);
    }
  });

  it('logs only API requests — not the health probes, the files or /metrics — and nothing above info', async () => {
    const { server, base, lines } = await logged();
    try {
      await (await fetch(`${base}/api/v1/health/live?x=1`)).text();
      await (await fetch(`${base}/api/v1/health`)).text();
      const file = await fetch(`${base}/assets/index.js`);
      await file.text();
      await (await fetch(`${base}/metrics`)).text();
      expect(file.headers.get('x-request-id')).toBeTruthy();
      await settle();
      expect(lines()).toEqual([]);
      await (await fetch(`${base}/api/v1/sparks`)).text();
      await settle();
      expect(lines()).toHaveLength(1);
    } finally {
      stop(server);
    }
    const quiet = await logged('warn');
    try {
      const res = await fetch(`${quiet.base}/api/v1/sparks`);
      await res.text();
      await settle();
      expect(res.headers.get('x-request-id')).toBeTruthy();
      expect(quiet.lines()).toEqual([]);
    } finally {
      stop(quiet.server);
    }
  });

  it('cuts a URL at its query', () => {
    expect(pathOf('/a/b?c=d?e')).toBe('/a/b');
    expect(pathOf('/a')).toBe('/a');
    expect(pathOf(undefined)).toBe('');
  });
});
