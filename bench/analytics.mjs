#!/usr/bin/env node
// Analytics (issue 35 item 4): the time of the per-Spark analytics statement (`AnalyticsRepository.period` of
// libs/db, what GET /api/v1/sparks/{sparkId}/analytics runs) for a Spark with 10⁵ conversations, against the goal
// p95 ≤ 200 ms; and the owner's summary across Sparks (GET /api/v1/analytics).
//
//   node bench/analytics.mjs [--conversations 100000] [--spread 90] [--runs 50] [--index "CREATE INDEX …"] [--json out.json]
//
// Seeds a scratch database with SQL (generate_series): the measured Spark's conversations spread over the last 90
// days (`--spread`) (85 % widget, 15 % tests opened with the start keyword), 1–3 questions each with their reply (70 % answers,
// 20 % not covered, 10 % small talk), ratings of 5 % of the answers, the widget conversations' visitors and
// websites; and as many conversations of another owner's Spark, so that the tables hold more than the measured
// tenant. Questions: 200 phrasings in several wordings, and 30 % free text nobody else typed (the distinct
// wordings the top questions must group). Rows are inserted in time order with UUIDv7-like ids, as the app writes
// them. `--index "CREATE INDEX …"` measures again after that statement (a candidate index), to compare. Before
// measuring it waits (at most 5 minutes) for the machine to be nearly idle; each row says how busy it was.
import { performance } from 'node:perf_hooks';
import {
  STAT_COLUMNS,
  log,
  machine,
  machineCpu,
  rootRequire,
  runBench,
  scratchDatabase,
  summarize,
  table,
  waitForIdle,
  writeJsonIfAsked,
} from './lib/common.mjs';

const option = (name) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const CONVERSATIONS = Number(option('conversations') ?? 100_000);
/** Over how many days before today the conversations are spread. */
const SPREAD = Number(option('spread') ?? 90);
const RUNS = Number(option('runs') ?? 50);
const INDEX = option('index');
const WARMUP = 3;
const TIME_ZONE = 'Europe/Madrid';

const { createDb, AnalyticsRepository } = rootRequire('./libs/db/dist/index.js');

/** Ids ordered by time as UUIDv7 (the app's ids): 48 bits of milliseconds, then random bits. */
const UUID7 = `
CREATE FUNCTION bench_uuid7(at timestamptz) RETURNS uuid LANGUAGE sql VOLATILE AS $$
  SELECT (lpad(to_hex(floor(extract(epoch FROM at) * 1000)::bigint), 12, '0') || '7'
          || substr(md5(random()::text), 1, 3) || '8' || substr(md5(random()::text), 1, 15))::uuid
$$`;

/** 200 phrasings: 40 topics × 5 ways of asking. */
const PHRASINGS = `
CREATE TABLE bench_phrasings AS
SELECT row_number() OVER () - 1 AS n, format(w.way, t.topic) AS text
  FROM unnest(ARRAY['the opening hours', 'the price of a rental', 'the address of the shop', 'parking nearby',
    'gift cards', 'a table for six', 'the menu of the day', 'vegan dishes', 'home delivery', 'payment by card',
    'the return policy', 'the warranty', 'an appointment', 'the phone number', 'holidays', 'the wifi password',
    'dogs inside', 'children''s prices', 'group discounts', 'the booking deposit', 'electric bikes', 'helmets',
    'the repair time', 'second-hand bikes', 'insurance', 'the cancellation fee', 'invoices', 'student discounts',
    'gluten-free bread', 'the terrace', 'private events', 'the loyalty card', 'lost property', 'accessibility',
    'the closing time on Sunday', 'breakfast', 'take-away', 'allergens', 'the chef', 'jobs']) AS t(topic)
 CROSS JOIN unnest(ARRAY['What about %s?', 'Can you tell me about %s', 'Info on %s please', '%s?',
    'I would like to know about %s']) AS w(way)`;

