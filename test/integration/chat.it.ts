import { Pool } from 'pg';
import { addDocument, userIdOf } from './fixtures/knowledge';
import { readEvents } from './fixtures/sse';
import { createUser, eventually, startApp, type SignedUser, type TestApp } from './harness';
import { createSpark, createTest } from './factories';

const sql = new Pool({ connectionString: process.env.DATABASE_URL, max: 2 });
sql.on('error', () => undefined);
afterAll(() => sql.end());

const CATALOGO = [
  'Bienvenidos a Panadería Lucía. Somos una panadería artesana en el centro de Sevilla desde 1998.',
  'Horario de apertura: de lunes a sábado abrimos de 8:00 a 20:00. Los domingos y festivos permanece cerrada.',
  'Hacemos envíos a domicilio en toda la ciudad por 3 euros. Los pedidos de más de 30 euros tienen el envío gratuito.',
];
const HANDBOOK = [
  'Welcome to Northwind Bikes. We repair and rent bicycles in Portland.',
  'Rentals cost 25 dollars per day, helmet and lock included. Electric bikes cost 45 dollars per day.',
  'Our return policy: unused parts can be returned within 30 days with the receipt for a full refund.',
];

interface Ctx {
  t: TestApp;
  user: SignedUser;
  sparkId: string;
  testId: string;
}

async function sparkWithDocs(t: TestApp, language: 'es' | 'en', withDocuments = true): Promise<Ctx> {
  const user = await createUser(t, { language });
  const spark = await createSpark(t, user);
  const test = await createTest(t, user, spark._id, { name: 'T1' });
  if (!withDocuments) return { t, user, sparkId: spark._id, testId: test._id };
  const userId = await userIdOf(sql, user.username);
  if (language === 'es')
    await addDocument(sql, { sparkId: spark._id, userId, name: 'Catálogo 2026.pdf', pages: CATALOGO, language });
  else await addDocument(sql, { sparkId: spark._id, userId, name: 'Handbook.pdf', pages: HANDBOOK, language });
  return { t, user, sparkId: spark._id, testId: test._id };
}

const ask = (c: Ctx, text: string, conversationId?: string) =>
  c.t
    .http()
    .post(`/api/v1/sparks/${c.sparkId}/chat/${c.testId}`)
    .set(...c.user.auth())
    .send({ input: { text }, conversationId });

