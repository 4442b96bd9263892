import { ANALYTICS_TOP_QUESTIONS } from '@sparks/contracts';
import { sql } from 'drizzle-orm';
import type { Database, Executor } from './client';

/** The figures of one period (see `AnalyticsRepository.period`). */
export interface AnalyticsCounts {
  conversations: number;
  questions: number;
  answers: number;
  notCovered: number;
  ratedUp: number;
  ratedDown: number;
}

export interface AnalyticsPeriod {
  /** First and last day of the period, `YYYY-MM-DD`, in the time zone asked for. */
  from: string;
  to: string;
  days: Array<{
    date: string;
    conversations: number;
    answers: number;
    notCovered: number;
    ratedUp: number;
    ratedDown: number;
  }>;
  /** Questions by local hour, 0–23. */
  hours: number[];
  topQuestions: Array<{ question: string; count: number }>;
  sites: Array<{ origin: string | null; conversations: number }>;
  totals: AnalyticsCounts;
  /** Each Spark of the scope with its totals (all of them, those without activity too), most conversations first. */
  sparks: Array<{ sparkId: string; name: string; totals: AnalyticsCounts }>;
}

const MAX_SITES = 50;

/**
 * The hash tables of one period's statement (a row per conversation of the period) fit in memory: without it they spill
 * or the planner sorts instead, several times slower (bench/analytics.mjs).
 */
const WORK_MEM = '32MB';

/** to_char's pattern of an instant in ISO 8601, UTC. */
const ISO_UTC = 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"';

interface Bounds {
  from: string;
  to: string;
  /** The first instant of the period and the first after it, ISO 8601 in UTC (read back whatever the DateStyle). */
  since: string;
  until: string;
}

/**
 * Usage figures of an owner's Sparks (issue 35 item 4), read from the rollup the database keeps of the messages of
 * tests' and website visitors' conversations (`analytics_quarters`, `analytics_conversations`, `analytics_questions`:
 * migration 0024, schema analytics.ts) and the ratings (`answer_feedback`). Queries only.
 */
export class AnalyticsRepository {
  constructor(private readonly db: Database) {}

  /**
   * The last `days` days (today included, or ending with the local date `lastDay`) in `timeZone` (a name PostgreSQL
   * knows), for one Spark of the owner (`sparkId`) or all of them. A day counts: the conversations that began that day
   * (their first question: a human message but the start keyword), so that the days add up to the period's; the
   * questions, and the answers (`data.answer` one of RATEABLE_ANSWER_KINDS of @sparks/contracts) and, of those, the
   * not-covered ones, on the day each was written; the ratings on the day they were given or last changed.
   * A `sparkId` that is not the owner's reads nothing (the caller checks it first).
   */
  async period(v: {
    userId: string;
    sparkId?: string;
    days: number;
    timeZone: string;
    lastDay?: string;
  }): Promise<AnalyticsPeriod> {
    const bounds = await this.bounds(v.days, v.timeZone, v.lastDay);
    // Two statements side by side on two connections: the counts and the top questions.
    const [counts, topQuestions] = await Promise.all([
      this.withWorkMem((tx) => this.counts(tx, v, bounds)),
      this.withWorkMem((tx) => this.topQuestions(tx, v, bounds)),
    ]);
    return { from: bounds.from, to: bounds.to, ...counts, topQuestions };
  }

  /** Runs `fn` in a transaction of its own whose statements may use WORK_MEM. */
  private withWorkMem<T>(fn: (tx: Executor) => Promise<T>): Promise<T> {
    return this.db.transaction(async (tx) => {
      await tx.execute(sql.raw(`SET LOCAL work_mem = '${WORK_MEM}'`));
      return fn(tx);
    });
  }

  /**
   * The period's days and instants, from the database's clock, so that "today" is the same for every statement: the
   * `days` days ending with `lastDay` (a local date), or with today.
   */
  private async bounds(days: number, tz: string, lastDay?: string): Promise<Bounds> {
    const last = lastDay ? sql`${lastDay}::date` : sql`(now() AT TIME ZONE ${tz})::date`;
    const result = await this.db.execute<Record<keyof Bounds, string>>(sql`
      SELECT to_char(first_day, 'YYYY-MM-DD') AS "from", to_char(last_day, 'YYYY-MM-DD') AS "to",
             to_char(first_day::timestamp AT TIME ZONE ${tz} AT TIME ZONE 'UTC', ${ISO_UTC}) AS since,
             to_char((last_day + 1)::timestamp AT TIME ZONE ${tz} AT TIME ZONE 'UTC', ${ISO_UTC}) AS until
        FROM (SELECT last_day - ${days - 1}::int AS first_day, last_day FROM (SELECT ${last} AS last_day) l) d`);
    const row = result.rows[0];
    if (!row) throw new Error('the period has no bounds');
    return row;
  }

