import { MAX_CHECKS_PER_SPARK } from '@sparks/contracts';
import { Pool } from 'pg';
import { makePdf } from './fixtures/pdfs';
import { userIdOf } from './fixtures/knowledge';
import { createUser, eventually, startApp, type SignedUser, type TestApp } from './harness';
import { createSpark, createTest } from './factories';

/**
 * Answer checks (issue 35 item 3) against the real api, worker, PostgreSQL and Redis: the owner keeps a test's answer
 * as a check; when the Spark's document is replaced, the worker asks it again, records the new answer and the Spark's
 * chat shows the approved and the new answer side by side with a button to the checks, once; the owner approves it.
 * Checks never count as interactions; another owner reaches none of it; a Spark keeps at most 50.
 */

const sql = new Pool({ connectionString: process.env.DATABASE_URL, max: 2 });
sql.on('error', () => undefined);
afterAll(() => sql.end());

interface Check {
  id: string;
  question: string;
  expected: string;
  origin: string;
  status: 'pending' | 'same' | 'changed';
  latest: string | null;
  checkedAt: string | null;
}
interface Message {
  _id: string;
  type: string;
  data: { content: string; type?: string; answer?: string; buttons?: Array<{ label: string; goto?: string }> };
}

const pricesPdf = (price: number) =>
  makePdf([
    {
      heading: 'Northwind Bikes prices',
      paragraphs: [
        [`Electric bikes cost ${price} dollars per day.`, 'Rentals cost 25 dollars per day, helmet included.'],
      ],
    },
  ]);

