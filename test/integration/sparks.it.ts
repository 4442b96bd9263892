import { Pool } from 'pg';
import { addDocument, userIdOf } from './fixtures/knowledge';
import { buyPlan } from './factories';
import { createUser, startApp, type SignedUser, type TestApp } from './harness';

const sql = new Pool({ connectionString: process.env.DATABASE_URL, max: 2 });
sql.on('error', () => undefined);
afterAll(() => sql.end());

describe('Sparks and their tests', () => {
  let t: TestApp;
  let ana: SignedUser;
  let bob: SignedUser;
  beforeAll(async () => {
    t = await startApp();
    [ana, bob] = await Promise.all([
      createUser(t, { language: 'es', tag: 'ana' }),
      createUser(t, { language: 'en', tag: 'bob' }),
    ]);
  });
  afterAll(async () => {
    await t.close();
  });

  const as = (u: SignedUser) => ({
    get: (p: string) =>
      t
        .http()
        .get(p)
        .set(...u.auth()),
    post: (p: string, body: object = {}) =>
      t
        .http()
        .post(p)
        .set(...u.auth())
        .send(body),
    patch: (p: string, body: object) =>
      t
        .http()
        .patch(p)
        .set(...u.auth())
        .send(body),
    delete: (p: string) =>
      t
        .http()
        .delete(p)
        .set(...u.auth()),
  });
  /** Buys a plan on the local payment provider (the same fulfilment as a webhook). */
  async function buy(u: SignedUser, priceId: string) {
    const profile = (await as(u).get('/api/v1/account/profile').expect(200)).body.data;
    await buyPlan(t, u, profile.tenants[0].customerId, priceId);
  }
  const newSpark = async (u: SignedUser, body: object = {}) =>
    (await as(u).post('/api/v1/sparks', body).expect(201)).body.data;

  it('creates a Spark with the spec defaults, in the owner’s language', async () => {
    const es = await newSpark(ana);
    expect(es).toMatchObject({
      name: 'Spark Nuevo',
      pin: false,
      type: 'DOC',
      options: { isTest: false, level: 'PUBLIC', initialMessage: 'Bienvenido a tu nuevo Spark', language: 'es' },
    });
    expect(es.sparkId).toBe(es._id);
    expect(es.options.sysPrompt).toContain('Spark Nuevo');
    // The deploy token lives hashed in `deployments` (deploy.it.ts), never in the Spark's options.
    expect(es.options).not.toHaveProperty('deployToken');
    expect(typeof es.createdAt).toBe('string');
    const en = await newSpark(bob);
    expect(en).toMatchObject({
      name: 'New Spark',
      options: { initialMessage: 'Welcome to your new Spark', language: 'en' },
    });
  });

  it('lists the owner’s Sparks newest first, paginated, with a pinned filter', async () => {
    const u = await createUser(t);
    const made = [];
    for (let i = 0; i < 5; i += 1) made.push(await newSpark(u, { name: `S${i}` }));
    await as(u).patch(`/api/v1/sparks/${made[1]._id}`, { pin: true }).expect(200);
    const page1 = await as(u).get('/api/v1/sparks?limit=2&page=1').expect(200);
    expect(page1.body.data.map((s: { name: string }) => s.name)).toEqual(['S4', 'S3']);
    expect(page1.body.meta).toEqual({ total: 5, page: 1, limit: 2 });
    const page3 = await as(u).get('/api/v1/sparks?limit=2&page=3').expect(200);
    expect(page3.body.data.map((s: { name: string }) => s.name)).toEqual(['S0']);
    const pinned = await as(u).get('/api/v1/sparks?pinned=true').expect(200);
    expect(pinned.body.data.map((s: { name: string }) => s.name)).toEqual(['S1']);
    await as(u).get('/api/v1/sparks?limit=0').expect(400);
  });

  it('pins, unpins and renames; a blank name is refused and nothing changes', async () => {
    const s = await newSpark(ana);
    expect((await as(ana).patch(`/api/v1/sparks/${s._id}`, { pin: true }).expect(200)).body.data.pin).toBe(true);
    expect((await as(ana).patch(`/api/v1/sparks/${s._id}`, { name: '  Mi tienda  ' }).expect(200)).body.data.name).toBe(
      'Mi tienda',
    );
    const blank = await as(ana).patch(`/api/v1/sparks/${s._id}`, { name: '   ' }).expect(400);
    expect(blank.body.errors[0]).toEqual({
      code: 'BLANK_NAME',
      field: 'name',
      message: 'El nombre no puede estar vacío',
    });
    expect((await as(ana).get(`/api/v1/sparks/${s._id}`).expect(200)).body.data).toMatchObject({
      name: 'Mi tienda',
      pin: true,
    });
  });

  it('a new name goes into the Spark’s instructions, from the title (the API) and from its chat (issue 31)', async () => {
    const s = await newSpark(bob, { name: 'Espiga' });
    const prompt = async () =>
      (await as(bob).get(`/api/v1/sparks/${s._id}`).expect(200)).body.data.options.sysPrompt as string;
    expect(await prompt()).toMatch(/^You are Espiga, /);
    await as(bob).patch(`/api/v1/sparks/${s._id}`, { name: 'Espiga Bakery' }).expect(200);
    expect(await prompt()).toMatch(/^You are Espiga Bakery, the assistant of this business/);
    expect(await prompt()).not.toMatch(/Espiga(?! Bakery)/);

    // Instructions the owner wrote without the name get it in front.
    await sql.query(
      `UPDATE sparks SET options = options || '{"sysPrompt": "Answer briefly about our bread."}' WHERE id = $1`,
      [s._id],
    );
    await as(bob).patch(`/api/v1/sparks/${s._id}`, { name: 'Horno Sol' }).expect(200);
    expect(await prompt()).toBe('Your name is Horno Sol. Answer briefly about our bread.');

    // From the builder chat, at any step.
    const chat = (text: string) => as(bob).post(`/api/v1/sparks/${s._id}/messages`, { input: { text } }).expect(201);
    await chat('start');
    await chat('keep');
    await chat('please change the name to Luna Bakery');
    expect((await as(bob).get(`/api/v1/sparks/${s._id}`).expect(200)).body.data.name).toBe('Luna Bakery');
    expect(await prompt()).toBe('Your name is Luna Bakery. Answer briefly about our bread.');
  });

  it('pins at most 4 Sparks: a fifth pin is refused with PIN_LIMIT, even when requests race (issue 18 item 10)', async () => {
    const carl = await createUser(t, { language: 'en', tag: 'carl' });
    await buy(carl, 'price_emeral_month'); // six Sparks: more than the free plan allows
    const made: { _id: string; name: string }[] = [];
    for (let i = 0; i < 6; i++) made.push(await newSpark(carl, { name: `P${i}` }));
    const pinnedNames = async () =>
      ((await as(carl).get('/api/v1/sparks?pinned=true&limit=20').expect(200)).body.data as { name: string }[])
        .map((s) => s.name)
        .sort();

    // Six pins at once: four win, two are refused; nothing else changed.
    const raced = await Promise.all(made.map((s) => as(carl).patch(`/api/v1/sparks/${s._id}`, { pin: true })));
    expect(raced.filter((r) => r.status === 200)).toHaveLength(4);
    const refused = raced.filter((r) => r.status === 409);
    expect(refused).toHaveLength(2);
    expect(refused[0].body.errors[0]).toEqual({
      code: 'PIN_LIMIT',
      field: 'pin',
      message: 'You can pin up to 4 Sparks. Unpin one first',
    });
    expect(await pinnedNames()).toHaveLength(4);

    const pinned = made.filter((_, i) => raced[i].status === 200);
    const unpinned = made.filter((_, i) => raced[i].status === 409);
    // Pinning one already pinned is not a fifth; renaming a pinned one is not a pin.
    await as(carl).patch(`/api/v1/sparks/${pinned[0]._id}`, { pin: true }).expect(200);
    await as(carl).patch(`/api/v1/sparks/${pinned[0]._id}`, { name: 'Renamed' }).expect(200);
    // A pin with a rename is refused whole: the name stays.
    const both = await as(carl).patch(`/api/v1/sparks/${unpinned[0]._id}`, { pin: true, name: 'Nope' }).expect(409);
    expect(both.body.errors[0].code).toBe('PIN_LIMIT');
    expect((await as(carl).get(`/api/v1/sparks/${unpinned[0]._id}`).expect(200)).body.data).toMatchObject({
      name: unpinned[0].name,
      pin: false,
    });
    // Unpinning makes room again.
    await as(carl).patch(`/api/v1/sparks/${pinned[1]._id}`, { pin: false }).expect(200);
    await as(carl).patch(`/api/v1/sparks/${unpinned[0]._id}`, { pin: true }).expect(200);
    expect(await pinnedNames()).toHaveLength(4);
    // Another user's pins are their own: Bob may still pin.
    const bobs = await newSpark(bob);
    await as(bob).patch(`/api/v1/sparks/${bobs._id}`, { pin: true }).expect(200);
  });

  it('allows at most 5 tests per Spark, even when requests race', async () => {
    const s = await newSpark(ana);
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        as(ana).post(`/api/v1/sparks/${s._id}/tests`, { name: `Test ${i}`, params: { waitResponse: true } }),
      ),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(5);
    const refused = results.filter((r) => r.status === 400);
    expect(refused).toHaveLength(3);
    expect(refused[0].body.errors[0]).toEqual({ code: 'TESTS_LIMIT', message: 'No puedes añadir más de 5 pruebas' });
    const en = await t
      .http()
      .post(`/api/v1/sparks/${s._id}/tests`)
      .set(...ana.auth())
      .set('Accept-Language', 'en')
      .send({ name: 'x' });
    // The signed-in user's language wins over the header.
    expect(en.body.errors[0].message).toBe('No puedes añadir más de 5 pruebas');
    expect((await as(ana).get(`/api/v1/sparks/${s._id}/tests`).expect(200)).body.data).toHaveLength(5);
  });

  it('reads, renames, reports errors on and deletes a test', async () => {
    const s = await newSpark(bob);
    const test = (
      await as(bob)
        .post(`/api/v1/sparks/${s._id}/tests`, { name: 'Horarios', params: { documentId: null, waitResponse: true } })
        .expect(201)
    ).body.data;
    expect(test).toMatchObject({ sparkId: s._id, name: 'Horarios', params: { documentId: null, waitResponse: true } });
    await as(bob).get(`/api/v1/sparks/${s._id}/tests/${test._id}`).expect(200);
    expect(
      (await as(bob).patch(`/api/v1/sparks/${s._id}/tests/${test._id}`, { name: 'Opening hours' }).expect(200)).body
        .data.name,
    ).toBe('Opening hours');
    await as(bob).patch(`/api/v1/sparks/${s._id}/tests/${test._id}`, { name: ' ' }).expect(400);
    const reported = await as(bob)
      .post(`/api/v1/sparks/${s._id}/tests/${test._id}/error`, { error: 'It answered in the wrong language' })
      .expect(201);
    expect(reported.body.data).toMatchObject({ testId: test._id, error: 'It answered in the wrong language' });
    await as(bob).delete(`/api/v1/sparks/${s._id}/tests/${test._id}`).expect(200);
    await as(bob).get(`/api/v1/sparks/${s._id}/tests/${test._id}`).expect(404);
  });

  it('deleting a Spark removes its tests, conversations, documents and chunks', async () => {
    const s = await newSpark(bob);
    const test = (await as(bob).post(`/api/v1/sparks/${s._id}/tests`, { name: 'T' }).expect(201)).body.data;
    await addDocument(sql, {
      sparkId: s._id,
      userId: await userIdOf(sql, bob.username),
      name: 'menu.pdf',
      pages: ['Pizza margherita 9 euros.'],
      language: 'en',
    });
    await as(bob)
      .post(`/api/v1/sparks/${s._id}/chat/${test._id}`, { input: { text: 'hello' } })
      .expect(201);
    const count = async (table: string) =>
      Number((await sql.query(`SELECT count(*) FROM ${table} WHERE spark_id = $1`, [s._id])).rows[0].count);
    expect(await count('document_chunks')).toBe(1);
    expect(await count('conversations')).toBe(1);
    await as(bob).delete(`/api/v1/sparks/${s._id}`).expect(200);
    for (const table of ['spark_tests', 'conversations', 'documents', 'document_chunks'])
      expect(await count(table)).toBe(0);
    await as(bob).get(`/api/v1/sparks/${s._id}`).expect(404);
  });

  it('never lets one user read or change another user’s Sparks, tests or conversations', async () => {
    const s = await newSpark(ana);
    const test = (await as(ana).post(`/api/v1/sparks/${s._id}/tests`, { name: 'privado' }).expect(201)).body.data;
    const chat = await as(ana)
      .post(`/api/v1/sparks/${s._id}/chat/${test._id}`, { input: { text: 'hola' } })
      .expect(201);
    const conversationId = chat.body.data.conversationId;
    const intruder = as(bob);
    const notFound = [
      intruder.get(`/api/v1/sparks/${s._id}`),
      intruder.patch(`/api/v1/sparks/${s._id}`, { name: 'mine now' }),
      intruder.delete(`/api/v1/sparks/${s._id}`),
      intruder.get(`/api/v1/sparks/${s._id}/tests`),
      intruder.post(`/api/v1/sparks/${s._id}/tests`, { name: 'x' }),
      intruder.get(`/api/v1/sparks/${s._id}/tests/${test._id}`),
      intruder.patch(`/api/v1/sparks/${s._id}/tests/${test._id}`, { name: 'x' }),
      intruder.delete(`/api/v1/sparks/${s._id}/tests/${test._id}`),
      intruder.post(`/api/v1/sparks/${s._id}/tests/${test._id}/error`, { error: 'x' }),
      intruder.post(`/api/v1/sparks/${s._id}/tests/${test._id}/restart`),
      intruder.get(`/api/v1/sparks/${s._id}/tests/${test._id}/conversation`),
      intruder.post(`/api/v1/sparks/${s._id}/chat/${test._id}`, { input: { text: 'hola' } }),
      intruder.post(`/api/v1/sparks/${s._id}/chat/${test._id}`, { input: { text: 'hola' }, conversationId }),
      intruder.get(`/api/v1/sparks/${s._id}/chat/${test._id}?input.text=hola`),
      intruder.post(`/api/v1/sparks/${s._id}/messages`, { input: { text: 'hola' } }),
      intruder.get(`/api/v1/sparks/${s._id}/conversation`),
      intruder.get(`/api/v1/llm/chat-history/${conversationId}`),
      intruder.get(`/api/v1/spark-sys/conversations/${conversationId}`),
      intruder.get(`/api/v1/spark-sys/main/chat?input.text=hola&sessionId=${conversationId}`),
      intruder.get(`/api/v1/spark-sys/new-spark/chat?input.text=hola&options.sparkId=${s._id}`),
    ];
    const statuses = (await Promise.all(notFound)).map((res, i) => ({ request: i, status: res.status }));
    expect(statuses).toEqual(statuses.map(({ request }) => ({ request, status: 404 })));
    expect(
      (await intruder.get('/api/v1/sparks').expect(200)).body.data.map((x: { _id: string }) => x._id),
    ).not.toContain(s._id);
    // Ana's things are untouched.
    expect((await as(ana).get(`/api/v1/sparks/${s._id}`).expect(200)).body.data.name).toBe('Spark Nuevo');
    expect((await as(ana).get(`/api/v1/sparks/${s._id}/tests`).expect(200)).body.data).toHaveLength(1);
    expect(
      (await as(ana).get(`/api/v1/llm/chat-history/${conversationId}`).expect(200)).body.data.messages.length,
    ).toBeGreaterThan(1);
  });

  it('lets a test name only a document of its own Spark: another user’s or another Spark’s is a 404', async () => {
    // A Spanish user of her own: the shared Ana already holds most of her plan's Sparks.
    const ana = await createUser(t, { language: 'es', tag: 'ana2' });
    const [anaSpark, anaOther, bobSpark] = await Promise.all([newSpark(ana), newSpark(ana), newSpark(bob)]);
    const anaDoc = await addDocument(sql, {
      sparkId: anaSpark._id,
      userId: await userIdOf(sql, ana.username),
      name: 'precios.pdf',
      pages: ['Precios de 2026.'],
      language: 'es',
    });
    const addTest = (u: SignedUser, sparkId: string, documentId: string | null) =>
      as(u).post(`/api/v1/sparks/${sparkId}/tests`, { name: 'Con documento', params: { documentId } });

    const refusals = [
      await addTest(bob, bobSpark._id, anaDoc),
      await addTest(ana, anaOther._id, anaDoc),
      await addTest(ana, anaSpark._id, '00000000-0000-4000-8000-000000000000'),
    ];
    for (const res of refusals) {
      expect(res.status).toBe(404);
      expect(res.body.errors).toEqual([
        {
          code: 'NOT_FOUND',
          field: 'params.documentId',
          message: expect.stringMatching(/^(Not found|No encontrado)$/),
        },
      ]);
    }
    // Someone else's Spark is what is missing then, whatever the document.
    const foreign = await addTest(bob, anaSpark._id, anaDoc).expect(404);
    expect(foreign.body.errors).toEqual([{ code: 'NOT_FOUND', message: 'Not found' }]); // Bob reads English
    for (const [u, s] of [
      [bob, bobSpark],
      [ana, anaOther],
      [ana, anaSpark],
    ] as const) {
      expect((await as(u).get(`/api/v1/sparks/${s._id}/tests`).expect(200)).body.data).toEqual([]);
    }

    const own = await addTest(ana, anaSpark._id, anaDoc).expect(201);
    expect(own.body.data.params).toEqual({ documentId: anaDoc, waitResponse: true });
    await addTest(ana, anaSpark._id, null).expect(201);
  });

  it('refuses malformed ids with 400 rather than touching the database', async () => {
    await as(ana).get('/api/v1/sparks/not-a-uuid').expect(400);
    await t.http().get('/api/v1/sparks').expect(401);
  });
});
