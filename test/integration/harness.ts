import type { INestApplication } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import request from 'supertest';
import { createApp } from '../../api/src/app.factory';
import { ContractCheck } from './support/contract-check';

export interface TestApp {
  app: INestApplication;
  http: () => ReturnType<typeof request>;
  /** Listens on a real port (for event streams read with fetch) and answers its base URL. */
  url(): Promise<string>;
  close(): Promise<void>;
}

/** The real api (same factory as production) on an ephemeral port, against the run's services. */
export async function startApp(overrides: Record<string, string> = {}): Promise<TestApp> {
  // Each app counts its own rate limits, so tests that share 127.0.0.1 do not throttle each other.
  const env = { RATE_LIMIT_NAMESPACE: `rl-${randomUUID()}`, ...overrides };
  const saved: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(env)) {
    saved[k] = process.env[k];
    process.env[k] = v;
  }
  try {
    const app = await createApp();
    await app.init();
    const server = app.getHttpServer() as Parameters<typeof request>[0] & Server;
    const contracts = new ContractCheck();
    contracts.attach(server);
    let base: string | undefined;
    const url = async () => {
      if (!base) {
        await app.listen(0, '127.0.0.1');
        base = (await app.getUrl()).replace('[::1]', '127.0.0.1');
      }
      return base;
    };
    const close = async () => {
      await app.close();
      contracts.finish(); // every answer this app gave in the file's tests, against the OpenAPI document
    };
    return { app, http: () => request(server), url, close };
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

export async function eventually<T>(fn: () => Promise<T | undefined | null | false>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await fn();
      if (value) return value;
    } catch (err) {
      last = err;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`condition not met within ${timeoutMs} ms${last instanceof Error ? `: ${last.message}` : ''}`);
}

let counter = 0;
export function uniqueEmail(tag = 'user'): string {
  counter += 1;
  return `${tag}.${process.pid}.${Date.now()}.${counter}@example.com`;
}

export interface OutboxMail {
  to: string;
  subject: string;
  text: string;
  createdAt: string;
}

/** Waits for the newest dev-outbox mail to `to` that matches. */
export async function waitForMail(
  t: TestApp,
  to: string,
  match: (m: OutboxMail) => boolean = () => true,
): Promise<OutboxMail> {
  return eventually(async () => {
    const res = await t.http().get('/api/v1/dev/outbox').query({ to });
    return (res.body.data as OutboxMail[] | undefined)?.find(match);
  });
}

export const codeIn = (mail: OutboxMail) => /\b(\d{6})\b/.exec(mail.text)![1];

export const PASSWORD = 'Sup3r-secret!';

export interface SignedUser {
  username: string;
  password: string;
  access: string;
  refresh: string;
  auth: () => [string, string];
}

/** Registers, reads the code from the outbox, verifies: a signed-in user of its own. */
export async function createUser(
  t: TestApp,
  opts: { language?: 'es' | 'en'; tag?: string; username?: string } = {},
): Promise<SignedUser> {
  const username = opts.username ?? uniqueEmail(opts.tag ?? 'user');
  await t
    .http()
    .post('/api/v1/auth/register')
    .send({ username, email: username, password: PASSWORD, config: { language: opts.language ?? 'en' } })
    .expect(201);
  const code = codeIn(await waitForMail(t, username));
  const res = await t.http().post('/api/v1/auth/verify-code').send({ username, code, password: PASSWORD }).expect(200);
  const { access_token, refresh_Token } = res.body.data as { access_token: string; refresh_Token: string };
  return {
    username,
    password: PASSWORD,
    access: access_token,
    refresh: refresh_Token,
    auth: () => ['Authorization', `Bearer ${access_token}`],
  };
}