describe('answer checks: asked again when the knowledge changes (real worker)', () => {
  let t: TestApp;
  let user: SignedUser;
  let userId: string;
  let sparkId: string;
  let testId: string;
  beforeAll(async () => {
    t = await startApp();
    user = await createUser(t, { tag: 'checks' });
    userId = await userIdOf(sql, user.username);
    sparkId = (await createSpark(t, user, { name: 'Northwind', options: { language: 'en' } }))._id;
    testId = (await createTest(t, user, sparkId, { name: 'T1' }))._id;
  });
  afterAll(() => t.close());

  const api = () => t.http();
  const checks = async (who: SignedUser = user) =>
    (
      await api()
        .get(`/api/v1/sparks/${sparkId}/checks`)
        .set(...who.auth())
        .expect(200)
    ).body.data as Check[];
  const builderChat = async () =>
    (
      await api()
        .get(`/api/v1/sparks/${sparkId}/conversation`)
        .set(...user.auth())
        .expect(200)
    ).body.data as { sessionId: string; messages: Message[] };
  const documents = async () =>
    (
      await api()
        .get(`/api/v1/sparks/${sparkId}/documents`)
        .set(...user.auth())
        .expect(200)
    ).body.data as Array<{ _id: string; status: string }>;
  const upload = async (pdf: Buffer, conversationId: string) => {
    await api()
      .post('/api/v1/bucket')
      .set(...user.auth())
      .field('sparkId', sparkId)
      .field('conversationId', conversationId)
      .attach('file', pdf, { filename: 'prices.pdf', contentType: 'application/pdf' })
      .expect(201);
    await eventually(async () => (await documents()).every((d) => d.status === 'completed'), 30_000);
  };
  const usage = async () =>
    Number(
      (
        await sql.query(
          'SELECT count(*) AS n FROM usage_events e JOIN tenants t ON t.id = e.tenant_id WHERE t.user_id = $1',
          [userId],
        )
      ).rows[0].n,
    );

  it('a kept answer is checked; the document replaced, the change is recorded and told in the chat once; approved, it is the new answer', async () => {
    const { sessionId } = await builderChat();
    await upload(await pricesPdf(45), sessionId);
    const ai = (
      await api()
        .post(`/api/v1/sparks/${sparkId}/chat/${testId}`)
        .set(...user.auth())
        .send({ input: { text: 'How much does an electric bike cost?' } })
        .expect(201)
    ).body.data.ai as Message;
    expect(ai.data.content).toContain('45 dollars');

    const kept = await api()
      .post(`/api/v1/sparks/${sparkId}/checks`)
      .set(...user.auth())
      .send({ messageId: ai._id })
      .expect(201);
    expect(kept.body.data).toMatchObject({
      question: 'How much does an electric bike cost?',
      expected: ai.data.content,
      origin: 'rating',
      status: 'pending',
    });
    // Kept, it is asked at once: the same answer.
    await eventually(async () => (await checks())[0].status === 'same', 30_000);
    const interactions = await usage();

    // The document is replaced: the old one removed, the new price read.
    const [old] = await documents();
    await api()
      .delete(`/api/v1/sparks/${sparkId}/documents/${old._id}`)
      .set(...user.auth())
      .expect(200);
    await upload(await pricesPdf(50), sessionId);
    const [changed] = await eventually(async () => {
      const list = await checks();
      return list[0].status === 'changed' && list[0].latest?.includes('50 dollars') ? list : undefined;
    }, 30_000);
    expect(changed.expected).toContain('45 dollars');

    // The Spark's chat shows both answers side by side, and a button to the checks.
    const told = async () => (await builderChat()).messages.filter((m) => m.data.type === 'checks');
    const [message] = await eventually(async () => ((await told()).length > 0 ? told() : undefined), 15_000);
    expect(message.data.content).toContain('1 of your checks got another answer');
    expect(message.data.content).toMatch(
      /\*\*How much does an electric bike cost\?\*\*\n\n\| Approved answer \| Answer now \|\n\| --- \| --- \|\n\| [^|]*45 dollars[^|]* \| [^|]*50 dollars[^|]* \|/,
    );
    const after = (await builderChat()).messages;
    const buttons = after[after.findIndex((m) => m._id === message._id) + 1];
    expect(buttons.data).toMatchObject({
      type: 'buttons',
      buttons: [{ label: 'Review the checks', goto: `/spark/${sparkId}?review=checks` }],
    });

    // Asked again with nothing changed: the same change is not told twice.
    const before = changed.checkedAt;
    await api()
      .post(`/api/v1/sparks/${sparkId}/check-runs`)
      .set(...user.auth())
      .expect(202);
    await eventually(async () => (await checks())[0].checkedAt !== before, 30_000);
    expect(await told()).toHaveLength(1);
    // Checks are never interactions.
    expect(await usage()).toBe(interactions);

    // Approved: the new answer is the check's answer.
    const approved = await api()
      .post(`/api/v1/sparks/${sparkId}/checks/${changed.id}/approve`)
      .set(...user.auth())
      .expect(200);
    expect(approved.body.data).toMatchObject({ status: 'same', expected: changed.latest });
  }, 120_000);

  it('a typed check replaces the same question’s; another owner reaches none; a Spark keeps at most 50', async () => {
    const typed = await api()
      .post(`/api/v1/sparks/${sparkId}/checks`)
      .set(...user.auth())
      .send({ question: 'Is a helmet included?', answer: 'Yes, with every rental.' })
      .expect(201);
    expect(typed.body.data).toMatchObject({ origin: 'owner', status: 'pending' });
    // The same question in other words: one check, its answer replaced.
    const again = await api()
      .post(`/api/v1/sparks/${sparkId}/checks`)
      .set(...user.auth())
      .send({ question: 'is a HELMET included', answer: 'Yes, a helmet and a lock.', origin: 'fix' })
      .expect(201);
    expect(again.body.data).toMatchObject({ id: typed.body.data.id, expected: 'Yes, a helmet and a lock.' });

    const other = await createUser(t, { tag: 'checks-other' });
    await api()
      .get(`/api/v1/sparks/${sparkId}/checks`)
      .set(...other.auth())
      .expect(404);
    await api()
      .post(`/api/v1/sparks/${sparkId}/checks/${typed.body.data.id}/approve`)
      .set(...other.auth())
      .expect(404);
    await api()
      .delete(`/api/v1/sparks/${sparkId}/checks/${typed.body.data.id}`)
      .set(...other.auth())
      .expect(404);
    const theirs = (await createSpark(t, other, { name: 'Other', options: { language: 'en' } }))._id;
    const history = (
      await api()
        .get(`/api/v1/sparks/${sparkId}/tests/${testId}/conversation`)
        .set(...user.auth())
        .expect(200)
    ).body.data.messages as Message[];
    const answer = history.find((m) => m.data.answer === 'answer');
    await api()
      .post(`/api/v1/sparks/${theirs}/checks`)
      .set(...other.auth())
      .send({ messageId: answer?._id })
      .expect(404);
    // Bad bodies.
    await api()
      .post(`/api/v1/sparks/${sparkId}/checks`)
      .set(...user.auth())
      .send({ question: '  ', answer: 'x' })
      .expect(400);
    await api()
      .post(`/api/v1/sparks/${sparkId}/checks`)
      .set(...user.auth())
      .send({ messageId: answer?._id, question: 'both' })
      .expect(400);

    // Up to the limit (filled through SQL), a new question is refused, the same question still replaced.
    const count = (await checks()).length;
    await sql.query(
      `INSERT INTO spark_checks (id, spark_id, question, question_key, expected, origin)
       SELECT gen_random_uuid(), $1, 'Question ' || i, 'q' || i, 'Answer', 'owner' FROM generate_series(1, $2::int) i`,
      [sparkId, MAX_CHECKS_PER_SPARK - count],
    );
    const full = await api()
      .post(`/api/v1/sparks/${sparkId}/checks`)
      .set(...user.auth())
      .send({ question: 'Do you rent tandems?', answer: 'No.' })
      .expect(409);
    expect(full.body.errors[0]).toMatchObject({ code: 'CHECKS_LIMIT' });
    await api()
      .post(`/api/v1/sparks/${sparkId}/checks`)
      .set(...user.auth())
      .send({ question: 'Is a helmet included?', answer: 'Yes.' })
      .expect(201);
    await api()
      .delete(`/api/v1/sparks/${sparkId}/checks/${typed.body.data.id}`)
      .set(...user.auth())
      .expect(200);
    expect((await checks()).length).toBe(MAX_CHECKS_PER_SPARK - 1);
  });
});
