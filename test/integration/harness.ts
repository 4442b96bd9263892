import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { createApp } from '../../api/src/app.factory';

export interface TestApp {
  app: INestApplication;
  http: () => ReturnType<typeof request>;
  close(): Promise<void>;
}

/** The real api (same factory as production) on an ephemeral port, against the run's services. */
export async function startApp(env: Record<string, string> = {}): Promise<TestApp> {
  const saved: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(env)) {
    saved[k] = process.env[k];
    process.env[k] = v;
  }
  try {
    const app = await createApp();
    await app.init();
    const server = app.getHttpServer() as Parameters<typeof request>[0];
    return { app, http: () => request(server), close: () => app.close() };
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
