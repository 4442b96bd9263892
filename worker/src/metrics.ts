import type { AppConfig, Logger } from '@sparks/core';
import type { Job, Worker } from 'bullmq';
import http from 'node:http';
import { timingSafeEqual } from 'node:crypto';
import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';

/** The worker's Prometheus metrics, served on WORKER_METRICS_PORT (each worker process its own). */
const registry = new Registry();
collectDefaultMetrics({ register: registry, prefix: 'sparks_worker_' });

const SECONDS = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600];

const jobDuration = new Histogram({
  name: 'sparks_job_duration_seconds',
  help: 'Time a job ran (from taken to finished), by queue, job name and outcome',
  labelNames: ['queue', 'job', 'outcome'] as const,
  buckets: SECONDS,
  registers: [registry],
});

const jobWait = new Histogram({
  name: 'sparks_job_wait_seconds',
  help: 'Time a job waited in its queue before a worker took it (after any delay), by queue and job name',
  labelNames: ['queue', 'job'] as const,
  buckets: SECONDS,
  registers: [registry],
});

export const ingestionPages = new Counter({
  name: 'sparks_ingestion_pages_total',
  help: 'PDF pages read by ingestion (documents that were read to the end)',
  registers: [registry],
});

export const usageEvents = new Counter({
  name: 'sparks_usage_events_total',
  help: 'Usage events recorded (billable interactions: a test chat or website widget answer), by where they were counted: plan, credits or overage. Redeliveries of a recorded message are not counted',
  labelNames: ['source'] as const,
  registers: [registry],
});

function observe(queue: string, job: Job | undefined, outcome: 'completed' | 'failed'): void {
  if (!job?.processedOn) return;
  const finished = job.finishedOn ?? Date.now();
  jobDuration.observe({ queue, job: job.name, outcome }, Math.max(0, finished - job.processedOn) / 1000);
  // Every attempt is one wait; a retry waits from its backoff's end, which BullMQ does not keep: only first attempts.
  if (job.attemptsMade <= 1) {
    const ready = job.timestamp + (job.opts.delay ?? 0);
    jobWait.observe({ queue, job: job.name }, Math.max(0, job.processedOn - ready) / 1000);
  }
}

/** Times every job of these workers. */
export function timeJobs(workers: Worker[]): void {
  for (const w of workers) {
    w.on('completed', (job) => observe(w.name, job, 'completed'));
    w.on('failed', (job) => observe(w.name, job, 'failed'));
  }
}

/**
 * GET /metrics on WORKER_METRICS_PORT; with METRICS_TOKEN set, only with `Authorization: Bearer
 * <token>`. Nothing else is served there.
 */
export function serveMetrics(config: AppConfig, log: Logger): http.Server | undefined {
  if (!config.WORKER_METRICS_PORT) return undefined;
  const token = config.METRICS_TOKEN;
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404).end();
      return;
    }
    if (token) {
      const given = Buffer.from(/^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1] ?? '');
      const expected = Buffer.from(token);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
        res.writeHead(401, { 'WWW-Authenticate': 'Bearer' }).end();
        return;
      }
    }
    registry.metrics().then(
      (text) => res.writeHead(200, { 'Content-Type': registry.contentType, 'Cache-Control': 'no-store' }).end(text),
      () => res.writeHead(500).end(),
    );
  });
  server.listen(config.WORKER_METRICS_PORT, config.HOST, () =>
    log.info({ port: config.WORKER_METRICS_PORT }, 'worker metrics listening'),
  );
  return server;
}
