import { Client } from 'pg';
import IORedis from 'ioredis';
import fs from 'node:fs';
import path from 'node:path';

export default async function globalTeardown(): Promise<void> {
  await (globalThis as { __sparksDns?: { close(): Promise<void> } }).__sparksDns?.close();
  const pid = Number(process.env.SPARKS_IT_WORKER_PID);
  if (pid) {
    try {
      process.kill(pid, 'SIGTERM');
      const deadline = Date.now() + 12_000;
      while (Date.now() < deadline) {
        process.kill(pid, 0); // throws once it is gone
        await new Promise((r) => setTimeout(r, 100));
      }
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  if (process.env.STORAGE_DIR) fs.rmSync(path.dirname(process.env.STORAGE_DIR), { recursive: true, force: true });
  const prefix = process.env.QUEUE_PREFIX;
  if (prefix && process.env.REDIS_URL) {
    const redis = new IORedis(process.env.REDIS_URL);
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
      cursor = next;
      if (keys.length) await redis.del(...keys);
    } while (cursor !== '0');
    redis.disconnect();
  }
  if (process.env.SPARKS_IT_ADMIN_URL && process.env.SPARKS_IT_DB) {
    const admin = new Client({ connectionString: process.env.SPARKS_IT_ADMIN_URL });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS "${process.env.SPARKS_IT_DB}" WITH (FORCE)`);
    await admin.end();
  }
}
