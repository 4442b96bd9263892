import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Pool } from 'pg';
import { addDocument, userIdOf } from './fixtures/knowledge';
import { seedTurn } from './support/seed-turns';
import { createUser, startApp, type SignedUser, type TestApp } from './harness';
import { createSpark, createTest } from './factories';
import { deployOwner, publishOn, widgetPath, type DeployOwner } from './support/deploy';

/**
 * The owner's analytics (issue 35 item 4) against the real api, worker and PostgreSQL: a week of a Spark's
 * conversations written with their own times (one of them made through the widget, as a visitor would), the figures of
 * each day in the owner's time zone (a day boundary that moves with the zone, days without activity), the summary across
 * the owner's Sparks with a test chat answered and rated today, and what is refused: another owner's Spark, a bad period
 * or time zone.
 */

const sql = new Pool({ connectionString: process.env.DATABASE_URL, max: 2 });
sql.on('error', () => undefined);
afterAll(() => sql.end());

const MIGRATIONS = path.join(__dirname, '..', '..', 'libs', 'db', 'migrations');
const SHOP = 'http://shop.localhost:8081';
const OTHER_SITE = 'http://blog.localhost:8082';
const HANDBOOK = [
  'Welcome to Northwind Bikes. We repair and rent bicycles in Portland. We are open from 9 to 18.',
  'Rentals cost 25 dollars per day, helmet and lock included. Electric bikes cost 45 dollars per day.',
];

interface Day {
  date: string;
  conversations: number;
  answers: number;
  notCovered: number;
  ratedUp: number;
  ratedDown: number;
}
interface Totals {
  conversations: number;
  questions: number;
  answers: number;
  notCovered: number;
  ratedUp: number;
  ratedDown: number;
}
interface Analytics {
  period: { from: string; to: string; timeZone: string };
  days: Day[];
  hours: number[];
  topQuestions: Array<{ question: string; count: number }>;
  sites: Array<{ origin: string | null; conversations: number }>;
  totals: Totals;
  spark?: { sparkId: string; name: string };
  sparks?: Array<{ sparkId: string; name: string; totals: Totals }>;
}

