import { Pool } from 'pg';
import { addDocument, userIdOf } from './fixtures/knowledge';
import { createUser, startApp, type SignedUser, type TestApp } from './harness';
import { createSpark, createTest } from './factories';
import { deployOwner, publishOn, widgetPath, type DeployOwner } from './support/deploy';

/**
 * Ratings of answers and the owner's review list (issue 35 items 1–2), against the real api, worker, PostgreSQL and
 * Redis: the owner rates a test's answers, a visitor rates the widget's, a rating down puts the question on the
 * review list with what was said, where it came from, who rated it and their comment; the owner answers it (the
 * visitor then gets that answer) or dismisses it.
 */

const sql = new Pool({ connectionString: process.env.DATABASE_URL, max: 2 });
sql.on('error', () => undefined);
afterAll(() => sql.end());

const SHOP = 'http://shop.localhost:8081';
const HANDBOOK = [
  'Welcome to Northwind Bikes. We repair and rent bicycles in Portland.',
  'Rentals cost 25 dollars per day, helmet and lock included. Electric bikes cost 45 dollars per day.',
];

interface Group {
  id: string;
  question: string;
  reason: 'notCovered' | 'ratedDown';
  count: number;
  status: string;
  answer: string | null;
  answerGiven: string | null;
  sources: Array<{ documentId: string; document: string; page: number }>;
  ratedBy: 'owner' | 'visitor' | null;
  ratedAt: string | null;
  comment: string | null;
}
interface Message {
  _id: string;
  type: string;
  data: { content: string; answer?: string };
  feedback?: { rating: string; comment: string | null };
}