  private async counts(
    tx: Executor,
    v: { userId: string; sparkId?: string; days: number; timeZone: string },
    b: Bounds,
  ): Promise<Omit<AnalyticsPeriod, 'from' | 'to' | 'topQuestions'>> {
    const tz = v.timeZone;
    const result = await tx.execute<{
      days: AnalyticsPeriod['days'];
      hours: number[];
      sites: AnalyticsPeriod['sites'] | null;
      totals: AnalyticsCounts;
      sparks: AnalyticsPeriod['sparks'] | null;
    }>(sql`
      WITH s AS (
        SELECT id, name FROM sparks
         WHERE user_id = ${v.userId} ${v.sparkId ? sql`AND id = ${v.sparkId}` : sql``}
      ), q AS (
        -- the scope's quarters of the period, with their local day and hour
        SELECT q.spark_id, (q.bucket AT TIME ZONE ${tz})::date AS day,
               extract(hour FROM q.bucket AT TIME ZONE ${tz})::int AS hour,
               q.questions, q.answers, q.not_covered
          FROM s JOIN analytics_quarters q ON q.spark_id = s.id
         WHERE q.bucket >= ${b.since}::timestamptz AND q.bucket < ${b.until}::timestamptz
      ), c AS MATERIALIZED (
        -- the conversations that began in the period (their first question), counted per quarter hour first (the
        -- zone's day is then worked out once a quarter, not once a conversation)
        SELECT spark_id, kind, origin, (bucket AT TIME ZONE ${tz})::date AS day, n
          FROM (SELECT c.spark_id, c.kind, c.origin,
                       date_bin('15 minutes', c.started_at, TIMESTAMPTZ '2000-01-01 00:00:00+00') AS bucket,
                       count(*) AS n
                  FROM s JOIN analytics_conversations c ON c.spark_id = s.id
                 WHERE c.started_at >= ${b.since}::timestamptz AND c.started_at < ${b.until}::timestamptz
                 GROUP BY 1, 2, 3, 4) g
      ), q_day AS MATERIALIZED (
        SELECT spark_id, day, sum(questions) AS questions, sum(answers) AS answers, sum(not_covered) AS not_covered
          FROM q GROUP BY spark_id, day
      ), r AS MATERIALIZED (
        SELECT f.spark_id, (f.updated_at AT TIME ZONE ${tz})::date AS day, f.rating
          FROM s JOIN answer_feedback f ON f.spark_id = s.id
         WHERE f.updated_at >= ${b.since}::timestamptz AND f.updated_at < ${b.until}::timestamptz
      ), per_day AS (
        SELECT day, sum(conversations)::int AS conversations, sum(answers)::int AS answers,
               sum(not_covered)::int AS not_covered, sum(up)::int AS up, sum(down)::int AS down
          FROM (
            SELECT day, sum(n) AS conversations, 0 AS answers, 0 AS not_covered, 0 AS up, 0 AS down
              FROM c GROUP BY day
            UNION ALL
            SELECT day, 0, sum(answers), sum(not_covered), 0, 0 FROM q_day GROUP BY day
            UNION ALL
            SELECT day, 0, 0, 0, count(*) FILTER (WHERE rating = 'up'), count(*) FILTER (WHERE rating = 'down')
              FROM r GROUP BY day
          ) x
         GROUP BY day
      ), per_spark AS (
        SELECT s.id, s.name,
               coalesce(cs.conversations, 0) AS conversations, coalesce(qs.questions, 0) AS questions,
               coalesce(qs.answers, 0) AS answers, coalesce(qs.not_covered, 0) AS not_covered,
               coalesce(rs.up, 0) AS up, coalesce(rs.down, 0) AS down
          FROM s
          LEFT JOIN (SELECT spark_id, sum(n)::int AS conversations FROM c GROUP BY spark_id) cs ON cs.spark_id = s.id
          LEFT JOIN (SELECT spark_id, sum(questions)::int AS questions, sum(answers)::int AS answers,
                            sum(not_covered)::int AS not_covered
                       FROM q_day GROUP BY spark_id) qs ON qs.spark_id = s.id
          LEFT JOIN (SELECT spark_id, count(*) FILTER (WHERE rating = 'up')::int AS up,
                            count(*) FILTER (WHERE rating = 'down')::int AS down
                       FROM r GROUP BY spark_id) rs ON rs.spark_id = s.id
      ), sites AS (
        SELECT origin, sum(n)::int AS conversations
          FROM c WHERE kind = 'widget'
         GROUP BY origin
         ORDER BY conversations DESC, origin NULLS LAST
         LIMIT ${MAX_SITES}
      )
      SELECT (SELECT json_agg(json_build_object(
                       'date', to_char(d.day, 'YYYY-MM-DD'),
                       'conversations', coalesce(pd.conversations, 0), 'answers', coalesce(pd.answers, 0),
                       'notCovered', coalesce(pd.not_covered, 0),
                       'ratedUp', coalesce(pd.up, 0), 'ratedDown', coalesce(pd.down, 0)) ORDER BY d.day)
                FROM (SELECT ${b.from}::date + i AS day FROM generate_series(0, ${v.days - 1}) i) d
                LEFT JOIN per_day pd ON pd.day = d.day) AS days,
             (SELECT array_agg(coalesce(h.n, 0)::int ORDER BY g)
                FROM generate_series(0, 23) g
                LEFT JOIN (SELECT hour, sum(questions) AS n FROM q GROUP BY hour) h ON h.hour = g) AS hours,
             (SELECT json_agg(json_build_object('origin', origin, 'conversations', conversations)
                              ORDER BY conversations DESC, origin NULLS LAST)
                FROM sites) AS sites,
             (SELECT json_build_object(
                       'conversations', coalesce(sum(conversations), 0),
                       'questions', coalesce(sum(questions), 0), 'answers', coalesce(sum(answers), 0),
                       'notCovered', coalesce(sum(not_covered), 0),
                       'ratedUp', coalesce(sum(up), 0), 'ratedDown', coalesce(sum(down), 0))
                FROM per_spark) AS totals,
             (SELECT json_agg(json_build_object(
                       'sparkId', id, 'name', name,
                       'totals', json_build_object(
                         'conversations', conversations, 'questions', questions, 'answers', answers,
                         'notCovered', not_covered, 'ratedUp', up, 'ratedDown', down))
                       ORDER BY conversations DESC, questions DESC, name, id)
                FROM per_spark) AS sparks`);
    const row = result.rows[0];
    if (!row) throw new Error('the analytics statement returned no row');
    return {
      days: row.days,
      hours: row.hours,
      sites: row.sites ?? [],
      totals: row.totals,
      sparks: row.sparks ?? [],
    };
  }