/** `YYYY-MM-DD` plus `days` (negative: before). */
const shift = (date: string, days: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
/** The date of an instant in a time zone, `YYYY-MM-DD`. */
const localDate = (at: Date, timeZone: string) => new Intl.DateTimeFormat('en-CA', { timeZone }).format(at);
const zeroDay = (date: string): Day => ({
  date,
  conversations: 0,
  answers: 0,
  notCovered: 0,
  ratedUp: 0,
  ratedDown: 0,
});

describe('analytics (real worker)', () => {
  let t: TestApp;
  let owner: DeployOwner;
  /** Today in UTC, by the database's clock (what the api reads "today" from). */
  let today: string;
  /** Instants of the seeded week: `at(2, '23:30:00')` is 23:30 UTC two days ago. */
  const at = (daysAgo: number, time: string) => new Date(`${shift(today, -daysAgo)}T${time}Z`);

  beforeAll(async () => {
    t = await startApp();
    owner = await deployOwner(t, sql, { tag: 'analytics', pages: HANDBOOK });
    today = (await sql.query<{ d: string }>(`SELECT ((now() AT TIME ZONE 'UTC')::date)::text AS d`)).rows[0].d;
  });
  afterAll(() => t.close());

  const analytics = (user: SignedUser, path: string, query: Record<string, string | number> = {}) =>
    t
      .http()
      .get(path)
      .query(query)
      .set(...user.auth());
  const ofSpark = async (query: Record<string, string | number>) =>
    (await analytics(owner.user, `/api/v1/sparks/${owner.sparkId}/analytics`, query).expect(200)).body
      .data as Analytics;

  interface Turn {
    at: Date;
    text: string;
    /** The reply's `data.answer`; none: the question got no reply. */
    answer?: 'answer' | 'notCovered' | 'greeting';
  }
  /** A conversation with its messages written with their own times (the last message's time is its `updated_at`). */
  async function seed(v: {
    sparkId: string;
    userId: string;
    kind: 'test' | 'widget' | 'builder';
    origin?: string;
    turns: Turn[];
  }): Promise<{ id: string; replies: string[] }> {
    const id = randomUUID();
    const first = v.turns[0].at;
    const last = new Date(v.turns[v.turns.length - 1].at.getTime() + 5000);
    await sql.query(
      `INSERT INTO conversations (id, user_id, kind, spark_id, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6)`,
      [id, v.userId, v.kind, v.sparkId, first, last],
    );
    if (v.kind === 'widget') {
      await sql.query(`INSERT INTO visitors (id, spark_id, created_at, last_seen_at) VALUES ($1, $2, $3, $3)`, [
        id,
        v.sparkId,
        first,
      ]);
      await sql.query(
        `INSERT INTO visitor_conversations (conversation_id, visitor_id, spark_id, origin, created_at)
         VALUES ($1, $1, $2, $3, $4)`,
        [id, v.sparkId, v.origin ?? null, first],
      );
    }
    const replies: string[] = [];
    for (const turn of v.turns) {
      const reply = await seedTurn(sql, id, turn);
      if (reply) replies.push(reply);
    }
    return { id, replies };
  }
  const rate = (sparkId: string, messageId: string, rating: 'up' | 'down', when: Date, rater = 'visitor') =>
    sql.query(
      `INSERT INTO answer_feedback (id, spark_id, message_id, rater, rating, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $6)`,
      [randomUUID(), sparkId, messageId, rater, rating, when],
    );

  describe("a Spark's week", () => {
    /** The conversation made through the widget, moved to 22:30 UTC two days ago. */
    let late: Date;

    beforeAll(async () => {
      const { sparkId, userId } = owner;
      // A visitor on the shop asks twice six days ago (one the documents do not cover) and comes back three days ago.
      const a = await seed({
        sparkId,
        userId,
        kind: 'widget',
        origin: SHOP,
        turns: [
          { at: at(6, '12:00:00'), text: 'What are your opening hours?', answer: 'answer' },
          { at: at(6, '12:01:00'), text: 'Do you rent kites?', answer: 'notCovered' },
        ],
      });
      const again = randomUUID();
      await sql.query(
        `INSERT INTO messages (id, conversation_id, type, data, created_at) VALUES ($1, $2, 'human', $3, $4)`,
        [again, a.id, { content: 'What are your opening hours?' }, at(3, '12:00:00')],
      );
      await sql.query(
        `INSERT INTO messages (id, conversation_id, type, data, reply_to, reply_index, created_at)
         VALUES ($1, $2, 'ai', $3, $4, 0, $5)`,
        [randomUUID(), a.id, { content: 'From 9 to 18.', answer: 'answer' }, again, at(3, '12:00:05')],
      );
      await sql.query(`UPDATE conversations SET updated_at = $2 WHERE id = $1`, [a.id, at(3, '12:00:05')]);
      // Four days ago: the owner's test (opened with the start keyword, which is no question), rated up that day; a
      // visitor on another site, rated down the next day.
      const b = await seed({
        sparkId,
        userId,
        kind: 'test',
        turns: [
          { at: at(4, '11:00:00'), text: 'inicio', answer: 'greeting' },
          { at: at(4, '11:01:00'), text: 'What are your opening hours', answer: 'answer' },
        ],
      });
      await rate(sparkId, b.replies[1], 'up', at(4, '12:10:00'), 'owner');
      const c = await seed({
        sparkId,
        userId,
        kind: 'widget',
        origin: OTHER_SITE,
        turns: [{ at: at(4, '12:00:00'), text: 'opening hours?', answer: 'answer' }],
      });
      await rate(sparkId, c.replies[0], 'down', at(3, '09:00:00'));
      // Just before the seven days in UTC began (its reply too).
      await seed({
        sparkId,
        userId,
        kind: 'widget',
        origin: SHOP,
        turns: [{ at: at(7, '23:59:54'), text: 'Can I bring my dog?', answer: 'notCovered' }],
      });
      // The builder chat is not the Spark's use.
      await seed({
        sparkId,
        userId,
        kind: 'builder',
        turns: [{ at: at(4, '10:00:00'), text: 'Change the tone to friendly', answer: 'answer' }],
      });

      // A visitor asks through the widget (the worker answers, the widget records the site), moved to 22:30 UTC two
      // days ago.
      const token = await publishOn(t, owner, SHOP);
      const visitor = (
        await t
          .http()
          .post(`${widgetPath(token)}/visitors`)
          .set('Origin', SHOP)
          .send({})
          .expect(200)
      ).body.data.visitorToken as string;
      const conversationId = (
        await t
          .http()
          .post(`${widgetPath(token)}/conversations`)
          .set('Origin', SHOP)
          .set('Authorization', `Bearer ${visitor}`)
          .expect(201)
      ).body.data.conversationId as string;
      const ai = (
        await t
          .http()
          .post(`${widgetPath(token)}/conversations/${conversationId}/messages`)
          .set('Origin', SHOP)
          .set('Authorization', `Bearer ${visitor}`)
          .send({ text: 'How much does an electric bike cost per day?' })
          .expect(200)
      ).body.data.ai as { data: { answer: string } };
      expect(ai.data.answer).toBe('answer');
      late = at(2, '22:30:00');
      await sql.query(
        `UPDATE messages SET created_at = $2::timestamptz + (created_at - (SELECT min(created_at) FROM messages WHERE conversation_id = $1))
          WHERE conversation_id = $1`,
        [conversationId, late],
      );
      await sql.query(
        `UPDATE conversations SET created_at = $2, updated_at = (SELECT max(created_at) FROM messages WHERE conversation_id = $1)
          WHERE id = $1`,
        [conversationId, late],
      );
      // Another owner's Spark, busy the same days, counts for nobody else.
      const stranger = await createUser(t, { tag: 'analytics-stranger' });
      const strangerId = await userIdOf(sql, stranger.username);
      const theirs = (await createSpark(t, stranger, { name: 'Elsewhere', options: { language: 'en' } }))._id;
      await seed({
        sparkId: theirs,
        userId: strangerId,
        kind: 'widget',
        origin: SHOP,
        turns: [{ at: at(4, '12:00:00'), text: 'What are your opening hours?', answer: 'answer' }],
      });
    });

    it('counts every day of the last seven in UTC: conversations, answers, not covered, ratings; zeros included', async () => {
      const week = await ofSpark({ days: 7, tz: 'UTC' });
      expect(week.period).toEqual({ from: shift(today, -6), to: today, timeZone: 'UTC' });
      expect(week.spark).toEqual({ sparkId: owner.sparkId, name: 'Northwind' });
      expect(week.days).toEqual([
        { ...zeroDay(shift(today, -6)), conversations: 1, answers: 2, notCovered: 1 },
        zeroDay(shift(today, -5)),
        { ...zeroDay(shift(today, -4)), conversations: 2, answers: 2, ratedUp: 1 },
        // The visitor who came back three days ago asked again: an answer that day, the conversation on the day it began.
        { ...zeroDay(shift(today, -3)), answers: 1, ratedDown: 1 },
        { ...zeroDay(shift(today, -2)), conversations: 1, answers: 1 },
        zeroDay(shift(today, -1)),
        zeroDay(today),
      ]);
      // The visitor who came back on another day is one conversation of the week (the days add up to it); the start
      // keyword is no question.
      expect(week.totals).toEqual({
        conversations: 4,
        questions: 6,
        answers: 6,
        notCovered: 1,
        ratedUp: 1,
        ratedDown: 1,
      });
      const hours = Array<number>(24).fill(0);
      hours[11] = 1;
      hours[12] = 4;
      hours[22] = 1;
      expect(week.hours).toEqual(hours);
      // Similar questions together, in their most asked wording; then the newest first.
      expect(week.topQuestions).toEqual([
        { question: 'What are your opening hours?', count: 4 },
        { question: 'How much does an electric bike cost per day?', count: 1 },
        { question: 'Do you rent kites?', count: 1 },
      ]);
      expect(week.sites).toEqual([
        { origin: SHOP, conversations: 2 },
        { origin: OTHER_SITE, conversations: 1 },
      ]);
    });

    it('leaves out a question seconds before the seven days began, and takes it in eight', async () => {
      const eight = await ofSpark({ days: 8, tz: 'UTC' });
      expect(eight.days).toHaveLength(8);
      expect(eight.days[0]).toEqual({ ...zeroDay(shift(today, -7)), conversations: 1, answers: 1, notCovered: 1 });
      expect(eight.totals).toMatchObject({ conversations: 5, questions: 7, notCovered: 2 });
      expect(eight.sites).toEqual([
        { origin: SHOP, conversations: 3 },
        { origin: OTHER_SITE, conversations: 1 },
      ]);
    });

    it("moves days and hours to the owner's time zone", async () => {
      for (const tz of ['Asia/Tokyo', 'America/Los_Angeles']) {
        const zoned = await ofSpark({ days: 12, tz });
        expect(zoned.period.timeZone).toBe(tz);
        expect(zoned.period.to).toBe(localDate(new Date(), tz));
        expect(zoned.days).toHaveLength(12);
        // 22:30 UTC is the next morning in Tokyo and the same afternoon in Los Angeles.
        const lateDay = localDate(late, tz);
        expect(lateDay).toBe(tz === 'Asia/Tokyo' ? shift(today, -1) : shift(today, -2));
        expect(zoned.days.find((d) => d.date === lateDay)).toMatchObject({ conversations: 1, answers: 1 });
        const lateHour = Number(
          new Intl.DateTimeFormat('en-GB', { timeZone: tz, hour: '2-digit', hourCycle: 'h23' }).format(late),
        );
        expect(lateHour).toBe(tz === 'Asia/Tokyo' ? 7 : 22 - (isDst(late, tz) ? 7 : 8));
        expect(zoned.hours[lateHour]).toBe(1);
        expect(zoned.hours[22]).toBe(0);
        // The days' figures add up to the same week, wherever it is seen from (the dog's day included in 12 days).
        expect(zoned.totals).toMatchObject({ conversations: 5, questions: 7, answers: 7 });
        expect(zoned.days.reduce((n, d) => n + d.answers, 0)).toBe(7);
      }
    });

    it('another owner gets 404 for this Spark, and their own figures hold nothing of it', async () => {
      const other = await createUser(t, { tag: 'analytics-other' });
      const refused = await analytics(other, `/api/v1/sparks/${owner.sparkId}/analytics`).expect(404);
      expect(refused.body.errors[0].code).toBe('NOT_FOUND');
      const mine = (await analytics(other, '/api/v1/analytics', { days: 7 }).expect(200)).body.data as Analytics;
      expect(mine.totals).toEqual({
        conversations: 0,
        questions: 0,
        answers: 0,
        notCovered: 0,
        ratedUp: 0,
        ratedDown: 0,
      });
      expect(mine.days).toHaveLength(7);
      expect(mine.sparks).toEqual([]);
      await t.http().get(`/api/v1/sparks/${owner.sparkId}/analytics`).expect(401);
    });

    it('refuses a bad period or time zone with the error envelope', async () => {
      for (const days of ['0', '91', 'seven', '1.5', '-3']) {
        const res = await analytics(owner.user, `/api/v1/sparks/${owner.sparkId}/analytics`, { days }).expect(400);
        expect(res.body.errors).toEqual([expect.objectContaining({ code: 'INVALID_PARAMS', field: 'days' })]);
      }
      for (const tz of ['Mars/Olympus_Mons', '+01:00', "UTC'; DROP TABLE messages; --", 'x'.repeat(65)]) {
        const res = await analytics(owner.user, '/api/v1/analytics', { tz }).expect(400);
        expect(res.body.errors).toEqual([expect.objectContaining({ code: 'INVALID_PARAMS', field: 'tz' })]);
      }
      // Defaults: 30 days in UTC.
      const standard = await ofSpark({});
      expect(standard.days).toHaveLength(30);
      expect(standard.period).toEqual({ from: shift(today, -29), to: today, timeZone: 'UTC' });
      // A zone named another way is answered under its canonical name.
      expect((await ofSpark({ tz: 'europe/madrid', days: 1 })).period.timeZone).toBe('Europe/Madrid');
    });
  });

  it("sums the owner's Sparks, with each one's totals: a test chat answered and rated today", async () => {
    const userId = owner.userId;
    const second = (await createSpark(t, owner.user, { name: 'Helpdesk', options: { language: 'en' } }))._id;
    await addDocument(sql, { sparkId: second, userId, name: 'Handbook.pdf', pages: HANDBOOK, language: 'en' });
    const testId = (await createTest(t, owner.user, second, { name: 'T1' }))._id;
    const ai = (
      await t
        .http()
        .post(`/api/v1/sparks/${second}/chat/${testId}`)
        .set(...owner.user.auth())
        .send({ input: { text: 'How much is a rental per day?' } })
        .expect(201)
    ).body.data.ai as { _id: string; data: { answer: string } };
    expect(ai.data.answer).toBe('answer');
    await t
      .http()
      .post(`/api/v1/sparks/${second}/messages/${ai._id}/feedback`)
      .set(...owner.user.auth())
      .send({ rating: 'up' })
      .expect(200);

    const helpdesk = (await analytics(owner.user, `/api/v1/sparks/${second}/analytics`, { days: 7 }).expect(200)).body
      .data as Analytics;
    expect(helpdesk.days[6]).toEqual({ ...zeroDay(today), conversations: 1, answers: 1, ratedUp: 1 });
    expect(helpdesk.topQuestions).toEqual([{ question: 'How much is a rental per day?', count: 1 }]);
    expect(helpdesk.sites).toEqual([]);

    const all = (await analytics(owner.user, '/api/v1/analytics', { days: 7, tz: 'UTC' }).expect(200)).body
      .data as Analytics;
    expect(all.totals).toEqual({
      conversations: 5,
      questions: 7,
      answers: 7,
      notCovered: 1,
      ratedUp: 2,
      ratedDown: 1,
    });
    expect(all.days[6]).toEqual(helpdesk.days[6]);
    expect(all.sparks).toEqual([
      {
        sparkId: owner.sparkId,
        name: 'Northwind',
        totals: { conversations: 4, questions: 6, answers: 6, notCovered: 1, ratedUp: 1, ratedDown: 1 },
      },
      {
        sparkId: second,
        name: 'Helpdesk',
        totals: { conversations: 1, questions: 1, answers: 1, notCovered: 0, ratedUp: 1, ratedDown: 0 },
      },
    ]);
  });

  it('keeps its rollup in step with the messages: one taken away, the backfill of migration 0024, a conversation deleted', async () => {
    const { sparkId, userId } = owner;
    const before = (await ofSpark({ days: 1, tz: 'UTC' })).totals;
    const now = new Date();
    const c = await seed({
      sparkId,
      userId,
      kind: 'widget',
      origin: SHOP,
      turns: [
        { at: new Date(now.getTime() - 60_000), text: 'Do you fix tandems?', answer: 'notCovered' },
        { at: new Date(now.getTime() - 30_000), text: 'And tricycles?' },
      ],
    });
    const more = {
      ...before,
      conversations: before.conversations + 1,
      questions: before.questions + 2,
      answers: before.answers + 1,
      notCovered: before.notCovered + 1,
    };
    expect((await ofSpark({ days: 1, tz: 'UTC' })).totals).toEqual(more);
    // The question that got no reply taken away (as when handing it to the assistant failed).
    await sql.query(`DELETE FROM messages WHERE conversation_id = $1 AND data->>'content' = 'And tricycles?'`, [c.id]);
    const less = await ofSpark({ days: 1, tz: 'UTC' });
    expect(less.totals).toEqual({ ...more, questions: more.questions - 1 });
    expect(less.topQuestions.map((q) => q.question)).not.toContain('And tricycles?');
    // The migration's backfill, run again on what is there, writes what the triggers wrote for this owner's Sparks
    // (other test files of this database may have deleted conversations, whose counts no backfill can know). In a
    // transaction rolled back: the rollup of the database is left as it was.
    const client = await sql.connect();
    try {
      const mine = (await client.query<{ id: string }>('SELECT id FROM sparks WHERE user_id = $1', [userId])).rows.map(
        (r) => r.id,
      );
      const rollup = async () => ({
        quarters: (
          await client.query(
            `SELECT spark_id, bucket, questions, answers, not_covered FROM analytics_quarters
              WHERE spark_id = ANY($1) AND (questions > 0 OR answers > 0) ORDER BY 1, 2`,
            [mine],
          )
        ).rows,
        conversations: (
          await client.query(
            `SELECT conversation_id, spark_id, kind, origin, started_at FROM analytics_conversations
              WHERE spark_id = ANY($1) ORDER BY 1`,
            [mine],
          )
        ).rows,
        questions: (
          await client.query(`SELECT * FROM analytics_questions WHERE spark_id = ANY($1) ORDER BY message_id`, [mine])
        ).rows,
      });
      const written = await rollup();
      expect(written.conversations.length).toBeGreaterThan(5);
      const migration = fs.readdirSync(MIGRATIONS).find((f) => f.startsWith('0024_'));
      const sqlText = fs.readFileSync(path.join(MIGRATIONS, migration ?? ''), 'utf8');
      const backfill = sqlText
        .slice(sqlText.indexOf('-- Backfill'))
        .split('--> statement-breakpoint')
        .filter((st) => st.includes('INSERT INTO analytics_'));
      expect(backfill).toHaveLength(3);
      await client.query('BEGIN');
      await client.query('DELETE FROM analytics_quarters');
      await client.query('DELETE FROM analytics_conversations');
      await client.query('DELETE FROM analytics_questions');
      for (const st of backfill) await client.query(st);
      const rebuilt = await rollup();
      await client.query('ROLLBACK');
      expect(rebuilt).toEqual(written);
    } finally {
      client.release();
    }
    // A visitor's conversation deleted (by the visitor or the retention sweep): its words go, its numbers stay.
    await sql.query('DELETE FROM conversations WHERE id = $1', [c.id]);
    const after = await ofSpark({ days: 1, tz: 'UTC' });
    expect(after.totals).toEqual(less.totals);
    expect(after.topQuestions.map((q) => q.question)).not.toContain('Do you fix tandems?');
    expect(after.sites).toEqual(less.sites);
  });
});

/** Whether Daylight Saving Time is in force at `at` in `tz` (its offset is smaller than in January). */
function isDst(at: Date, tz: string): boolean {
  const offset = (d: Date) => {
    const parts = new Intl.DateTimeFormat('en-US', { timeZone: tz, timeZoneName: 'shortOffset' })
      .formatToParts(d)
      .find((p) => p.type === 'timeZoneName')?.value;
    return Number(/GMT([+-]\d+)?/.exec(parts ?? '')?.[1] ?? 0);
  };
  return offset(at) > offset(new Date(Date.UTC(at.getUTCFullYear(), 0, 1)));
}
