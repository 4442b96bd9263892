import { randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import { JobProducer } from '@sparks/queues';
import { Redis } from 'ioredis';
import { userIdOf } from './fixtures/knowledge';
import { createSpark, createUser, type SignedUser } from './factories';
import { seedTurn } from './support/seed-turns';
import { eventually, startApp, waitForMail, type TestApp } from './harness';

/**
 * The weekly digest e-mail (issue 35 item 4) against the real api, worker and PostgreSQL: the profile's time zone and
 * weekly e-mail setting (`PATCH /account/profile`, validated), and `digest.sweep` run by the real worker as of a chosen
 * instant. An owner in Tokyo with a week of activity gets one digest in Spanish with the week's figures (the week read
 * in their zone) on Monday 09:00 there, and no second one; an owner who turned it off, and one whose week was empty,
 * get none; an owner without a zone gets theirs when Monday 08:00 comes in UTC.
 *
 * The sweeps run as of a Monday years ahead (the week seeded before it), so that no user of another test file (their
 * zone is UTC, their activity now) is due, and no real hourly sweep has already handled that week.
 */

const sql = new Pool({ connectionString: process.env.DATABASE_URL, max: 2 });
sql.on('error', () => undefined);
afterAll(() => sql.end());

/** Monday 3 March 2031: 09:00 in Tokyo (UTC+9, no summer time) is Monday 00:00 UTC, still night in UTC. */
const MONDAY = '2031-03-03';
const TOKYO_9 = '2031-03-03T00:00:00.000Z';
const TOKYO_10 = '2031-03-03T01:00:00.000Z';
/** Monday 08:00 UTC: the digest of an owner without a zone. */
const UTC_8 = '2031-03-03T08:00:00.000Z';
const APP_URL = process.env.APP_URL ?? 'http://localhost:3000';

interface DigestOutcome {
  sent: number;
  empty: number;
  taken: number;
  failed: number;
}
interface Mail {
  subject: string;
  text: string;
  html: string | null;
  language: string;
}

/** Writes a test conversation of a Spark with its messages at their own times; answers the replies' ids. */
async function seed(v: {
  sparkId: string;
  userId: string;
  turns: Array<{ at: string; text: string; answer: 'answer' | 'notCovered' }>;
}): Promise<string[]> {
  const id = randomUUID();
  const last = new Date(Date.parse(v.turns[v.turns.length - 1].at) + 5000);
  await sql.query(
    `INSERT INTO conversations (id, user_id, kind, spark_id, created_at, updated_at) VALUES ($1, $2, 'test', $3, $4, $5)`,
    [id, v.userId, v.sparkId, v.turns[0].at, last],
  );
  const replies: string[] = [];
  for (const turn of v.turns) replies.push((await seedTurn(sql, id, turn)) as string);
  return replies;
}

const rate = (sparkId: string, messageId: string, rating: 'up' | 'down', at: string) =>
  sql.query(
    `INSERT INTO answer_feedback (id, spark_id, message_id, rater, rating, created_at, updated_at)
     VALUES ($1, $2, $3, 'visitor', $4, $5, $5)`,
    [randomUUID(), sparkId, messageId, rating, at],
  );

const digestsTo = async (user: SignedUser): Promise<Mail[]> =>
  (
    await sql.query<Mail>(
      `SELECT subject, text, html, language FROM outbound_emails
        WHERE "to" = $1 AND (subject LIKE 'Your Sparks this week%' OR subject LIKE 'Tus Sparks esta semana%')
        ORDER BY created_at`,
      [user.username.toLowerCase()],
    )
  ).rows;

const sentOn = async (user: SignedUser): Promise<string | null> =>
  (
    await sql.query<{ d: string | null }>(`SELECT digest_sent_on::text AS d FROM users WHERE username = $1`, [
      user.username,
    ])
  ).rows[0].d;

describe('the weekly digest (real worker)', () => {
  let t: TestApp;
  let redis: Redis;
  let jobs: JobProducer;

  beforeAll(async () => {
    t = await startApp();
    redis = new Redis(process.env.REDIS_URL!, { maxRetriesPerRequest: null });
    jobs = new JobProducer(redis, process.env.QUEUE_PREFIX!);
  });
  afterAll(async () => {
    await jobs.close();
    redis.disconnect();
    await t.close();
  });

  const profile = (user: SignedUser) =>
    t
      .http()
      .get('/api/v1/account/profile')
      .set(...user.auth());
  const patch = (user: SignedUser, body: Record<string, unknown>) =>
    t
      .http()
      .patch('/api/v1/account/profile')
      .set(...user.auth())
      .send(body);

  /** Queues a sweep as of `requestedAt` and waits for the worker to finish it; answers its outcome. */
  async function sweep(requestedAt: string): Promise<DigestOutcome> {
    const id = await jobs.enqueue('digest.sweep', { requestedAt });
    return eventually(async () => {
      const job = await jobs.queue('digest').getJob(id);
      const state = await job?.getState();
      if (state === 'failed') throw new Error(`the sweep failed: ${job?.failedReason}`);
      return state === 'completed' ? (job!.returnvalue as DigestOutcome) : undefined;
    }, 30_000);
  }

  describe('the profile: time zone and weekly e-mail', () => {
    it('has no zone and the digest on at first; takes an IANA zone under its canonical name, and the switch', async () => {
      const u = await createUser(t, { tag: 'digest-profile', language: 'es' });
      expect((await profile(u).expect(200)).body.data).toMatchObject({ timeZone: null, weeklyDigest: true });
      const set = await patch(u, { timeZone: 'asia/tokyo', weeklyDigest: false }).expect(200);
      expect(set.body.data).toMatchObject({ timeZone: 'Asia/Tokyo', weeklyDigest: false });
      // Only what is sent changes.
      const again = await patch(u, { weeklyDigest: true }).expect(200);
      expect(again.body.data).toMatchObject({ timeZone: 'Asia/Tokyo', weeklyDigest: true, config: { language: 'es' } });
    });

    it('refuses a zone that is not one (400 TIME_ZONE_INVALID, in the user’s language) and a switch that is not one', async () => {
      const u = await createUser(t, { tag: 'digest-refused', language: 'es' });
      await patch(u, { timeZone: 'Europe/Madrid' }).expect(200);
      for (const timeZone of ['Mars/Olympus_Mons', '+01:00', 'GMT+1', "UTC'; DROP TABLE users; --", '']) {
        const res = await patch(u, { timeZone }).expect(400);
        expect(res.body.errors).toEqual([
          {
            code: 'TIME_ZONE_INVALID',
            field: 'timeZone',
            message: 'Elige una zona horaria de la lista, como Europe/Madrid',
          },
        ]);
      }
      // Longer than any zone's name (64): refused as too long, before it is looked up.
      for (const body of [
        { timeZone: 'x'.repeat(65) },
        { timeZone: 42 },
        { timeZone: null },
        { weeklyDigest: 'no' },
        { weeklyDigest: 1 },
      ]) {
        const res = await patch(u, body).expect(400);
        expect(res.body.errors[0]).toMatchObject({ code: 'INVALID_PARAMS', field: Object.keys(body)[0] });
      }
      expect((await profile(u).expect(200)).body.data).toMatchObject({ timeZone: 'Europe/Madrid', weeklyDigest: true });
      // Unsigned: 401.
      await t.http().patch('/api/v1/account/profile').send({ timeZone: 'UTC' }).expect(401);
    });
  });

  describe('the sweep', () => {
    let active: SignedUser;
    let off: SignedUser;
    let quiet: SignedUser;
    let utc: SignedUser;

    /** A verified owner with a Spark, in `zone` (none: left without one). */
    async function owner(tag: string, language: 'es' | 'en', zone?: string, spark = 'Bakery & Co <Madrid>') {
      const user = await createUser(t, { tag, language });
      if (zone) await patch(user, { timeZone: zone }).expect(200);
      const sparkId = (await createSpark(t, user, { name: spark, options: { language: 'en' } }))._id;
      return { user, sparkId, userId: await userIdOf(sql, user.username) };
    }

    beforeAll(async () => {
      // Tokyo's week before that Monday: Monday 24 February 00:00 to Sunday 2 March 24:00 (15:00 UTC the day before).
      const a = await owner('digest-active', 'es', 'Asia/Tokyo');
      active = a.user;
      // Monday 10:00 in Tokyo: two questions, one the documents do not cover (rated down the next day).
      const first = await seed({
        ...a,
        turns: [
          { at: '2031-02-24T01:00:00Z', text: 'What are your opening hours?', answer: 'answer' },
          { at: '2031-02-24T01:01:00Z', text: 'Do you rent kites?', answer: 'notCovered' },
        ],
      });
      await rate(a.sparkId, first[1], 'down', '2031-02-25T03:00:00Z');
      // Monday 00:30 in Tokyo, still Sunday in UTC: in Tokyo's week, not in UTC's.
      await seed({
        ...a,
        turns: [
          { at: '2031-02-23T15:30:00Z', text: 'Can I pay by card?', answer: 'answer' },
          { at: '2031-02-23T15:31:00Z', text: 'What are your opening hours?', answer: 'answer' },
        ],
      });
      // Sunday 23:30 in Tokyo: the week's last hour, rated up then.
      const last = await seed({
        ...a,
        turns: [{ at: '2031-03-02T14:30:00Z', text: 'What are your opening hours?', answer: 'answer' }],
      });
      await rate(a.sparkId, last[0], 'up', '2031-03-02T14:40:00Z');
      // Monday 08:30 in Tokyo, still Sunday in UTC: the new week, not told.
      await seed({
        ...a,
        turns: [{ at: '2031-03-02T23:30:00Z', text: 'Is this too late?', answer: 'answer' }],
      });

      // Turned off, with a busy week.
      const o = await owner('digest-off', 'en', 'Asia/Tokyo');
      off = o.user;
      await patch(off, { weeklyDigest: false }).expect(200);
      await seed({ ...o, turns: [{ at: '2031-02-26T01:00:00Z', text: 'Hello?', answer: 'answer' }] });

      // A Spark, a zone, and nothing happened.
      quiet = (await owner('digest-quiet', 'en', 'Asia/Tokyo')).user;

      // No zone (UTC), with a week in UTC's.
      const u = await owner('digest-utc', 'en', undefined, 'Helpdesk');
      utc = u.user;
      await seed({ ...u, turns: [{ at: '2031-02-27T12:00:00Z', text: 'Where are you?', answer: 'notCovered' }] });
    });

    it('sends the Tokyo owner one digest in Spanish on Monday 09:00 there, with the week read in their zone', async () => {
      const outcome = await sweep(TOKYO_9);
      expect(outcome).toMatchObject({ sent: 1, failed: 0 });
      expect(outcome.empty).toBeGreaterThanOrEqual(1);

      const mail = await waitForMail(t, active.username, (m) => m.subject.startsWith('Tus Sparks esta semana'));
      expect(mail.subject).toBe('Tus Sparks esta semana: 3 conversaciones');
      expect(mail.text).toContain('del 24 de febrero de 2031 al 2 de marzo de 2031');
      expect(mail.text).toContain('- Conversaciones: 3');
      // Five answers, one not covered: 80 % from the documents (Spanish puts a no-break space before the sign).
      expect(mail.text).toContain('- Respuestas: 5, el 80\u00a0% a partir de tus documentos');
      expect(mail.text).toContain('- No cubiertas por tus documentos: 1');
      expect(mail.text).toContain('- Respuestas valoradas bien: 1; valoradas mal: 1');
      expect(mail.text).toContain('- Bakery & Co <Madrid>: 3 conversaciones, 5 respuestas, 1 sin cubrir');
      expect(mail.text).toContain('1. What are your opening hours? (3 veces)');
      expect(mail.text).toMatch(/2\. (Can I pay by card\?|Do you rent kites\?) \(una vez\)/);
      expect(mail.text).not.toContain('Is this too late?');
      expect(mail.text).toContain(`${APP_URL}/analytics`);
      expect(mail.text).toContain(`${APP_URL}/profile`);

      const [stored] = await digestsTo(active);
      expect(stored.language).toBe('es');
      expect(stored.html).toContain(
        '<li>Bakery &amp; Co &lt;Madrid&gt;: 3 conversaciones, 5 respuestas, 1 sin cubrir</li>',
      );
      expect(stored.html).toContain(`<a href="${APP_URL}/profile">`);
      expect(await sentOn(active)).toBe(MONDAY);
    });

    it('sends nothing more on a second sweep, to the owner who turned it off, or for an empty week', async () => {
      const outcome = await sweep(TOKYO_10);
      expect(outcome).toMatchObject({ sent: 0, failed: 0 });
      expect(await digestsTo(active)).toHaveLength(1);
      // Turned off: never claimed, nothing sent.
      expect(await digestsTo(off)).toEqual([]);
      expect(await sentOn(off)).toBeNull();
      // An empty week: decided (claimed) and nothing sent.
      expect(await digestsTo(quiet)).toEqual([]);
      expect(await sentOn(quiet)).toBe(MONDAY);
      // Without a zone the owner's Monday is UTC's, not come yet.
      expect(await digestsTo(utc)).toEqual([]);
      expect(await sentOn(utc)).toBeNull();
    });

    it("sends the owner without a zone theirs at 08:00 UTC, in English, the week of UTC's days", async () => {
      expect(await sweep(UTC_8)).toMatchObject({ sent: 1, failed: 0 });
      const mail = await waitForMail(t, utc.username, (m) => m.subject.startsWith('Your Sparks this week'));
      expect(mail.subject).toBe('Your Sparks this week: 1 conversation');
      expect(mail.text).toContain('from February 24, 2031 to March 2, 2031');
      expect(mail.text).toContain('- Helpdesk: 1 conversation, 1 answer, 1 not covered');
      expect(mail.text).toContain('1. Where are you? (once)');
      expect(await sentOn(utc)).toBe(MONDAY);
      // The others still have what they had.
      expect(await digestsTo(active)).toHaveLength(1);
      expect(await digestsTo(off)).toEqual([]);
      expect(await digestsTo(quiet)).toEqual([]);
    });
  });
});
