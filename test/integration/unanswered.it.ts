import { Pool } from 'pg';
import { addDocument, userIdOf } from './fixtures/knowledge';
import { createUser, startApp, type SignedUser, type TestApp } from './harness';
import { createSpark, createTest } from './factories';

const sql = new Pool({ connectionString: process.env.DATABASE_URL, max: 2 });
sql.on('error', () => undefined);
afterAll(() => sql.end());

const SHOP = 'http://shop.localhost:8081';
const HANDBOOK = [
  'Welcome to Northwind Bikes. We repair and rent bicycles in Portland.',
  'Rentals cost 25 dollars per day, helmet and lock included. Electric bikes cost 45 dollars per day.',
];
const CATALOGO = [
  'Bienvenidos a Panadería Lucía. Somos una panadería artesana en el centro de Sevilla desde 1998.',
  'Horario de apertura: de lunes a sábado abrimos de 8:00 a 20:00.',
];

interface Ctx {
  t: TestApp;
  user: SignedUser;
  userId: string;
  sparkId: string;
  testId: string;
}

async function spark(t: TestApp, language: 'es' | 'en'): Promise<Ctx> {
  const user = await createUser(t, { language });
  const userId = await userIdOf(sql, user.username);
  const created = await createSpark(t, user, {
    name: language === 'es' ? 'Lucía' : 'Northwind',
    options: { language },
  });
  const test = await createTest(t, user, created._id, { name: 'T1' });
  await addDocument(sql, {
    sparkId: created._id,
    userId,
    name: language === 'es' ? 'Catálogo.pdf' : 'Handbook.pdf',
    pages: language === 'es' ? CATALOGO : HANDBOOK,
    language,
  });
  return { t, user, userId, sparkId: created._id, testId: test._id };
}

const ask = async (c: Ctx, text: string) =>
  (
    await c.t
      .http()
      .post(`/api/v1/sparks/${c.sparkId}/chat/${c.testId}`)
      .set(...c.user.auth())
      .send({ input: { text } })
      .expect(201)
  ).body.data.ai;

const groups = async (c: Ctx) =>
  (
    await c.t
      .http()
      .get(`/api/v1/sparks/${c.sparkId}/unanswered`)
      .set(...c.user.auth())
      .expect(200)
  ).body.data as Array<{
    id: string;
    question: string;
    variants: string[];
    count: number;
    status: string;
    answer: string | null;
    lastAskedAt: string;
  }>;

