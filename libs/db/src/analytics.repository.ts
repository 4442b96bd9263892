import { ANALYTICS_TOP_QUESTIONS, RATEABLE_ANSWER_KINDS } from '@sparks/contracts';
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

/**
 * How many distinct wordings of the period's questions get a group key (`question_group_key`, ~8 µs each): the most
 * asked ones. A period with more distinct wordings leaves its rarest (asked once or twice) out of the top questions,
 * which they could only reach together; the statement stays within its time budget however varied the questions are
 * (bench/analytics.mjs).
 */
const TOP_QUESTION_WORDINGS = 5000;
const MAX_SITES = 50;

/**
 * The human messages that are no question: the start keyword the app sends, never shown, to open a test chat
 * (`isStartKeyword` of @sparks/contracts, the same pattern).
 */
const START_KEYWORD_SQL = '^(inicio|inicio en [[:alpha:]-]+|start in [[:alpha:]-]+)$';

/**
 * The hash tables of one period's statement (a row per conversation and hour) fit in memory: without it they spill
 * or the planner sorts the messages instead, several times slower (bench/analytics.mjs).
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
 * Usage figures of an owner's Sparks (issue 35 item 4), read from the conversations of kind `test` and `widget`, their
 * messages, the ratings (`answer_feedback`) and the widget conversations' websites (`visitor_conversations`). Queries
 * only.
 */
export class AnalyticsRepository {
  constructor(private readonly db: Database) {}