describe('ratings of answers and the review list (real worker)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp();
  });
  afterAll(() => t.close());

  const review = async (user: SignedUser, sparkId: string) =>
    (
      await t
        .http()
        .get(`/api/v1/sparks/${sparkId}/unanswered`)
        .set(...user.auth())
        .expect(200)
    ).body.data as Group[];

  describe('the owner, in a test chat', () => {
    let user: SignedUser;
    let sparkId: string;
    let testId: string;
    beforeAll(async () => {
      user = await createUser(t, { tag: 'rates' });
      const userId = await userIdOf(sql, user.username);
      sparkId = (await createSpark(t, user, { name: 'Northwind', options: { language: 'en' } }))._id;
      testId = (await createTest(t, user, sparkId, { name: 'T1' }))._id;
      await addDocument(sql, { sparkId, userId, name: 'Handbook.pdf', pages: HANDBOOK, language: 'en' });
    });

    const ask = async (text: string) =>
      (
        await t
          .http()
          .post(`/api/v1/sparks/${sparkId}/chat/${testId}`)
          .set(...user.auth())
          .send({ input: { text } })
          .expect(201)
      ).body.data.ai as Message;
    const rate = (messageId: string, body: unknown, who: SignedUser = user) =>
      t
        .http()
        .post(`/api/v1/sparks/${sparkId}/messages/${messageId}/feedback`)
        .set(...who.auth())
        .send(body as object);

    it('rates an answer down with a comment: the question joins the review list with what was said, its source, who and when', async () => {
      const ai = await ask('How much does an electric bike cost?');
      expect(ai.data.answer).toBe('answer');
      const rated = await rate(ai._id, { rating: 'down', comment: '  It is 50 dollars since May.  ' }).expect(200);
      expect(rated.body.data).toMatchObject({
        messageId: ai._id,
        rating: 'down',
        comment: 'It is 50 dollars since May.',
      });

      const [group] = await review(user, sparkId);
      expect(group).toMatchObject({
        question: 'How much does an electric bike cost?',
        reason: 'ratedDown',
        status: 'open',
        count: 1,
        answerGiven: ai.data.content,
        ratedBy: 'owner',
        comment: 'It is 50 dollars since May.',
      });
      expect(group.sources[0]).toMatchObject({ document: 'Handbook', page: 2 });
      expect(Date.parse(group.ratedAt ?? '')).toBeGreaterThan(Date.now() - 60_000);

      // The test's history shows the owner's rating on that answer.
      const history = (
        await t
          .http()
          .get(`/api/v1/sparks/${sparkId}/tests/${testId}/conversation`)
          .set(...user.auth())
          .expect(200)
      ).body.data.messages as Message[];
      expect(history.find((m) => m._id === ai._id)?.feedback).toEqual({
        rating: 'down',
        comment: 'It is 50 dollars since May.',
      });

      // A second rating replaces the first: rated up, the question leaves the list.
      await rate(ai._id, { rating: 'up' }).expect(200);
      expect(await review(user, sparkId)).toEqual([]);
      const { rows } = await sql.query('SELECT rating FROM answer_feedback WHERE message_id = $1', [ai._id]);
      expect(rows).toEqual([{ rating: 'up' }]);
    });

    it('refuses what is not an answer of its own test chats, and bad ratings', async () => {
      const ai = await ask('How much is a rental per day?');
      const history = (
        await t
          .http()
          .get(`/api/v1/sparks/${sparkId}/tests/${testId}/conversation`)
          .set(...user.auth())
          .expect(200)
      ).body.data.messages as Message[];
      const human = history.find((m) => m.type === 'human' && m.data.content === 'How much is a rental per day?');
      // A question is not an answer, nor is small talk.
      await rate(human?._id ?? '', { rating: 'down' }).expect(404);
      const hello = await ask('Hello!');
      expect(hello.data.answer).toBe('greeting');
      await rate(hello._id, { rating: 'down' }).expect(404);
      await rate(ai._id, { rating: 'meh' }).expect(400);
      await rate(ai._id, { rating: 'down', comment: 'x'.repeat(501) }).expect(400);
      // Another owner, through their own Spark or this one, cannot rate it.
      const other = await createUser(t, { tag: 'rates-other' });
      const theirs = (await createSpark(t, other, { name: 'Other', options: { language: 'en' } }))._id;
      await rate(ai._id, { rating: 'down' }, other).expect(404);
      await t
        .http()
        .post(`/api/v1/sparks/${theirs}/messages/${ai._id}/feedback`)
        .set(...other.auth())
        .send({ rating: 'down' })
        .expect(404);
      expect(await review(user, sparkId)).toEqual([]);
    });

    it('a judged test goes, its rated-down answer stays on the list; dismissed, it leaves until rated down again', async () => {
      const test2 = (await createTest(t, user, sparkId, { name: 'T2' }))._id;
      const ai = (
        await t
          .http()
          .post(`/api/v1/sparks/${sparkId}/chat/${test2}`)
          .set(...user.auth())
          .send({ input: { text: 'Is a helmet included with a rental?' } })
          .expect(201)
      ).body.data.ai as Message;
      await rate(ai._id, { rating: 'down' }).expect(200);
      await t
        .http()
        .delete(`/api/v1/sparks/${sparkId}/tests/${test2}`)
        .set(...user.auth())
        .expect(200);
      const [group] = await review(user, sparkId);
      expect(group).toMatchObject({
        question: 'Is a helmet included with a rental?',
        reason: 'ratedDown',
        answerGiven: ai.data.content,
      });

      const dismissed = await t
        .http()
        .post(`/api/v1/sparks/${sparkId}/unanswered/${group.id}/dismiss`)
        .set(...user.auth())
        .expect(200);
      expect(dismissed.body.data).toEqual({ dismissed: 1, groups: [] });
      expect(await review(user, sparkId)).toEqual([]);
      // Another owner cannot dismiss it.
      const other = await createUser(t, { tag: 'rates-dismiss' });
      await t
        .http()
        .post(`/api/v1/sparks/${sparkId}/unanswered/${group.id}/dismiss`)
        .set(...other.auth())
        .expect(404);

      // Rated down again (another answer to the same question), it is back.
      const again = await ask('Is a helmet included with a rental?');
      await rate(again._id, { rating: 'down', comment: 'Only for adults.' }).expect(200);
      const back = await review(user, sparkId);
      expect(back.map((g) => [g.question, g.reason, g.count, g.comment])).toEqual([
        ['Is a helmet included with a rental?', 'ratedDown', 1, 'Only for adults.'],
      ]);
    });

    it('a question the documents do not cover is listed as notCovered with what the Spark said', async () => {
      const ai = await ask('Do you sell kites?');
      expect(ai.data.answer).toBe('notCovered');
      const group = (await review(user, sparkId)).find((g) => g.question === 'Do you sell kites?');
      expect(group).toMatchObject({ reason: 'notCovered', answerGiven: ai.data.content, sources: [], ratedBy: null });
      // Rated down too, it stays notCovered and shows the rating.
      await rate(ai._id, { rating: 'down', comment: 'We do!' }).expect(200);
      const rated = (await review(user, sparkId)).find((g) => g.question === 'Do you sell kites?');
      expect(rated).toMatchObject({ reason: 'notCovered', ratedBy: 'owner', comment: 'We do!' });
    });
  });

  describe('a visitor, in the widget', () => {
    let owner: DeployOwner;
    let token: string;
    beforeAll(async () => {
      owner = await deployOwner(t, sql, { tag: 'rated-widget', pages: HANDBOOK });
      token = await publishOn(t, owner, SHOP);
    });

    const visitor = async () =>
      (
        await t
          .http()
          .post(`${widgetPath(token)}/visitors`)
          .set('Origin', SHOP)
          .send({})
          .expect(200)
      ).body.data.visitorToken as string;
    const conversation = async (v: string) =>
      (
        await t
          .http()
          .post(`${widgetPath(token)}/conversations`)
          .set('Origin', SHOP)
          .set('Authorization', `Bearer ${v}`)
          .expect(201)
      ).body.data.conversationId as string;
    const ask = async (v: string, id: string, text: string) =>
      (
        await t
          .http()
          .post(`${widgetPath(token)}/conversations/${id}/messages`)
          .set('Origin', SHOP)
          .set('Authorization', `Bearer ${v}`)
          .send({ text })
          .expect(200)
      ).body.data.ai as Message;
    const rate = (v: string, id: string, messageId: string, body: unknown) =>
      t
        .http()
        .post(`${widgetPath(token)}/conversations/${id}/messages/${messageId}/feedback`)
        .set('Origin', SHOP)
        .set('Authorization', `Bearer ${v}`)
        .send(body as object);

    it('rates an answer down; the owner sees it, writes the right answer, and the visitor then gets it', async () => {
      const v = await visitor();
      const id = await conversation(v);
      const ai = await ask(v, id, 'How much does an electric bike cost per day?');
      await rate(v, id, ai._id, { rating: 'down', comment: 'The price went up.' }).expect(200);

      // Read back, the answer carries the visitor's rating.
      const history = (
        await t
          .http()
          .get(`${widgetPath(token)}/conversations/${id}`)
          .set('Origin', SHOP)
          .set('Authorization', `Bearer ${v}`)
          .expect(200)
      ).body.data.messages as Message[];
      expect(history.find((m) => m._id === ai._id)?.feedback).toEqual({
        rating: 'down',
        comment: 'The price went up.',
      });

      const [group] = await review(owner.user, owner.sparkId);
      expect(group).toMatchObject({
        question: 'How much does an electric bike cost per day?',
        reason: 'ratedDown',
        ratedBy: 'visitor',
        comment: 'The price went up.',
        answerGiven: ai.data.content,
      });
      await t
        .http()
        .post(`/api/v1/sparks/${owner.sparkId}/unanswered/${group.id}/answer`)
        .set(...owner.user.auth())
        .send({ answer: 'Electric bikes cost 50 dollars per day since May.' })
        .expect(200);
      expect((await review(owner.user, owner.sparkId))[0]).toMatchObject({ status: 'answered' });

      const later = await ask(v, id, 'How much does an electric bike cost per day?');
      expect(later.data.content).toContain('Electric bikes cost 50 dollars per day since May.');
    });

    it('rates only answers of their own conversation: another visitor, another conversation and the owner route are refused', async () => {
      const v = await visitor();
      const id = await conversation(v);
      const ai = await ask(v, id, 'How much is a rental per day?');
      const stranger = await visitor();
      const strangers = await conversation(stranger);
      // Another visitor, with the conversation's id or their own.
      await rate(stranger, id, ai._id, { rating: 'down' }).expect(404);
      await rate(stranger, strangers, ai._id, { rating: 'down' }).expect(404);
      // The owner route rates test answers only.
      await t
        .http()
        .post(`/api/v1/sparks/${owner.sparkId}/messages/${ai._id}/feedback`)
        .set(...owner.user.auth())
        .send({ rating: 'down' })
        .expect(404);
      // From a site not on the allow-list.
      await t
        .http()
        .post(`${widgetPath(token)}/conversations/${id}/messages/${ai._id}/feedback`)
        .set('Origin', 'http://evil.localhost:8081')
        .set('Authorization', `Bearer ${v}`)
        .send({ rating: 'down' })
        .expect(403);
      await rate(v, id, ai._id, { rating: 'sideways' }).expect(400);
      const { rowCount } = await sql.query('SELECT 1 FROM answer_feedback WHERE message_id = $1', [ai._id]);
      expect(rowCount).toBe(0);
      // The visitor's own rating up is kept, and puts nothing on the list.
      await rate(v, id, ai._id, { rating: 'up' }).expect(200);
      expect((await review(owner.user, owner.sparkId)).map((g) => g.question)).not.toContain(
        'How much is a rental per day?',
      );
    });
  });
});
