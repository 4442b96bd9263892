import { Client } from 'pg';
import IORedis from 'ioredis';
import fs from 'node:fs';
import path from 'node:path';
import { formatScoreboard, readScoreboard } from '../security/scoreboard';
import { contractsReport } from './support/contract-check';
import type { Slot } from './paths';

async function stopWorker(pid: number): Promise<void> {
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

async function removeSlot(slot: Partial<Slot>): Promise<void> {
  if (slot.STORAGE_DIR) fs.rmSync(path.dirname(slot.STORAGE_DIR), { recursive: true, force: true });
  const prefix = slot.QUEUE_PREFIX;
  if (prefix && slot.REDIS_URL) {
    const redis = new IORedis(slot.REDIS_URL);
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
      cursor = next;
      if (keys.length) await redis.del(...keys);
    } while (cursor !== '0');
    redis.disconnect();
  }
  if (slot.SPARKS_IT_ADMIN_URL && slot.SPARKS_IT_DB) {
    const admin = new Client({ connectionString: slot.SPARKS_IT_ADMIN_URL });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS "${slot.SPARKS_IT_DB}" WITH (FORCE)`);
    await admin.end();
  }
}

/**
 * Stops what global-setup.ts started (every slot's worker, database, queue keys and files) and prints the
 * security scoreboard when security cases ran. Safe to run twice (integration and security in one run).
 */
export default async function globalTeardown(): Promise<void> {
  const contracts = contractsReport();
  if (contracts) process.stdout.write(`\n${contracts.text}\n`);
  const results = readScoreboard();
  if (results.length > 0) process.stdout.write(`\nSecurity scoreboard\n${formatScoreboard(results)}\n\n`);
  const holder = globalThis as { __sparksDns?: { close(): Promise<void> } };
  const dns = holder.__sparksDns;
  holder.__sparksDns = undefined;
  await dns?.close();
  const slots = JSON.parse(process.env.SPARKS_IT_SLOTS ?? 'null') as Partial<Slot>[] | null;
  const all: Partial<Slot>[] = slots ?? [process.env];
  await Promise.all(all.map((slot) => stopWorker(Number(slot.SPARKS_IT_WORKER_PID))));
  for (const slot of all) await removeSlot(slot);
  process.env.SPARKS_IT_SLOTS = '[]';
  if (contracts && contracts.unchecked.length > 0 && process.env.CONTRACTS_ALL === '1') {
    throw new Error(`${contracts.unchecked.length} documented answers were not received by any test (listed above)`);
  }
}