/** `n` conversations of `sparkId` (owner `userId`) over the last 90 days, with their messages and ratings. */
async function seedSpark(pool, { userId, sparkId, n }) {
  const t0 = performance.now();
  // Busier from 9 to 21 h (Madrid is UTC+1 in winter), quieter at night.
  await pool.query(
    `INSERT INTO conversations (id, user_id, kind, spark_id, created_at, updated_at)
     SELECT bench_uuid7(at), $1, kind, $2, at, at + interval '4 minutes'
       FROM (SELECT LEAST(now() - interval '10 minutes',
                          date_trunc('day', now()) - floor(random() * $4) * interval '1 day'
                          + (CASE WHEN random() < 0.85 THEN 8 + random() * 12 ELSE random() * 24 END) * interval '1 hour')
                      AS at,
                    (CASE WHEN random() < 0.15 THEN 'test' ELSE 'widget' END)::conversation_kind AS kind
               FROM generate_series(1, $3)) c
      ORDER BY at`,
    [userId, sparkId, n, SPREAD],
  );
  await pool.query(
    `INSERT INTO visitors (id, spark_id, created_at, last_seen_at)
     SELECT id, spark_id, created_at, updated_at FROM conversations WHERE spark_id = $1 AND kind = 'widget'`,
    [sparkId],
  );
  await pool.query(
    `INSERT INTO visitor_conversations (conversation_id, visitor_id, spark_id, origin, created_at)
     SELECT id, id, spark_id,
            (ARRAY['https://shop.example', 'https://www.example.es', 'https://blog.example.com', 'https://example.org'])
              [1 + floor(random() * random() * 4)::int],
            created_at
       FROM conversations WHERE spark_id = $1 AND kind = 'widget'`,
    [sparkId],
  );
  await pool.query(
    `WITH q AS MATERIALIZED (
       SELECT bench_uuid7(c.created_at + k * interval '1 minute') AS id, c.id AS conversation_id,
              c.created_at + k * interval '1 minute' AS at, random() AS roll,
              CASE WHEN random() < 0.3 THEN p.text || ' ' || md5(random()::text) ELSE p.text END AS content
         FROM conversations c
        CROSS JOIN LATERAL generate_series(1, 1 + get_byte(uuid_send(c.id), 15) % 3) k
        CROSS JOIN LATERAL (SELECT floor(power(random(), 2) * 200)::int + 0 * k AS pick) r
        JOIN bench_phrasings p ON p.n = r.pick
        WHERE c.spark_id = $1
       UNION ALL
       SELECT bench_uuid7(c.created_at), c.id, c.created_at, 2, 'inicio'
         FROM conversations c WHERE c.spark_id = $1 AND c.kind = 'test'
     )
     INSERT INTO messages (id, conversation_id, type, data, reply_to, reply_index, created_at)
     SELECT id, conversation_id, type::message_type, data, reply_to, 0, at FROM (
       SELECT id, conversation_id, 'human' AS type, jsonb_build_object('content', content) AS data,
              NULL::uuid AS reply_to, at
         FROM q
       UNION ALL
       SELECT bench_uuid7(at + interval '5 seconds'), conversation_id, 'ai',
              jsonb_build_object(
                'content', repeat('We open from nine to eight, Monday to Saturday [1]. ', 12),
                'answer', CASE WHEN roll < 0.7 THEN 'answer' WHEN roll < 0.9 THEN 'notCovered' ELSE 'greeting' END,
                'engine', 'offline',
                'sources', CASE WHEN roll < 0.7
                  THEN jsonb_build_array(jsonb_build_object('documentId', gen_random_uuid(), 'document', 'Menu', 'page', 2))
                  ELSE '[]'::jsonb END),
              id, at + interval '5 seconds'
         FROM q
     ) m
     ORDER BY at`,
    [sparkId],
  );
  await pool.query(
    `INSERT INTO answer_feedback (id, spark_id, message_id, rater, rating, created_at, updated_at)
     SELECT bench_uuid7(at), $1, id, rater, rating, at, at FROM (
       SELECT m.id, LEAST(now(), m.created_at + interval '1 minute') AS at,
              (CASE c.kind WHEN 'test' THEN 'owner' ELSE 'visitor' END)::feedback_rater AS rater,
              (CASE WHEN random() < 0.8 THEN 'up' ELSE 'down' END)::feedback_rating AS rating
         FROM conversations c JOIN messages m ON m.conversation_id = c.id
        WHERE c.spark_id = $1 AND m.type = 'ai' AND m.data->>'answer' IN ('answer', 'notCovered') AND random() < 0.05
     ) r ORDER BY at`,
    [sparkId],
  );
  log(`seeded ${n} conversations of Spark ${sparkId.slice(0, 8)} in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
}

/** `RUNS` timed runs of `fn` after `WARMUP`, and how busy the whole machine was meanwhile (cores). */
async function time(fn) {
  for (let i = 0; i < WARMUP; i++) await fn();
  const samples = [];
  const before = machineCpu();
  const started = performance.now();
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    await fn();
    samples.push(performance.now() - t0);
  }
  const after = machineCpu();
  return { ...summarize(samples), busy: (after.busy - before.busy) / ((performance.now() - started) / 1000) };
}

async function main() {
  const url = await scratchDatabase('analytics');
  const handle = createDb(url, 2);
  const { pool } = handle;
  try {
    await pool.query(UUID7);
    await pool.query(PHRASINGS);
    const owners = [];
    for (const name of ['owner', 'other']) {
      const userId = (
        await pool.query(`INSERT INTO users (id, username, email) VALUES (gen_random_uuid(), $1, $1) RETURNING id`, [
          `${name}@example.com`,
        ])
      ).rows[0].id;
      const sparkId = (
        await pool.query(
          `INSERT INTO sparks (id, user_id, name, options) VALUES (gen_random_uuid(), $1, $2, '{"language":"en"}') RETURNING id`,
          [userId, `Spark of ${name}`],
        )
      ).rows[0].id;
      owners.push({ userId, sparkId });
    }
    // The measured owner has a second, small Spark (the summary reads both).
    const small = (
      await pool.query(
        `INSERT INTO sparks (id, user_id, name, options) VALUES (gen_random_uuid(), $1, 'Small', '{"language":"es"}') RETURNING id`,
        [owners[0].userId],
      )
    ).rows[0].id;
    await seedSpark(pool, { ...owners[0], n: CONVERSATIONS });
    await seedSpark(pool, { ...owners[1], n: CONVERSATIONS });
    await seedSpark(pool, { userId: owners[0].userId, sparkId: small, n: Math.round(CONVERSATIONS / 100) });
    await pool.query('VACUUM ANALYZE');
    const size = (
      await pool.query(
        `SELECT (SELECT count(*) FROM conversations WHERE spark_id = $1)::int AS conversations,
                               (SELECT count(*) FROM messages m JOIN conversations c ON c.id = m.conversation_id
                                 WHERE c.spark_id = $1)::int AS messages,
                               (SELECT count(*) FROM answer_feedback WHERE spark_id = $1)::int AS ratings,
                               (SELECT count(*) FROM messages)::int AS all_messages`,
        [owners[0].sparkId],
      )
    ).rows[0];
    log(`the Spark: ${JSON.stringify(size)}`);
    const idle = await waitForIdle({ maxBusy: 0.5, timeoutMinutes: 5 });
    if (!idle) log('the machine stayed busy: measuring anyway (see the busy column)');

    const repo = new AnalyticsRepository(handle.db);
    const { userId, sparkId } = owners[0];
    const rows = [];
    const measure = async (indexes) => {
      for (const days of [30, 90]) {
        const sample = await repo.period({ userId, sparkId, days, timeZone: TIME_ZONE });
        const stats = await time(() => repo.period({ userId, sparkId, days, timeZone: TIME_ZONE }));
        rows.push({ what: `one Spark, days=${days}`, indexes, conversations: sample.totals.conversations, ...stats });
        log(`one Spark, days=${days} (${indexes}): p50 ${stats.p50.toFixed(1)} ms, p95 ${stats.p95.toFixed(1)} ms`);
      }
      for (const days of [30, 90]) {
        const sample = await repo.period({ userId, days, timeZone: TIME_ZONE });
        const stats = await time(() => repo.period({ userId, days, timeZone: TIME_ZONE }));
        rows.push({
          what: `all the owner's Sparks, days=${days}`,
          indexes,
          conversations: sample.totals.conversations,
          ...stats,
        });
        log(`summary, days=${days} (${indexes}): p50 ${stats.p50.toFixed(1)} ms, p95 ${stats.p95.toFixed(1)} ms`);
      }
    };
    await measure('as migrated');
    if (INDEX) {
      const t0 = performance.now();
      await pool.query(INDEX);
      await pool.query('ANALYZE');
      log(`${INDEX} in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
      await measure('with the candidate index');
    }
    const wordings = (
      await pool.query(
        `SELECT count(DISTINCT btrim(m.data->>'content'))::int AS n FROM messages m JOIN conversations c ON c.id = m.conversation_id
          WHERE c.spark_id = $1 AND m.type = 'human' AND m.created_at > now() - interval '90 days'`,
        [sparkId],
      )
    ).rows[0].n;
    const goal = rows
      .filter((r) => r.what.startsWith('one Spark') && r.indexes === 'as migrated')
      .every((r) => r.p95 <= 200);
    const m = machine();
    console.log(
      [
        `## Analytics of a Spark with 10⁵ conversations (issue 35 item 4) — ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC`,
        '',
        `${m.cpus} × ${m.cpuModel}, ${m.memory}, Node ${m.node}, ${m.postgres}; \`AnalyticsRepository.period\` from Node ` +
          `(driver round trip included), time zone ${TIME_ZONE}, ${WARMUP} warm-up runs then ${RUNS} timed, one at a time.`,
        `The Spark: ${size.conversations} conversations, ${size.messages} messages, ${size.ratings} ratings, ` +
          `${wordings} distinct wordings of its questions over 90 days; conversations spread over the last ${SPREAD} days; the messages table holds ${size.all_messages} rows ` +
          `(another owner's Spark as large, and a small second Spark of the owner).` +
          (INDEX ? ` Candidate index: \`${INDEX}\`.` : ''),
        '',
        table(
          [
            ['statement', (r) => r.what],
            ['indexes', (r) => r.indexes],
            ['conversations counted', (r) => String(r.conversations)],
            ...STAT_COLUMNS,
            ['machine busy (cores of 2)', (r) => r.busy.toFixed(2)],
          ],
          rows,
        ),
        '',
        `**Goal (one Spark, p95 ≤ 200 ms, indexes as migrated): ${goal ? 'met' : 'not met'}.**`,
      ].join('\n'),
    );
    writeJsonIfAsked({
      conversations: CONVERSATIONS,
      spread: SPREAD,
      runs: RUNS,
      index: INDEX ?? null,
      size,
      wordings,
      rows,
      machine: m,
    });
  } finally {
    await handle.close();
  }
}

runBench(main);
