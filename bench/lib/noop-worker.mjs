// The reference of bench/usage.mjs: a bare BullMQ worker in a process of its own, with a processor
// that does nothing, on queue `argv[2]` under prefix `argv[3]` at concurrency `argv[4]`.
import { REDIS_URL, rootRequire } from './common.mjs';

const [queue, prefix, concurrency] = process.argv.slice(2);
const { Worker } = rootRequire('bullmq');
const Redis = rootRequire('ioredis');
const connection = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
const worker = new Worker(queue, async () => undefined, { connection, prefix, concurrency: Number(concurrency) });
worker.on('error', (err) => process.stderr.write(`noop worker: ${err.message}\n`));
const stop = async () => {
  await worker.close();
  connection.disconnect();
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
