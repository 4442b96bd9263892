import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { GUIA_PAGES, makePdf } from './fixtures/pdfs';
import { createUser, eventually, startApp, type TestApp } from './harness';
import { createSpark, createTest } from './factories';

const TOKEN = 'metrics-token-0123456789';

/** The value of a sample (`name{labels} value`) whose line matches, summed over every match. */
function sum(text: string, name: string, labels: RegExp = /.*/): number {
  let total = 0;
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][\w:]*)(\{[^}]*\})?\s+(\S+)/.exec(line);
    if (m && m[1] === name && labels.test(m[2] ?? '')) total += Number(m[3]);
  }
  return total;
}

describe('/metrics (Prometheus)', () => {
  let t: TestApp;
  let base: string;
  beforeAll(async () => {
    t = await startApp({ METRICS_TOKEN: TOKEN });
    base = await t.url();
  });
  afterAll(() => t.close());

  const scrape = async () => {
    const res = await fetch(`${base}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    return res.text();
  };

  it('is refused without the token, and absent when no token is configured', async () => {
    expect((await fetch(`${base}/metrics`)).status).toBe(401);
    expect((await fetch(`${base}/metrics`, { headers: { Authorization: 'Bearer wrong' } })).status).toBe(401);
    const off = await startApp();
    try {
      expect((await fetch(`${await off.url()}/metrics`)).status).toBe(404);
    } finally {
      await off.close();
    }
  });

  it('holds every family with real values after a chat and an upload', async () => {
    const user = await createUser(t);
    await t
      .http()
      .post('/api/v1/auth/login')
      .send({ username: user.username, password: 'Wrong-password1!' })
      .expect(400);

    const sparkId = (await createSpark(t, user))._id;
    const pdf = await makePdf(GUIA_PAGES);
    const up = await t
      .http()
      .post('/api/v1/bucket')
      .set(...user.auth())
      .field('sparkId', sparkId)
      .attach('file', pdf, { filename: 'guia.pdf', contentType: 'application/pdf' })
      .expect(201);
    await eventually(async () => {
      const res = await t
        .http()
        .get(`/api/v1/sparks/${sparkId}/documents/${up.body.data._id}`)
        .set(...user.auth());
      return res.body.data?.status === 'completed';
    }, 30_000);

    // A metered chat: a question in a test chat of the Spark, as an event stream. Its reply job waits in the
    // paused queue, so the stream is surely open while /metrics is read; then the worker answers it.
    const testId = (await createTest(t, user, sparkId))._id;
    const redis = new Redis(process.env.REDIS_URL!, { maxRetriesPerRequest: null });
    const replies = new Queue('assistant-reply', { connection: redis, prefix: process.env.QUEUE_PREFIX });
    try {
      await replies.pause();
      const chat = await fetch(
        `${base}/api/v1/sparks/${sparkId}/chat/${testId}?input.text=${encodeURIComponent('¿En qué año abrió la panadería?')}`,
        { headers: { Authorization: `Bearer ${user.access}` } },
      );
      expect(chat.status).toBe(200);
      const reader = chat.body!.getReader();
      await reader.read(); // the history line: the stream is open
      expect(await scrape()).toMatch(/^sparks_sse_open_streams 1$/m);
      await replies.resume();
      let body = '';
      for (let r = await reader.read(); !r.done; r = await reader.read()) body += new TextDecoder().decode(r.value);
      expect(body).toMatch(/"type":"done"/);
    } finally {
      await replies.resume();
      await replies.close();
      redis.disconnect();
    }

    const text = await scrape();
    expect(
      sum(text, 'sparks_http_requests_total', /route="\/api\/v1\/auth\/login",status="400"/),
    ).toBeGreaterThanOrEqual(1);
    expect(sum(text, 'sparks_http_requests_total', /route="\/api\/v1\/bucket",status="201"/)).toBeGreaterThanOrEqual(1);
    expect(
      sum(text, 'sparks_http_request_duration_seconds_count', /route="\/api\/v1\/sparks\/:sparkId\/chat\/:testId"/),
    ).toBeGreaterThanOrEqual(1);
    expect(sum(text, 'sparks_failed_logins_total')).toBeGreaterThanOrEqual(1);
    expect(sum(text, 'sparks_sse_open_streams')).toBe(0);
    // BullMQ's own export: every queue by state, the usage queue included.
    for (const queue of ['ingestion', 'assistant-reply', 'usage', 'email']) {
      expect(text).toMatch(new RegExp(`^bullmq_job_count\\{queue="${queue}", state="completed"\\} \\d+`, 'm'));
    }
    expect(sum(text, 'bullmq_job_count', /queue="ingestion", state="completed"/)).toBeGreaterThanOrEqual(1);
    expect(text.match(/^# TYPE bullmq_job_count/gm)).toHaveLength(1);

    // The worker's own: job durations and waits by job name, pages read.
    const worker = await (await fetch(process.env.SPARKS_IT_WORKER_METRICS_URL!)).text();
    for (const job of ['document.ingest', 'reply.generate', 'email.send']) {
      expect(
        sum(worker, 'sparks_job_duration_seconds_count', new RegExp(`job="${job}",outcome="completed"`)),
      ).toBeGreaterThanOrEqual(1);
      expect(sum(worker, 'sparks_job_wait_seconds_count', new RegExp(`job="${job}"`))).toBeGreaterThanOrEqual(1);
    }
    expect(sum(worker, 'sparks_ingestion_pages_total')).toBeGreaterThanOrEqual(GUIA_PAGES.length);
    // The test chat's answer was one interaction: recorded by usage.record (after the reply, so waited for).
    await eventually(async () => {
      const now = await (await fetch(process.env.SPARKS_IT_WORKER_METRICS_URL!)).text();
      return sum(now, 'sparks_usage_events_total', /source="plan"/) >= 1;
    });
  });
});

describe('the Grafana dashboard', () => {
  it('reads only metric families that exist', async () => {
    const fs = await import('node:fs');
    const path = await import('node:path');
    const dashboard = JSON.parse(
      fs.readFileSync(path.join(__dirname, '..', '..', 'deploy', 'grafana', 'sparks-dashboard.json'), 'utf8'),
    ) as { panels: Array<{ targets: Array<{ expr: string }> }> };
    const known = [
      'sparks_http_requests_total',
      'sparks_http_request_duration_seconds_bucket',
      'sparks_job_duration_seconds_bucket',
      'sparks_job_duration_seconds_count',
      'sparks_job_wait_seconds_bucket',
      'sparks_ingestion_pages_total',
      'sparks_sse_open_streams',
      'sparks_failed_logins_total',
      'sparks_usage_events_total',
      'bullmq_job_count',
    ];
    const used = dashboard.panels.flatMap((p) =>
      p.targets.flatMap((t) => t.expr.match(/\b(?:sparks|bullmq)_\w+/g) ?? []),
    );
    expect(used.length).toBeGreaterThan(0);
    for (const name of used) expect(known).toContain(name);
    expect(new Set(used)).toEqual(new Set(known));
  });
});