describe('unanswered questions: recorded, grouped, answered by the owner, then answered in tests (real worker)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp();
  });
  afterAll(() => t.close());

  it('groups similar questions (case, accents, plurals, stop words), and the owner’s answer is then given and cited as added by them', async () => {
    const en = await spark(t, 'en');
    expect((await ask(en, 'Do you deliver on Sundays?')).data.answer).toBe('notCovered');
    expect((await ask(en, 'do you DELIVER on sunday')).data.answer).toBe('notCovered');
    expect((await ask(en, 'Can I pay with PayPal?')).data.answer).toBe('notCovered');
    const before = await groups(en);
    expect(before.map((g) => [g.question, g.count, g.status])).toEqual([
      ['Can I pay with PayPal?', 1, 'open'],
      ['do you DELIVER on sunday', 2, 'open'],
    ]);
    expect(before[1].variants).toEqual(['do you DELIVER on sunday', 'Do you deliver on Sundays?']);

    const answered = await t
      .http()
      .post(`/api/v1/sparks/${en.sparkId}/unanswered/${before[1].id}/answer`)
      .set(...en.user.auth())
      .send({ answer: 'Yes: on Sundays we deliver from 10:00 to 14:00, for 5 dollars.' })
      .expect(200);
    const delivery = answered.body.data.groups.find((g: { id: string }) => g.id === before[1].id);
    expect(delivery).toMatchObject({
      status: 'answered',
      answer: 'Yes: on Sundays we deliver from 10:00 to 14:00, for 5 dollars.',
    });
    // The answer is knowledge of the Spark, not a file in its document list.
    const docs = (
      await t
        .http()
        .get(`/api/v1/sparks/${en.sparkId}/documents`)
        .set(...en.user.auth())
        .expect(200)
    ).body.data;
    expect(docs.map((d: { name: string }) => d.name)).toEqual(['Handbook.pdf']);

    const again = await ask(en, 'Do you deliver on Sundays?');
    expect(again.data.answer).toBe('answer');
    expect(again.data.content).toBe(
      'Yes: on Sundays we deliver from 10:00 to 14:00, for 5 dollars.\n\n— *added by you*',
    );
    expect(again.data.sources[0]).toMatchObject({ documentId: answered.body.data.documentId, addedBy: 'owner' });
    // The file's answers are still the file's.
    expect((await ask(en, 'How much does an electric bike cost?')).data.content).toContain('Handbook, page 2');
    // Answered, and not asked unanswered since: it stays answered with its count.
    const after = await groups(en);
    expect(after.map((g) => [g.question, g.count, g.status])).toEqual([
      ['Can I pay with PayPal?', 1, 'open'],
      ['do you DELIVER on sunday', 2, 'answered'],
    ]);
  });

  it('a noted question outlives the test it was asked in: restarting or deleting the test keeps it for the owner', async () => {
    const en = await spark(t, 'en');
    expect((await ask(en, 'Do you deliver on Sundays?')).data.answer).toBe('notCovered');
    await t
      .http()
      .post(`/api/v1/sparks/${en.sparkId}/tests/${en.testId}/restart`)
      .set(...en.user.auth())
      .expect(201);
    expect((await groups(en)).map((g) => [g.question, g.count])).toEqual([['Do you deliver on Sundays?', 1]]);
    expect((await ask(en, 'Can I pay with PayPal?')).data.answer).toBe('notCovered');
    await t
      .http()
      .delete(`/api/v1/sparks/${en.sparkId}/tests/${en.testId}`)
      .set(...en.user.auth())
      .expect(200);
    expect((await groups(en)).map((g) => [g.question, g.count, g.status])).toEqual([
      ['Can I pay with PayPal?', 1, 'open'],
      ['Do you deliver on Sundays?', 1, 'open'],
    ]);
    // The Spark's own deletion still takes its questions with it.
    await t
      .http()
      .delete(`/api/v1/sparks/${en.sparkId}`)
      .set(...en.user.auth())
      .expect(200);
    const left = await sql.query('SELECT count(*)::int AS n FROM unanswered_questions WHERE spark_id = $1', [
      en.sparkId,
    ]);
    expect(left.rows[0].n).toBe(0);
  });

  it('in Spanish: accents and plurals fold together, and the answer is cited as “añadido por ti”', async () => {
    const es = await spark(t, 'es');
    await ask(es, '¿Cuánto cuesta el envío a Cádiz?');
    await ask(es, 'cuanto cuestan los envios a cadiz');
    const [group] = await groups(es);
    expect(group.count).toBe(2);
    await t
      .http()
      .post(`/api/v1/sparks/${es.sparkId}/unanswered/${group.id}/answer`)
      .set(...es.user.auth())
      .send({ question: '¿Cuánto cuesta el envío a Cádiz?', answer: 'El envío a Cádiz cuesta 6 euros.' })
      .expect(200);
    const again = await ask(es, '¿Cuánto cuesta el envío a Cádiz?');
    expect(again.data.content).toBe('El envío a Cádiz cuesta 6 euros.\n\n— *añadido por ti*');
  });

  it('records the widget’s unanswered questions too, and a visitor reads the owner’s answer as the team’s', async () => {
    const en = await spark(t, 'en');
    await sql.query('UPDATE tenants SET limit_deployments = 1 WHERE user_id = $1', [en.userId]);
    const dep = `/api/v1/sparks/${en.sparkId}/deployment`;
    const token = (
      await t
        .http()
        .post(dep)
        .set(...en.user.auth())
        .send({})
        .expect(200)
    ).body.data.token as string;
    await t
      .http()
      .post(`${dep}/origins`)
      .set(...en.user.auth())
      .send({ origin: SHOP })
      .expect(200);
    const w = `/api/v1/public/widgets/${token}`;
    const visitorToken = (await t.http().post(`${w}/visitors`).set('Origin', SHOP).send({}).expect(200)).body.data
      .visitorToken as string;
    const conversationId = (
      await t
        .http()
        .post(`${w}/conversations`)
        .set('Origin', SHOP)
        .set('Authorization', `Bearer ${visitorToken}`)
        .expect(201)
    ).body.data.conversationId as string;
    const visitorAsks = async (text: string) =>
      (
        await t
          .http()
          .post(`${w}/conversations/${conversationId}/messages`)
          .set('Origin', SHOP)
          .set('Authorization', `Bearer ${visitorToken}`)
          .send({ text })
          .expect(200)
      ).body.data.ai;
    expect((await visitorAsks('Is there parking for customers?')).data.answer).toBe('notCovered');
    const [group] = await groups(en);
    expect(group).toMatchObject({ question: 'Is there parking for customers?', count: 1, status: 'open' });
    await t
      .http()
      .post(`/api/v1/sparks/${en.sparkId}/unanswered/${group.id}/answer`)
      .set(...en.user.auth())
      .send({ answer: 'Yes, free customer parking behind the shop.' })
      .expect(200);
    expect((await visitorAsks('Is there parking for customers?')).data.content).toBe(
      'Yes, free customer parking behind the shop.\n\n— *answered by our team*',
    );
    // The owner's read-only list of visitors' conversations: the first question, the date, the count.
    const listed = await t
      .http()
      .get(`${dep}/conversations`)
      .set(...en.user.auth())
      .expect(200);
    expect(listed.body.data).toEqual([
      expect.objectContaining({
        conversationId,
        firstQuestion: 'Is there parking for customers?',
        messages: 4,
        origin: SHOP,
        createdAt: expect.any(String),
      }),
    ]);
  });

  it('the owner changes an answer, then deletes it: each takes effect on the next test question; only the owner may', async () => {
    const a = await spark(t, 'en');
    const b = await spark(t, 'en');
    const entries = async () =>
      (
        await sql.query<{ id: string; chunks: number }>(
          `SELECT d.id, (SELECT count(*)::int FROM document_chunks c WHERE c.document_id = d.id) AS chunks
             FROM documents d WHERE d.origin = 'owner' AND d.spark_id = $1`,
          [a.sparkId],
        )
      ).rows;
    const answer = (text: string) =>
      t
        .http()
        .post(`/api/v1/sparks/${a.sparkId}/unanswered/${group.id}/answer`)
        .set(...a.user.auth())
        .send({ answer: text })
        .expect(200);
    const remove = (user: SignedUser, sparkId: string, questionId: string) =>
      t
        .http()
        .delete(`/api/v1/sparks/${sparkId}/unanswered/${questionId}/answer`)
        .set(...user.auth());

    expect((await ask(a, 'Do you sell gift cards?')).data.answer).toBe('notCovered');
    const [group] = await groups(a);
    await answer('Yes, gift cards from 10 dollars.');
    expect((await ask(a, 'Do you sell gift cards?')).data.content).toBe(
      'Yes, gift cards from 10 dollars.\n\n— *added by you*',
    );

    // Changed: the new words replace the old ones, in the list and in the Spark's knowledge.
    const changed = await answer('Yes, gift cards from 20 dollars, valid for a year.');
    expect(changed.body.data.groups[0]).toMatchObject({
      status: 'answered',
      answer: 'Yes, gift cards from 20 dollars, valid for a year.',
    });
    expect(await entries()).toEqual([{ id: changed.body.data.documentId, chunks: 1 }]);
    expect((await ask(a, 'Do you sell gift cards?')).data.content).toBe(
      'Yes, gift cards from 20 dollars, valid for a year.\n\n— *added by you*',
    );

    // Nobody else may take it back: another user, through their Spark or the owner's, or an unknown id.
    await remove(b.user, a.sparkId, group.id).expect(404);
    await remove(b.user, b.sparkId, group.id).expect(404);
    await remove(a.user, a.sparkId, '00000000-0000-4000-8000-000000000000').expect(404);
    await remove(a.user, a.sparkId, 'not-a-uuid').expect(400);
    expect(await entries()).toHaveLength(1);
    expect((await groups(a))[0]).toMatchObject({ status: 'answered' });

    // The owner deletes it: gone from the knowledge at once, the group open again.
    const removed = await remove(a.user, a.sparkId, group.id).expect(200);
    expect(removed.body.data).toMatchObject({ removed: 1 });
    expect(removed.body.data.groups).toEqual([
      expect.objectContaining({ id: group.id, status: 'open', answer: null, answeredAt: null, count: 1 }),
    ]);
    expect(await entries()).toEqual([]);
    expect(
      (
        await sql.query('SELECT count(*)::int AS n FROM document_chunks WHERE document_id = $1', [
          changed.body.data.documentId,
        ])
      ).rows[0].n,
    ).toBe(0);
    const after = await ask(a, 'Do you sell gift cards?');
    expect(after.data).toMatchObject({ answer: 'notCovered', sources: [] });
    expect(after.data.content).not.toContain('gift cards from');
    // Asked again unanswered: counted in the same group, which the owner may answer anew.
    expect((await groups(a)).map((g) => [g.question, g.count, g.status])).toEqual([
      ['Do you sell gift cards?', 2, 'open'],
    ]);
    // Deleting what is no longer there changes nothing.
    expect((await remove(a.user, a.sparkId, group.id).expect(200)).body.data).toMatchObject({ removed: 0 });
  });

  it('only the owner sees or answers; a bad answer is refused and changes nothing', async () => {
    const a = await spark(t, 'en');
    const b = await spark(t, 'en');
    expect((await ask(a, 'Do you sell gift cards?')).data.answer).toBe('notCovered');
    const [group] = await groups(a);
    await t
      .http()
      .get(`/api/v1/sparks/${a.sparkId}/unanswered`)
      .set(...b.user.auth())
      .expect(404);
    await t
      .http()
      .post(`/api/v1/sparks/${a.sparkId}/unanswered/${group.id}/answer`)
      .set(...b.user.auth())
      .send({ answer: 'No.' })
      .expect(404);
    // Another Spark's question through one's own Spark: not found.
    await t
      .http()
      .post(`/api/v1/sparks/${b.sparkId}/unanswered/${group.id}/answer`)
      .set(...b.user.auth())
      .send({ answer: 'No.' })
      .expect(404);
    for (const body of [{ answer: '   ' }, { answer: 'x'.repeat(2001) }, {}, { answer: 5 }]) {
      await t
        .http()
        .post(`/api/v1/sparks/${a.sparkId}/unanswered/${group.id}/answer`)
        .set(...a.user.auth())
        .send(body)
        .expect(400);
    }
    expect((await groups(a))[0]).toMatchObject({ status: 'open', answer: null });
    const entries = await sql.query(
      "SELECT count(*)::int AS n FROM documents WHERE origin = 'owner' AND spark_id = $1",
      [a.sparkId],
    );
    expect(entries.rows[0].n).toBe(0);
  });
});