  /**
   * The questions asked most, similar ones together (`question_group_key` in their Spark's language when asked,
   * migration 0012, as the review list groups them), each shown in its most asked wording.
   */
  private async topQuestions(
    tx: Executor,
    v: { userId: string; sparkId?: string; days: number; timeZone: string },
    b: Bounds,
  ): Promise<AnalyticsPeriod['topQuestions']> {
    const period = sql`q.asked_at >= ${b.since}::timestamptz AND q.asked_at < ${b.until}::timestamptz`;
    // The keys asked most first, then the wordings of those keys only. Each Spark's questions are read from its own
    // index range (LATERAL): for an owner with several Sparks the planner would otherwise scan every Spark's.
    const result = await tx.execute<{ question: string; count: number }>(sql`
      WITH sc AS (
        SELECT id FROM sparks WHERE user_id = ${v.userId} ${v.sparkId ? sql`AND id = ${v.sparkId}` : sql``}
      ), top AS MATERIALIZED (
        SELECT q.group_key, count(*) AS n, max(q.asked_at) AS latest
          FROM sc CROSS JOIN LATERAL (
                 SELECT q.group_key, q.asked_at FROM analytics_questions q WHERE q.spark_id = sc.id AND ${period}) q
         GROUP BY q.group_key
         ORDER BY n DESC, latest DESC
         LIMIT ${ANALYTICS_TOP_QUESTIONS}
      ), wordings AS MATERIALIZED (
        SELECT q.group_key, q.content, count(*) AS n, max(q.asked_at) AS latest
          FROM sc CROSS JOIN top CROSS JOIN LATERAL (
                 SELECT q.group_key, q.content, q.asked_at FROM analytics_questions q
                  WHERE q.spark_id = sc.id AND q.group_key = top.group_key AND ${period}) q
         GROUP BY 1, 2
      )
      SELECT (SELECT w.content FROM wordings w WHERE w.group_key = top.group_key
               ORDER BY w.n DESC, w.latest DESC LIMIT 1) AS question,
             top.n::int AS count
        FROM top
       ORDER BY top.n DESC, top.latest DESC`);
    return result.rows.map((r) => ({ question: r.question, count: Number(r.count) }));
  }
}
