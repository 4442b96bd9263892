import { createDb, UsageRepository, type DbHandle } from '@sparks/db';
import { createRedis, JobProducer } from '@sparks/queues';
import { randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import { userIdOf } from './fixtures/knowledge';
import { createUser, eventually, startApp, type TestApp } from './harness';

/**
 * The batched recording of `usage.record` (bench/usage.mjs): many messages in one transaction, each
 * counted exactly once on the counter its hold came from, whatever the batches and repetitions.
 */

const sql = new Pool({ connectionString: process.env.DATABASE_URL, max: 4 });
sql.on('error', () => undefined);
afterAll(() => sql.end());

let t: TestApp;
let handle: DbHandle;
let billing: UsageRepository;
beforeAll(async () => {
  t = await startApp();
  handle = createDb(process.env.DATABASE_URL!, 8);
  billing = new UsageRepository(handle.db);
});
afterAll(async () => {
  await t.close();
  await handle.close();
});

async function tenant(): Promise<string> {
  const user = await createUser(t, { tag: 'usage' });
  const userId = await userIdOf(sql, user.username);
  const { id } = (await sql.query('SELECT id FROM tenants WHERE user_id = $1', [userId])).rows[0];
  await sql.query('UPDATE tenants SET limit_interactions = 1000000 WHERE id = $1', [id]);
  return id as string;
}

/** `n` settled holds of `tenantId` (what answered messages leave), from `source`; answers their message ids. */
async function holds(tenantId: string, n: number, source: 'plan' | 'credits' | 'overage' = 'plan', creditId?: string) {
  const ids = Array.from({ length: n }, () => randomUUID());
  await sql.query(
    `INSERT INTO usage_reservations (id, tenant_id, source, credit_id, message_id, settled_at)
     SELECT gen_random_uuid(), $1, $2, $3, m, now() FROM unnest($4::uuid[]) AS m`,
    [tenantId, source, creditId ?? null, ids],
  );
  return ids;
}

async function counts(tenantId: string) {
  return (
    await sql.query(
      `SELECT (SELECT count(*)::int FROM usage_events WHERE tenant_id = $1) AS events,
              (SELECT usage_interactions FROM tenants WHERE id = $1) AS counted,
              (SELECT COALESCE(sum(used), 0)::int FROM tenant_credits WHERE tenant_id = $1) AS credits,
              (SELECT count(*)::int FROM usage_reservations WHERE tenant_id = $1) AS holds`,
      [tenantId],
    )
  ).rows[0] as { events: number; counted: number; credits: number; holds: number };
}

it('records overlapping batches of two tenants, plan and pack, each message once; again changes nothing', async () => {
  const [a, b] = [await tenant(), await tenant()];
  const creditId = randomUUID();
  await sql.query(
    `INSERT INTO tenant_credits (id, tenant_id, product_id, interactions, checkout_session_id)
     VALUES ($1, $2, 'prod_itx_100', 100, $3)`,
    [creditId, b, `cs_test_${randomUUID()}`],
  );
  const planA = await holds(a, 120);
  const planB = await holds(b, 40);
  const packB = await holds(b, 60, 'credits', creditId);
  const all = [...planA, ...planB, ...packB];
  const unknown = randomUUID();
  // Eight batches at once, each message in two of them, plus a message with no hold.
  const batches = Array.from({ length: 8 }, (_, i) => [
    ...all.filter((_, j) => j % 4 === i % 4),
    ...(i === 0 ? [unknown] : []),
  ]);
  const outcomes = await Promise.all(batches.map((batch) => billing.recordMany(batch, new Date())));
  const recorded = outcomes.flatMap((o) => [...o.entries()].filter(([, r]) => r.recorded).map(([id]) => id));
  expect(recorded.sort()).toEqual([...all].sort());
  expect(outcomes[0].get(unknown)).toEqual({ recorded: false, alerts: [] });
  expect(await counts(a)).toEqual({ events: 120, counted: 120, credits: 0, holds: 0 });
  expect(await counts(b)).toEqual({ events: 100, counted: 40, credits: 60, holds: 0 });

  const again = await billing.recordMany(all, new Date());
  expect([...again.values()].some((r) => r.recorded)).toBe(false);
  expect(await counts(a)).toEqual({ events: 120, counted: 120, credits: 0, holds: 0 });
  expect(await counts(b)).toEqual({ events: 100, counted: 40, credits: 60, holds: 0 });
});

it('answers the 80 % and 100 % alerts once, on one message of the batch that crosses them', async () => {
  const id = await tenant();
  await sql.query('UPDATE tenants SET limit_interactions = 10 WHERE id = $1', [id]);
  const first = await billing.recordMany(await holds(id, 7), new Date());
  expect([...first.values()].flatMap((r) => r.alerts)).toEqual([]);
  const crossing = await billing.recordMany(await holds(id, 3), new Date());
  expect([...crossing.values()].flatMap((r) => r.alerts).sort()).toEqual([100, 80]);
  expect([...crossing.values()].filter((r) => r.alerts.length > 0)).toHaveLength(1);
  expect((await counts(id)).counted).toBe(10);
});

it("writes an alert's e-mail with its event: a mail that cannot be written leaves the batch to its retry, which writes it", async () => {
  const id = await tenant();
  await sql.query('UPDATE tenants SET limit_interactions = 10 WHERE id = $1', [id]);
  await billing.recordMany(await holds(id, 7), new Date());
  const crossing = await holds(id, 3);
  const failing = () => {
    throw new Error('template missing');
  };
  // Before, the alerts were marked in the recording and the mail written after it: a failure there lost the mail.
  await expect(billing.recordMany(crossing, new Date(), failing)).rejects.toThrow('template missing');
  expect(await counts(id)).toEqual({ events: 7, counted: 7, credits: 0, holds: 3 });

  const written: Array<{ level: number; language: string; used: number; limit: number }> = [];
  const retry = await billing.recordMany(crossing, new Date(), (alert) => {
    written.push({ level: alert.level, language: alert.language, used: alert.used, limit: alert.limit });
    return { subject: `${alert.level} %`, text: `${alert.used} of ${alert.limit} (${alert.plan})` };
  });
  expect((await counts(id)).counted).toBe(10);
  expect(written.sort((a, b) => a.level - b.level)).toEqual([
    { level: 80, language: 'en', used: 10, limit: 10 },
    { level: 100, language: 'en', used: 10, limit: 10 },
  ]);
  const emailIds = [...retry.values()].flatMap((r) => r.emailIds ?? []);
  expect(emailIds).toHaveLength(2);
  const mails = await sql.query(
    `SELECT e.subject, e.text, e.status, e."to" = u.email AS to_owner FROM outbound_emails e, tenants t, users u
     WHERE e.id = ANY($1::uuid[]) AND t.id = $2 AND u.id = t.user_id ORDER BY e.subject`,
    [emailIds, id],
  );
  expect(mails.rows).toEqual([
    { subject: '100 %', text: '10 of 10 (Free Plan)', status: 'pending', to_owner: true },
    { subject: '80 %', text: '10 of 10 (Free Plan)', status: 'pending', to_owner: true },
  ]);
  // Once per period: nothing more after that.
  const after = await billing.recordMany(await holds(id, 1), new Date(), () => ({ subject: 'again', text: '' }));
  expect([...after.values()].flatMap((r) => r.emailIds ?? [])).toEqual([]);
});

it('the worker records 500 usage.record jobs added at once, each exactly once', async () => {
  const id = await tenant();
  const ids = await holds(id, 500);
  const redis = createRedis(process.env.REDIS_URL!);
  const producer = new JobProducer(redis, process.env.QUEUE_PREFIX!);
  try {
    await Promise.all(ids.map((messageId) => producer.enqueue('usage.record', { messageId })));
    // The same messages again under other job ids: already recorded, nothing changes.
    await Promise.all(
      ids
        .slice(0, 100)
        .map((messageId) =>
          producer.queue('usage').add('usage.record', { messageId }, { jobId: `again-${messageId}` }),
        ),
    );
    await eventually(async () => (await counts(id)).events === 500, 60_000);
    await eventually(async () => (await producer.queue('usage').getJobCounts('wait', 'active')).active === 0);
    await eventually(async () => (await producer.queue('usage').getJobCounts('wait')).wait === 0);
  } finally {
    await producer.close();
    redis.disconnect();
  }
  expect(await counts(id)).toEqual({ events: 500, counted: 500, credits: 0, holds: 0 });
});

it('counts one batch of plan, pack and overage on their counters, after moving on a period that is over', async () => {
  const [a, b] = [await tenant(), await tenant()];
  const creditId = randomUUID();
  await sql.query(
    `INSERT INTO tenant_credits (id, tenant_id, product_id, interactions, checkout_session_id)
     VALUES ($1, $2, 'prod_itx_100', 100, $3)`,
    [creditId, a, `cs_test_${randomUUID()}`],
  );
  await sql.query('UPDATE tenants SET usage_interactions = 5 WHERE id = $1', [a]);
  // b's period (free plan: the calendar month) ended last month: recording moves it on first.
  const lastMonth = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth() - 1, 1));
  const thisMonth = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), 1));
  await sql.query(
    `INSERT INTO tenant_billing (tenant_id, period_start, period_end, overage_used) VALUES ($1, $2, $3, 9)
     ON CONFLICT (tenant_id) DO UPDATE SET period_start = $2, period_end = $3, overage_used = 9`,
    [b, lastMonth, thisMonth],
  );
  await sql.query('UPDATE tenants SET usage_interactions = 7 WHERE id = $1', [b]);
  const batch = [
    ...(await holds(a, 3)),
    ...(await holds(a, 2, 'credits', creditId)),
    ...(await holds(a, 4, 'overage')),
    ...(await holds(b, 2)),
  ];
  const outcomes = await billing.recordMany(batch, new Date());
  expect([...outcomes.values()].filter((o) => o.recorded)).toHaveLength(11);
  expect(await counts(a)).toEqual({ events: 9, counted: 8, credits: 2, holds: 0 });
  expect(await counts(b)).toEqual({ events: 2, counted: 2, credits: 0, holds: 0 });
  const periods = await sql.query(
    `SELECT b.tenant_id, b.overage_used, b.period_start,
            array_agg(DISTINCT e.period_start) AS event_periods
     FROM tenant_billing b JOIN usage_events e ON e.tenant_id = b.tenant_id
     WHERE b.tenant_id = ANY($1::uuid[]) GROUP BY b.tenant_id, b.overage_used, b.period_start`,
    [[a, b]],
  );
  const of = (id: string) => periods.rows.find((r) => r.tenant_id === id);
  expect(of(a).overage_used).toBe(4);
  expect(of(a).event_periods).toEqual([of(a).period_start]);
  expect(of(b).overage_used).toBe(0);
  expect(of(b).period_start).toEqual(thisMonth);
  expect(of(b).event_periods).toEqual([thisMonth]);

  // Again: nothing more is counted anywhere.
  await billing.recordMany(batch, new Date());
  expect(await counts(a)).toEqual({ events: 9, counted: 8, credits: 2, holds: 0 });
  expect((await sql.query('SELECT overage_used FROM tenant_billing WHERE tenant_id = $1', [a])).rows[0]).toEqual({
    overage_used: 4,
  });
});