describe('chat pipeline and the offline answer engine (real worker)', () => {
  let t: TestApp;
  let es: Ctx;
  let en: Ctx;
  beforeAll(async () => {
    t = await startApp();
    [es, en] = await Promise.all([sparkWithDocs(t, 'es'), sparkWithDocs(t, 'en')]);
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers a Spanish question quoting the right document and page', async () => {
    const res = await ask(es, '¿Cuál es el horario de apertura los sábados?').expect(201);
    const { ai, conversationId, human } = res.body.data;
    expect(human.data.content).toBe('¿Cuál es el horario de apertura los sábados?');
    expect(ai.type).toBe('ai');
    // The answering sentence first, then its source.
    expect(ai.data.content).toMatch(/^[^\n]*8:00 a 20:00/);
    expect(ai.data.content).toContain('— *Catálogo 2026, página 2*');
    expect(ai.data.sources[0]).toMatchObject({ document: 'Catálogo 2026', page: 2 });
    // The same conversation goes on; the history has both turns.
    await ask(es, '¿Cuánto cuesta el envío a domicilio?', conversationId).expect(201);
    const history = (
      await t
        .http()
        .get(`/api/v1/llm/chat-history/${conversationId}`)
        .set(...es.user.auth())
        .expect(200)
    ).body.data;
    expect(history.sessionId).toBe(conversationId);
    expect(history.sparkId).toBe(es.sparkId);
    expect(history.messages.map((m: { type: string }) => m.type)).toEqual(['human', 'ai', 'human', 'ai']);
    expect(history.messages[3].data.content).toContain('página 3');
  });

  it('answers an English question quoting the right page', async () => {
    const { ai } = (await ask(en, 'How much does an electric bike rental cost?').expect(201)).body.data;
    expect(ai.data.content).toMatch(/^Electric bikes cost 45 dollars per day\./);
    expect(ai.data.content).toContain('— *Handbook, page 2*');
  });

  it('cites a document by the title its owner gave it, by default its file name without .pdf (issue 34 item 10)', async () => {
    const c = await sparkWithDocs(t, 'en');
    const documents = `/api/v1/sparks/${c.sparkId}/documents`;
    const [doc] = (
      await t
        .http()
        .get(documents)
        .set(...c.user.auth())
        .expect(200)
    ).body.data;
    expect(doc).toMatchObject({ name: 'Handbook.pdf', title: 'Handbook', titleSet: false });
    const path = `${documents}/${doc._id}`;
    const rename = (title: unknown, user = c.user) =>
      t
        .http()
        .patch(path)
        .set(...user.auth())
        .send({ title });
    // Bad input is refused and changes nothing; another owner cannot rename it, even naming its Spark.
    await t
      .http()
      .patch(path)
      .set(...c.user.auth())
      .send({})
      .expect(400);
    await rename('x'.repeat(121)).expect(400);
    await rename(42).expect(400);
    await rename('Mine', await createUser(t, { language: 'en' })).expect(404);
    expect(
      (
        await t
          .http()
          .get(path)
          .set(...c.user.auth())
          .expect(200)
      ).body.data.title,
    ).toBe('Handbook');
    // One line: breaks, control characters and direction overrides go.
    const named = (await rename('  Rental\nprices\u202E 2026\u0007 ').expect(200)).body.data;
    expect(named).toMatchObject({ _id: doc._id, name: 'Handbook.pdf', title: 'Rental prices 2026', titleSet: true });
    const question = 'How much does an electric bike rental cost?';
    const { ai } = (await ask(c, question).expect(201)).body.data;
    expect(ai.data.content).toContain('— *Rental prices 2026, page 2*');
    expect(ai.data.sources[0]).toMatchObject({ document: 'Rental prices 2026', page: 2 });
    // Blank gives back the default.
    expect((await rename(' ').expect(200)).body.data).toMatchObject({ title: 'Handbook', titleSet: false });
    expect((await ask(c, question).expect(201)).body.data.ai.data.content).toContain('— *Handbook, page 2*');
  });

  it('says plainly when the documents do not cover the question, and records it for the owner', async () => {
    const question = 'Do you sell skateboards or surfboards?';
    const { ai, human } = (await ask(en, question).expect(201)).body.data;
    expect(ai.data.content).toBe(
      "Sorry, I can't find anything about that in this assistant's documents. I've noted your question so it can be added.",
    );
    const rows = await sql.query('SELECT question, language FROM unanswered_questions WHERE message_id = $1', [
      human._id,
    ]);
    expect(rows.rows).toEqual([{ question, language: 'en' }]);
    const esNo = (await ask(es, '¿Vendéis tartas de boda veganas con fondant?').expect(201)).body.data.ai;
    expect(esNo.data.content).toMatch(/^Lo siento, no encuentro información/);
  });

  it('says so when the Spark has no documents yet, and records the question all the same', async () => {
    const [noDocsEn, noDocsEs] = await Promise.all([sparkWithDocs(t, 'en', false), sparkWithDocs(t, 'es', false)]);
    const { ai, human } = (await ask(noDocsEn, 'Do you open on Sundays?').expect(201)).body.data;
    expect(ai.data.content).toBe(
      "I don't have any documents to answer from yet. I've noted your question so it can be added.",
    );
    const rows = await sql.query('SELECT question FROM unanswered_questions WHERE message_id = $1', [human._id]);
    expect(rows.rows).toEqual([{ question: 'Do you open on Sundays?' }]);
    const esNo = (await ask(noDocsEs, '¿Abrís los domingos?').expect(201)).body.data.ai;
    expect(esNo.data.content).toMatch(/^Todavía no tengo documentos con los que responder/);
  });

  it('greets with the Spark’s initial message, and restarting a test starts over with “inicio”', async () => {
    expect((await ask(es, 'Hola').expect(201)).body.data.ai.data.content).toBe('Bienvenido a tu nuevo Spark');
    const before = (await ask(es, '¿Hacéis envíos?').expect(201)).body.data.conversationId;
    const restarted = await t
      .http()
      .post(`/api/v1/sparks/${es.sparkId}/tests/${es.testId}/restart`)
      .set(...es.user.auth())
      .expect(201);
    const { conversationId, human, ai } = restarted.body.data;
    expect(conversationId).not.toBe(before);
    expect(human.data.content).toBe('inicio');
    expect(ai.data.content).toBe('Bienvenido a tu nuevo Spark');
    await t
      .http()
      .get(`/api/v1/llm/chat-history/${before}`)
      .set(...es.user.auth())
      .expect(404);
    const current = (
      await t
        .http()
        .get(`/api/v1/sparks/${es.sparkId}/tests/${es.testId}/conversation`)
        .set(...es.user.auth())
        .expect(200)
    ).body.data;
    expect(current.sessionId).toBe(conversationId);
    const unanswered = await sql.query(
      'SELECT count(*)::int AS n FROM unanswered_questions uq JOIN messages m ON m.id = uq.message_id WHERE m.conversation_id = $1',
      [conversationId],
    );
    expect(unanswered.rows[0].n).toBe(0); // 'inicio' is not a question
  });

  it('refuses empty and whitespace-only messages on every transport, storing nothing', async () => {
    const conversationId = (await ask(en, 'hello').expect(201)).body.data.conversationId;
    const before = (
      await t
        .http()
        .get(`/api/v1/llm/chat-history/${conversationId}`)
        .set(...en.user.auth())
        .expect(200)
    ).body.data;
    for (const text of ['', '   ', '\n\t']) {
      const res = await ask(en, text, conversationId).expect(400);
      expect(res.body.errors[0]).toMatchObject({
        code: 'EMPTY_MESSAGE',
        field: 'input.text',
        message: 'Write a message first',
      });
    }
    await t
      .http()
      .get(`/api/v1/sparks/${en.sparkId}/chat/${en.testId}?input.text=%20%20`)
      .set(...en.user.auth())
      .expect(400);
    await t
      .http()
      .get('/api/v1/spark-sys/main/chat?input.text=')
      .set(...en.user.auth())
      .expect(400);
    const after = (
      await t
        .http()
        .get(`/api/v1/llm/chat-history/${conversationId}`)
        .set(...en.user.auth())
        .expect(200)
    ).body.data;
    expect(after.messages).toEqual(before.messages);
  });

  it('a Spark has one builder conversation and a test one, however many requests open it at once', async () => {
    // Judging a test opens the Spark page (its history) and, 0.5 s later, sends the verdict: when the page's
    // request was slower, both made a conversation, the verdict's reply went into the one the page did not
    // show, and the e2e test waited 30 s for it (tests.spec, Spanish phone).
    const c = await sparkWithDocs(t, 'es', false);
    const auth = c.user.auth();
    const builder = await Promise.all([
      ...Array.from({ length: 4 }, () =>
        t
          .http()
          .get(`/api/v1/sparks/${c.sparkId}/conversation`)
          .set(...auth),
      ),
      t
        .http()
        .post(`/api/v1/sparks/${c.sparkId}/messages`)
        .set(...auth)
        .send({ input: { text: 'test not satisfactory' } }),
    ]);
    for (const res of builder) expect(res.status).toBeLessThan(300);
    const tests = await Promise.all(
      Array.from({ length: 4 }, () =>
        t
          .http()
          .get(`/api/v1/sparks/${c.sparkId}/tests/${c.testId}/conversation`)
          .set(...auth),
      ),
    );
    for (const res of tests) expect(res.status).toBe(200);
    const { rows } = await sql.query<{ kind: string; n: number }>(
      'SELECT kind::text, count(*)::int AS n FROM conversations WHERE spark_id = $1 GROUP BY kind ORDER BY kind',
      [c.sparkId],
    );
    expect(rows).toEqual([
      { kind: 'builder', n: 1 },
      { kind: 'test', n: 1 },
    ]);
    // Every request answered with that one conversation.
    const sessions = new Set(builder.slice(0, 4).map((res) => res.body.data.sessionId as string));
    expect(sessions.size).toBe(1);
  });

  it('streams over SSE: first the history with the session id, then the reply, then done', async () => {
    const base = await t.url();
    const q = encodeURIComponent('What is the return policy for parts?');
    const res = await fetch(`${base}/api/v1/sparks/${en.sparkId}/chat/${en.testId}?input.text=${q}`, {
      headers: { Authorization: `Bearer ${en.user.access}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const events = await readEvents(res);
    const [first, ...rest] = events;
    expect(first).toMatchObject({ type: 'history', sessionId: expect.any(String) });
    const firstMessages = first.messages as Array<{ type: string; data: { content: string } }>;
    expect(firstMessages.at(-1)).toMatchObject({
      type: 'human',
      data: { content: 'What is the return policy for parts?' },
    });
    const tokens = rest
      .filter((e) => e.type === 'token')
      .map((e) => e.text as string)
      .join('');
    const done = rest.at(-1)!;
    expect(done.type).toBe('done');
    const [reply] = done.messages as Array<{ _id: string; data: { content: string } }>;
    expect(reply.data.content).toContain('Handbook, page 3');
    expect(tokens).toBe(reply.data.content);
    expect(rest.some((e) => e.type === 'message')).toBe(true);
    const history = (
      await t
        .http()
        .get(`/api/v1/llm/chat-history/${first.sessionId as string}`)
        .set(...en.user.auth())
        .expect(200)
    ).body.data;
    expect(history.messages.at(-1)._id).toBe(reply._id);
  });

  it('loses nothing when the client disconnects mid-stream: the reply lands in the history', async () => {
    const base = await t.url();
    const controller = new AbortController();
    const q = encodeURIComponent('¿A qué hora abrís los lunes?');
    const res = await fetch(`${base}/api/v1/sparks/${es.sparkId}/chat/${es.testId}?input.text=${q}`, {
      headers: { Authorization: `Bearer ${es.user.access}` },
      signal: controller.signal,
    });
    let sessionId = '';
    await readEvents(res, {
      until: (e) => {
        sessionId = e.sessionId as string;
        return true;
      },
    });
    controller.abort();
    const history = await eventually(async () => {
      const h = (
        await t
          .http()
          .get(`/api/v1/llm/chat-history/${sessionId}`)
          .set(...es.user.auth())
          .expect(200)
      ).body.data;
      return h.messages.at(-1).type === 'ai' ? h : undefined;
    });
    expect(history.messages.at(-1).data.content).toContain('página 2');
  });

  it('system assistants answer over SSE through the flow engine', async () => {
    const base = await t.url();
    const res = await fetch(`${base}/api/v1/spark-sys/main/chat?input.text=inicio`, {
      headers: { Authorization: `Bearer ${en.user.access}` },
    });
    const events = await readEvents(res);
    expect(events[0]).toMatchObject({ type: 'history', sessionId: expect.any(String) });
    expect(events.at(-1)).toMatchObject({ type: 'done' });
    const messages = (
      await t
        .http()
        .get(`/api/v1/spark-sys/conversations/${events[0].sessionId as string}`)
        .set(...en.user.auth())
        .expect(200)
    ).body.data.messages;
    expect(messages[0]).toMatchObject({ type: 'human', data: { content: 'inicio' } });
  });
});