  /**
   * The last `days` days (today included) in `timeZone` (a name PostgreSQL knows), for one Spark of the owner
   * (`sparkId`) or all of them. A day counts: the conversations with at least one question that day (a human message
   * but the start keyword); the answers (`data.answer` one of RATEABLE_ANSWER_KINDS) and, of those, the not-covered
   * ones; the ratings by the day they were given or last changed. A `sparkId` that is not the owner's reads nothing
   * (the caller checks it first).
   */
  async period(v: { userId: string; sparkId?: string; days: number; timeZone: string }): Promise<AnalyticsPeriod> {
    const bounds = await this.bounds(v.days, v.timeZone);
    // Two statements side by side on two connections: the counts (which PostgreSQL may run in parallel workers) and
    // the top questions (question_group_key is not parallel safe).
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

  /** The period's days and instants, from the database's clock, so that "today" is the same for every statement. */
  private async bounds(days: number, tz: string): Promise<Bounds> {
    const result = await this.db.execute<Record<keyof Bounds, string>>(sql`
      SELECT to_char(first_day, 'YYYY-MM-DD') AS "from", to_char(last_day, 'YYYY-MM-DD') AS "to",
             to_char(first_day::timestamp AT TIME ZONE ${tz} AT TIME ZONE 'UTC', ${ISO_UTC}) AS since,
             to_char((last_day + 1)::timestamp AT TIME ZONE ${tz} AT TIME ZONE 'UTC', ${ISO_UTC}) AS until
        FROM (SELECT (now() AT TIME ZONE ${tz})::date - ${days - 1}::int AS first_day,
                     (now() AT TIME ZONE ${tz})::date AS last_day) d`);
    const row = result.rows[0];
    if (!row) throw new Error('the period has no bounds');
    return row;
  }

  /**
   * The conversations of the period: those of the scope's Sparks (tests and widget) that began before its end and
   * were active since its start. Every message written touches its conversation's `updated_at`
   * (ConversationsRepository.addMessage, addReply), so a conversation last active before the period has no message in
   * it; an hour of margin covers a clock that set it a little earlier (`setState`). A filter on the conversations,
   * before their messages are read: the messages' own time decides what counts.
   */
  private scope(v: { userId: string; sparkId?: string }, b: Bounds) {
    return sql`
      SELECT c.id, c.spark_id, c.kind
        FROM sparks s
        JOIN conversations c ON c.spark_id = s.id
       WHERE s.user_id = ${v.userId} ${v.sparkId ? sql`AND s.id = ${v.sparkId}` : sql``}
         AND c.kind IN ('test', 'widget')
         AND c.created_at < ${b.until}::timestamptz
         AND c.updated_at >= ${b.since}::timestamptz - interval '1 hour'`;
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
      ), l AS MATERIALIZED (
        -- a row per conversation and local hour with messages in the period
        SELECT c.spark_id, c.kind, m.conversation_id,
               (m.created_at AT TIME ZONE ${tz})::date AS day,
               extract(hour FROM m.created_at AT TIME ZONE ${tz})::int AS hour,
               count(*) FILTER (WHERE m.type = 'human'
                                  AND NOT (lower(btrim(m.data->>'content')) ~ ${START_KEYWORD_SQL}))::int AS questions,
               count(*) FILTER (WHERE m.type = 'ai' AND m.data->>'answer' IN ${[...RATEABLE_ANSWER_KINDS]})::int AS answers,
               count(*) FILTER (WHERE m.type = 'ai' AND m.data->>'answer' = 'notCovered')::int AS not_covered
          FROM (${this.scope(v, b)}) c
          JOIN messages m ON m.conversation_id = c.id
         WHERE m.created_at >= ${b.since}::timestamptz AND m.created_at < ${b.until}::timestamptz
           AND m.type IN ('human', 'ai')
         GROUP BY 1, 2, 3, 4, 5
      ), r AS MATERIALIZED (
        SELECT f.spark_id, (f.updated_at AT TIME ZONE ${tz})::date AS day, f.rating
          FROM s JOIN answer_feedback f ON f.spark_id = s.id
         WHERE f.updated_at >= ${b.since}::timestamptz AND f.updated_at < ${b.until}::timestamptz
      ), per_day AS (
        SELECT day, sum(conversations)::int AS conversations, sum(answers)::int AS answers,
               sum(not_covered)::int AS not_covered, sum(up)::int AS up, sum(down)::int AS down
          FROM (
            SELECT day, count(DISTINCT conversation_id) FILTER (WHERE questions > 0) AS conversations,
                   sum(answers) AS answers, sum(not_covered) AS not_covered, 0 AS up, 0 AS down
              FROM l GROUP BY day
            UNION ALL
            SELECT day, 0, 0, 0, count(*) FILTER (WHERE rating = 'up'), count(*) FILTER (WHERE rating = 'down')
              FROM r GROUP BY day
          ) x
         GROUP BY day
      ), per_spark AS (
        SELECT s.id, s.name,
               coalesce(ls.conversations, 0) AS conversations, coalesce(ls.questions, 0) AS questions,
               coalesce(ls.answers, 0) AS answers, coalesce(ls.not_covered, 0) AS not_covered,
               coalesce(rs.up, 0) AS up, coalesce(rs.down, 0) AS down
          FROM s
          LEFT JOIN (SELECT spark_id, count(DISTINCT conversation_id) FILTER (WHERE questions > 0)::int AS conversations,
                            sum(questions)::int AS questions, sum(answers)::int AS answers,
                            sum(not_covered)::int AS not_covered
                       FROM l GROUP BY spark_id) ls ON ls.spark_id = s.id
          LEFT JOIN (SELECT spark_id, count(*) FILTER (WHERE rating = 'up')::int AS up,
                            count(*) FILTER (WHERE rating = 'down')::int AS down
                       FROM r GROUP BY spark_id) rs ON rs.spark_id = s.id
      ), sites AS (
        SELECT vc.origin, count(*)::int AS conversations
          FROM (SELECT DISTINCT conversation_id FROM l WHERE kind = 'widget' AND questions > 0) w
          LEFT JOIN visitor_conversations vc ON vc.conversation_id = w.conversation_id
         GROUP BY vc.origin
         ORDER BY conversations DESC, vc.origin NULLS LAST
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
                LEFT JOIN (SELECT hour, sum(questions) AS n FROM l GROUP BY hour) h ON h.hour = g) AS hours,
             (SELECT json_agg(json_build_object('origin', origin, 'conversations', conversations)
                              ORDER BY conversations DESC, origin NULLS LAST)
                FROM sites) AS sites,
             (SELECT json_build_object(
                       'conversations', (SELECT count(DISTINCT conversation_id) FROM l WHERE questions > 0),
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
   * The questions asked most, similar ones together (`question_group_key` in their Spark's language, migration 0012,
   * as the review list groups them), each shown in its most asked wording.
   */
  private async topQuestions(
    tx: Executor,
    v: { userId: string; sparkId?: string; days: number; timeZone: string },
    b: Bounds,
  ): Promise<AnalyticsPeriod['topQuestions']> {
    const result = await tx.execute<{ question: string; count: number }>(sql`
      WITH w AS (
        SELECT w.content, w.n, w.latest, question_group_key(w.language, w.content) AS key
          FROM (SELECT btrim(m.data->>'content') AS content,
                       (CASE WHEN s.options->>'language' = 'es' THEN 'es' ELSE 'en' END) AS language,
                       count(*) AS n, max(m.created_at) AS latest
                  FROM (${this.scope(v, b)}) c
                  JOIN sparks s ON s.id = c.spark_id
                  JOIN messages m ON m.conversation_id = c.id
                 WHERE m.created_at >= ${b.since}::timestamptz AND m.created_at < ${b.until}::timestamptz
                   AND m.type = 'human'
                   AND NOT (lower(btrim(m.data->>'content')) ~ ${START_KEYWORD_SQL})
                   AND btrim(m.data->>'content') <> ''
                 GROUP BY 1, 2
                 ORDER BY n DESC, latest DESC
                 LIMIT ${TOP_QUESTION_WORDINGS}) w
      )
      SELECT (array_agg(content ORDER BY n DESC, latest DESC))[1] AS question, sum(n)::int AS count
        FROM w
       GROUP BY key
       ORDER BY count DESC, max(latest) DESC
       LIMIT ${ANALYTICS_TOP_QUESTIONS}`);
    return result.rows.map((r) => ({ question: r.question, count: Number(r.count) }));
  }
}
