import { MAX_TRANSCRIPTS_PER_SPARK } from '@sparks/contracts';
import { Pool } from 'pg';
import { addDocument, userIdOf } from './fixtures/knowledge';
import { createUser, startApp, type SignedUser, type TestApp } from './harness';
import { createSpark, createTest } from './factories';

/**
 * Transcripts of judged tests (issue 35 item 2) against the real api, worker, PostgreSQL and Redis: the owner answers
 * "Was the test OK?" (DELETE of the test with its verdict), the test goes and its conversation stays, with the test's
 * name and the verdict, to read and rate; a rating down puts the question on the review list. Nothing is kept without
 * a verdict or without a question; a Spark keeps its newest MAX_TRANSCRIPTS_PER_SPARK; another owner reaches none.
 */

const sql = new Pool({ connectionString: process.env.DATABASE_URL, max: 2 });
sql.on('error', () => undefined);
afterAll(() => sql.end());

const HANDBOOK = [
  'Welcome to Northwind Bikes. We repair and rent bicycles in Portland.',
  'Rentals cost 25 dollars per day, helmet and lock included. Electric bikes cost 45 dollars per day.',
];

interface Message {
  _id: string;
  type: string;
  data: { content: string; answer?: string };
  feedback?: { rating: string; comment: string | null };
}
interface Summary {
  conversationId: string;
  title: string;
  verdict: 'satisfactory' | 'unsatisfactory';
  judgedAt: string;
  questions: number;
}
interface Transcript extends Omit<Summary, 'questions'> {
  messages: Message[];
}

