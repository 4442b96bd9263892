import type { AppConfig } from '@sparks/core';
import { QUEUE_NAMES, type JobProducer } from '@sparks/queues';
import type { NextFunction, Request, Response } from 'express';
import { timingSafeEqual } from 'node:crypto';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * The api's Prometheus metrics (one registry per process). Queue depth comes from BullMQ's own
 * export at scrape time; job durations, wait times and ingestion pages are the worker's (its own
 * /metrics on WORKER_METRICS_PORT).
 */
const registry = new Registry();
collectDefaultMetrics({ register: registry, prefix: 'sparks_api_' });

const httpRequests = new Counter({
  name: 'sparks_http_requests_total',
  help: 'HTTP requests answered, by method, route (the pattern, not the path) and status',
  labelNames: ['method', 'route', 'status'] as const,
  registers: [registry],
});

const httpDuration = new Histogram({
  name: 'sparks_http_request_duration_seconds',
  help: 'Time to answer an HTTP request (event streams: until they end), by method, route and status',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300],
  registers: [registry],
});

export const openEventStreams = new Gauge({
  name: 'sparks_sse_open_streams',
  help: 'Chat event streams open now',
  registers: [registry],
});

export const failedLogins = new Counter({
  name: 'sparks_failed_logins_total',
  help: 'Sign-ins refused for a wrong e-mail or password',
  registers: [registry],
});

/** The route pattern of a request, so that ids do not make a label per request. */
function routeOf(req: Request): string {
  const pattern = (req.route as { path?: string } | undefined)?.path;
  if (typeof pattern === 'string') return `${req.baseUrl}${pattern}`;
  if (req.originalUrl.startsWith('/admin/queues')) return '/admin/queues/*';
  if (req.originalUrl.startsWith('/api/')) return 'unmatched';
  return 'static';
}

/** Counts and times every request once it is answered (or its client left). */
export function httpMetrics() {
  return (req: Request, res: Response, next: NextFunction): void => {
    const end = httpDuration.startTimer();
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      const labels = { method: req.method, route: routeOf(req), status: String(res.statusCode) };
      httpRequests.inc(labels);
      end(labels);
    };
    res.on('finish', finish);
    res.on('close', finish);
    next();
  };
}

/** BullMQ exports each queue on its own, each with the family's HELP and TYPE: keep them once. */
function mergeFamilies(exports: string[]): string {
  const seen = new Set<string>();
  const lines: string[] = [];
  for (const line of exports.join('\n').split('\n')) {
    if (line.trim() === '') continue;
    if (line.startsWith('#')) {
      if (seen.has(line)) continue;
      seen.add(line);
    }
    lines.push(line);
  }
  return lines.join('\n');
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * GET /metrics: only with `Authorization: Bearer <METRICS_TOKEN>`; without METRICS_TOKEN it does
 * not exist (404), so a deployment that did not choose a token exposes nothing.
 */
export function metricsEndpoint(config: AppConfig, producer: JobProducer) {
  const answer = async (res: Response, next: NextFunction): Promise<void> => {
    try {
      const queues = await Promise.all(QUEUE_NAMES.map((name) => producer.queue(name).exportPrometheusMetrics()));
      res.setHeader('Content-Type', registry.contentType);
      res.setHeader('Cache-Control', 'no-store');
      res.end(`${await registry.metrics()}\n${mergeFamilies(queues)}\n`);
    } catch (err) {
      next(err);
    }
  };
  // Not async itself: every other request passes straight on, without a promise made for it.
  return (req: Request, res: Response, next: NextFunction): void => {
    if (req.path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) return next();
    if (!config.METRICS_TOKEN) return next();
    const given = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1] ?? '';
    if (!sameSecret(given, config.METRICS_TOKEN)) {
      res.status(401).setHeader('WWW-Authenticate', 'Bearer').end();
      return;
    }
    void answer(res, next);
  };
}
