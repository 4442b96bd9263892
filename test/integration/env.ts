import type { Slot } from './paths';

// Each test file sees the run's database, Redis and queue prefix through process.env, set by
// global-setup.ts: the slot of its jest worker (one database, queue prefix, file store and worker
// process each), so files running side by side on two workers never share data.
if (!process.env.DATABASE_URL || !process.env.SPARKS_IT_DB) {
  throw new Error('Integration tests run through jest --selectProjects integration (global setup missing).');
}
const slots = JSON.parse(process.env.SPARKS_IT_SLOTS ?? '[]') as Slot[];
if (slots.length > 0) {
  const worker = Math.max(1, Number(process.env.JEST_WORKER_ID ?? 1));
  Object.assign(process.env, slots[(worker - 1) % slots.length]);
}
jest.setTimeout(60_000);
