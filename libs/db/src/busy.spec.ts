import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { Pool } from 'pg';
import { isDatabaseBusy, isSqlState } from './busy';

/** A server that accepts connections and never answers: a PostgreSQL too busy to take one more. */
async function silentServer(): Promise<{ server: Server; port: number; sockets: Socket[] }> {
  const sockets: Socket[] = [];
  const server = createServer((s) => sockets.push(s));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, port: (server.address() as AddressInfo).port, sockets };
}

describe('isDatabaseBusy', () => {
  let silent: Awaited<ReturnType<typeof silentServer>>;
  beforeAll(async () => {
    silent = await silentServer();
  });
  afterAll(async () => {
    silent.sockets.forEach((s) => s.destroy());
    await new Promise((r) => silent.server.close(r));
  });

  const pool = (max: number) =>
    new Pool({ host: '127.0.0.1', port: silent.port, user: 'x', database: 'x', max, connectionTimeoutMillis: 150 });

  it('knows pg-pool giving up on a server that does not answer', async () => {
    const p = pool(1);
    p.on('error', () => undefined);
    const err = await p.query('SELECT 1').catch((e: unknown) => e);
    expect(isDatabaseBusy(err)).toBe(true);
    await p.end().catch(() => undefined);
  });

  it('knows pg-pool giving up while every connection is taken, also wrapped as Drizzle wraps query errors', async () => {
    const p = pool(1);
    p.on('error', () => undefined);
    const first = p.connect().catch(() => undefined); // takes the only slot while it waits for the server
    const err = await p.query('SELECT 1').catch((e: unknown) => e);
    expect(isDatabaseBusy(err)).toBe(true);
    expect(isDatabaseBusy(new Error('Failed query: select 1', { cause: err }))).toBe(true);
    await first;
    await p.end().catch(() => undefined);
  });

  it('leaves every other error to be a bug', () => {
    expect(isDatabaseBusy(new Error('relation "x" does not exist'))).toBe(false);
    expect(isDatabaseBusy('timeout exceeded when trying to connect')).toBe(false);
    expect(isDatabaseBusy(undefined)).toBe(false);
  });
});

describe('isSqlState', () => {
  it("finds pg's SQLSTATE on the error or one it wraps (Drizzle's query errors), and nothing else", () => {
    const pg = Object.assign(new Error('time zone "Mars/Base" not recognized'), { code: '22023' });
    expect(isSqlState(pg, '22023')).toBe(true);
    expect(isSqlState(new Error('Failed query: SELECT …', { cause: pg }), '22023')).toBe(true);
    expect(isSqlState(pg, '23505')).toBe(false);
    expect(isSqlState(new Error('no code'), '22023')).toBe(false);
    expect(isSqlState(undefined, '22023')).toBe(false);
  });
});