describe('transcripts of judged tests (real worker)', () => {
  let t: TestApp;
  let user: SignedUser;
  let sparkId: string;
  beforeAll(async () => {
    t = await startApp();
    user = await createUser(t, { tag: 'transcripts' });
    const userId = await userIdOf(sql, user.username);
    sparkId = (await createSpark(t, user, { name: 'Northwind', options: { language: 'en' } }))._id;
    await addDocument(sql, { sparkId, userId, name: 'Handbook.pdf', pages: HANDBOOK, language: 'en' });
  });
  afterAll(() => t.close());

  const api = () => t.http();
  const list = async (who: SignedUser = user, spark = sparkId) =>
    (
      await api()
        .get(`/api/v1/sparks/${spark}/transcripts`)
        .set(...who.auth())
        .expect(200)
    ).body.data as Summary[];
  const read = async (conversationId: string) =>
    (
      await api()
        .get(`/api/v1/sparks/${sparkId}/transcripts/${conversationId}`)
        .set(...user.auth())
        .expect(200)
    ).body.data as Transcript;
  const ask = async (testId: string, text: string) =>
    (
      await api()
        .post(`/api/v1/sparks/${sparkId}/chat/${testId}`)
        .set(...user.auth())
        .send({ input: { text } })
        .expect(201)
    ).body.data as { ai: Message; conversationId: string };
  /** Opens the test's chat as the app does: the start keyword, answered with the greeting. */
  const open = (testId: string) =>
    api()
      .post(`/api/v1/sparks/${sparkId}/tests/${testId}/restart`)
      .set(...user.auth())
      .expect(201);
  const judge = (testId: string, verdict?: string, spark = sparkId) =>
    api()
      .delete(`/api/v1/sparks/${spark}/tests/${testId}`)
      .query(verdict ? { verdict } : {})
      .set(...user.auth());
  const conversationsOf = async (ids: string[]) =>
    (await sql.query('SELECT id, test_id FROM conversations WHERE id = ANY($1::uuid[])', [ids])).rows as Array<{
      id: string;
      test_id: string | null;
    }>;

  let kept: Summary;
  let answer: Message;

  it('judged with a verdict: the test goes, its conversation stays with the name, the verdict and what was said', async () => {
    const test = await createTest(t, user, sparkId, { name: 'Prices' });
    await open(test._id);
    const asked = await ask(test._id, 'How much does an electric bike cost?');
    answer = asked.ai;
    expect(answer.data.answer).toBe('answer');

    const before = Date.now();
    expect((await judge(test._id, 'unsatisfactory').expect(200)).body.data).toEqual({ deleted: true });
    await api()
      .get(`/api/v1/sparks/${sparkId}/tests/${test._id}`)
      .set(...user.auth())
      .expect(404);

    const [summary, ...rest] = await list();
    expect(rest).toEqual([]);
    expect(summary).toEqual({
      conversationId: asked.conversationId,
      title: 'Prices',
      verdict: 'unsatisfactory',
      judgedAt: expect.any(String),
      // The start keyword that opened the chat is not a question.
      questions: 1,
    });
    expect(Date.parse(summary.judgedAt)).toBeGreaterThan(before - 60_000);
    kept = summary;

    const transcript = await read(summary.conversationId);
    expect(transcript).toMatchObject({
      conversationId: asked.conversationId,
      title: 'Prices',
      verdict: 'unsatisfactory',
    });
    // As the test chat showed it: the greeting, the question and its answer; the start keyword hidden.
    const humans = transcript.messages.filter((m) => m.type === 'human').map((m) => m.data.content);
    expect(humans).toEqual(['How much does an electric bike cost?']);
    expect(transcript.messages.find((m) => m._id === answer._id)?.data.content).toBe(answer.data.content);
    expect(transcript.messages.filter((m) => m.type === 'ai').length).toBeGreaterThanOrEqual(2);
    expect(await conversationsOf([asked.conversationId])).toEqual([{ id: asked.conversationId, test_id: null }]);
  });

  it("rating a transcript's answer down puts its question on the review list; the transcript shows the rating", async () => {
    await api()
      .post(`/api/v1/sparks/${sparkId}/messages/${answer._id}/feedback`)
      .set(...user.auth())
      .send({ rating: 'down', comment: 'It is 50 dollars now.' })
      .expect(200);
    const groups = (
      await api()
        .get(`/api/v1/sparks/${sparkId}/unanswered`)
        .set(...user.auth())
        .expect(200)
    ).body.data as Array<Record<string, unknown>>;
    expect(groups).toEqual([
      expect.objectContaining({
        question: 'How much does an electric bike cost?',
        reason: 'ratedDown',
        ratedBy: 'owner',
        comment: 'It is 50 dollars now.',
        answerGiven: answer.data.content,
      }),
    ]);
    const rated = (await read(kept.conversationId)).messages.find((m) => m._id === answer._id);
    expect(rated?.feedback).toEqual({ rating: 'down', comment: 'It is 50 dollars now.' });
  });

  it('nothing is kept when the test is deleted without a verdict, or judged without a question', async () => {
    const deleted = await createTest(t, user, sparkId, { name: 'Deleted' });
    const asked = await ask(deleted._id, 'Do you repair tyres?');
    await judge(deleted._id).expect(200);

    const silent = await createTest(t, user, sparkId, { name: 'Silent' });
    const opened = (await open(silent._id)).body.data as { conversationId: string };
    await judge(silent._id, 'satisfactory').expect(200);

    expect((await list()).map((s) => s.conversationId)).toEqual([kept.conversationId]);
    expect(await conversationsOf([asked.conversationId, opened.conversationId])).toEqual([]);
  });

  it('a bad verdict is refused and the test stays', async () => {
    const test = await createTest(t, user, sparkId, { name: 'Stays' });
    const res = await judge(test._id, 'meh').expect(400);
    expect(res.body.errors).toEqual([expect.objectContaining({ code: 'INVALID_PARAMS', field: 'verdict' })]);
    await api()
      .get(`/api/v1/sparks/${sparkId}/tests/${test._id}`)
      .set(...user.auth())
      .expect(200);
    await judge(test._id).expect(200);
  });

  it("another owner reaches none of it, through the owner's Spark or their own", async () => {
    const other = await createUser(t, { tag: 'transcripts-other' });
    const theirs = (await createSpark(t, other, { name: 'Other', options: { language: 'en' } }))._id;
    for (const spark of [sparkId, theirs]) {
      await api()
        .get(`/api/v1/sparks/${spark}/transcripts/${kept.conversationId}`)
        .set(...other.auth())
        .expect(404);
      await api()
        .delete(`/api/v1/sparks/${spark}/transcripts/${kept.conversationId}`)
        .set(...other.auth())
        .expect(404);
    }
    await api()
      .get(`/api/v1/sparks/${sparkId}/transcripts`)
      .set(...other.auth())
      .expect(404);
    expect(await list(other, theirs)).toEqual([]);
    // Nor judge the owner's test.
    const test = await createTest(t, user, sparkId, { name: 'Mine' });
    await api()
      .delete(`/api/v1/sparks/${sparkId}/tests/${test._id}`)
      .query({ verdict: 'satisfactory' })
      .set(...other.auth())
      .expect(404);
    await judge(test._id).expect(200);
    expect((await list()).map((s) => s.conversationId)).toEqual([kept.conversationId]);
  });

  it(`a Spark keeps its ${MAX_TRANSCRIPTS_PER_SPARK} newest transcripts: one more deletes the oldest`, async () => {
    const userId = await userIdOf(sql, user.username);
    const spark = (await createSpark(t, user, { name: 'Many', options: { language: 'en' } }))._id;
    const judged: string[] = [];
    for (let n = 1; n <= MAX_TRANSCRIPTS_PER_SPARK + 1; n++) {
      const test = await createTest(t, user, spark, { name: `Test ${n}` });
      // A conversation with a question, written as the chat writes it (no answer needed to keep it).
      const { rows } = await sql.query(
        `INSERT INTO conversations (id, user_id, kind, spark_id, test_id) VALUES (gen_random_uuid(), $1, 'test', $2, $3)
         RETURNING id`,
        [userId, spark, test._id],
      );
      const conversationId = (rows as Array<{ id: string }>)[0].id;
      await sql.query(
        `INSERT INTO messages (id, conversation_id, type, data) VALUES (gen_random_uuid(), $1, 'human', $2)`,
        [conversationId, { content: `Question ${n}?` }],
      );
      await judge(test._id, 'satisfactory', spark).expect(200);
      judged.push(conversationId);
    }
    const kept20 = await list(user, spark);
    expect(kept20).toHaveLength(MAX_TRANSCRIPTS_PER_SPARK);
    expect(kept20.map((s) => s.conversationId)).toEqual(judged.slice(1).reverse());
    expect(kept20[0]).toMatchObject({ title: `Test ${MAX_TRANSCRIPTS_PER_SPARK + 1}`, questions: 1 });
    expect(await conversationsOf([judged[0]])).toEqual([]);
    // The other Spark's transcript is not counted with these.
    expect((await list()).map((s) => s.conversationId)).toEqual([kept.conversationId]);
  });

  it('the owner deletes a transcript', async () => {
    const deleted = await api()
      .delete(`/api/v1/sparks/${sparkId}/transcripts/${kept.conversationId}`)
      .set(...user.auth())
      .expect(200);
    expect(deleted.body.data).toEqual({ deleted: true });
    expect(await list()).toEqual([]);
    await api()
      .get(`/api/v1/sparks/${sparkId}/transcripts/${kept.conversationId}`)
      .set(...user.auth())
      .expect(404);
    await api()
      .delete(`/api/v1/sparks/${sparkId}/transcripts/${kept.conversationId}`)
      .set(...user.auth())
      .expect(404);
    expect(await conversationsOf([kept.conversationId])).toEqual([]);
  });
});
