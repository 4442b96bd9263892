import { Pool } from 'pg';
import { readEvents } from './fixtures/sse';
import { createUser, startApp, type SignedUser, type TestApp } from './harness';

const sql = new Pool({ connectionString: process.env.DATABASE_URL, max: 2 });
sql.on('error', () => undefined);
afterAll(() => sql.end());

interface Msg {
  _id: string;
  type: 'human' | 'ai' | 'action';
  data: { content: string; type?: string; [k: string]: unknown };
}

let t: TestApp;
beforeAll(async () => {
  t = await startApp();
});
afterAll(() => t.close());

/** Talks to a system assistant over its event stream, as the SPA does; answers the replies. */
async function sys(
  u: SignedUser,
  name: string,
  text: string,
  sessionId?: string,
  sparkId?: string,
): Promise<{ sessionId: string; replies: Msg[] }> {
  const base = await t.url();
  const params = new URLSearchParams({
    'input.text': text,
    ...(sessionId ? { sessionId } : {}),
    ...(sparkId ? { 'options.sparkId': sparkId } : {}),
  });
  const res = await fetch(`${base}/api/v1/spark-sys/${name}/chat?${params.toString()}`, {
    headers: { Authorization: `Bearer ${u.access}` },
  });
  expect(res.status).toBe(200);
  const events = await readEvents(res);
  const done = events.at(-1)!;
  expect(done.type).toBe('done');
  return { sessionId: events[0].sessionId as string, replies: done.messages as Msg[] };
}

/** Talks to a Spark's builder chat over the JSON transport. */
async function builder(u: SignedUser, sparkId: string, text: string): Promise<Msg[]> {
  const res = await t
    .http()
    .post(`/api/v1/sparks/${sparkId}/messages`)
    .set(...u.auth())
    .send({ input: { text } })
    .expect(201);
  return res.body.data.messages as Msg[];
}

const texts = (replies: Msg[]) => replies.filter((m) => m.type === 'ai').map((m) => m.data.content);
const action = (replies: Msg[], type: string) => replies.find((m) => m.type === 'action' && m.data.type === type)?.data;

/** Every button of docs/product.md §3 has a label and exactly one of value, goto or link. */
function expectButtons(list: Array<Record<string, unknown>>) {
  for (const b of list) {
    expect(typeof b.label).toBe('string');
    expect(['value', 'goto', 'link'].filter((k) => b[k] !== undefined)).toHaveLength(1);
  }
}

describe('main assistant (chat home)', () => {
  it.each(['es', 'en'] as const)(
    'does not greet a second time (the welcome bubble does), offers the next actions and answers product questions (%s)',
    async (lang) => {
      const u = await createUser(t, { language: lang });
      const first = await sys(u, 'main', 'inicio');
      expect(texts(first.replies)[0]).toBe(
        lang === 'es'
          ? 'Puedo ayudarte con todo lo de Sparks: elige una opción o escríbeme tu pregunta.'
          : 'I can help with anything about Sparks: pick an option or type your question.',
      );
      expect(texts(first.replies).join(' ')).not.toContain(u.username);
      // The welcome bubble above offers the actions: the first reply does not repeat them (issue 18 walk).
      expect(first.replies.filter((m) => m.type === 'action')).toEqual([]);
      const asked = await sys(u, 'main', lang === 'es' ? '¿Qué es un Spark?' : 'What is a Spark?', first.sessionId);
      const buttons = action(asked.replies, 'buttons')!.buttons as Array<Record<string, unknown>>;
      expectButtons(buttons);
      expect(buttons.map((b) => b.goto ?? b.value)).toEqual(['/new-spark', '/profile', 'question']); // no Sparks yet: no "open"

      const spark = (
        await t
          .http()
          .post('/api/v1/sparks')
          .set(...u.auth())
          .send({ name: 'Mi Tienda' })
          .expect(201)
      ).body.data;
      const again = await sys(u, 'main', lang === 'es' ? '¿Qué es un Spark?' : 'What is a Spark?', first.sessionId);
      const withSpark = action(again.replies, 'buttons')!.buttons as Array<Record<string, unknown>>;
      expect(withSpark[1]).toEqual({
        label: lang === 'es' ? 'Abrir Mi Tienda' : 'Open Mi Tienda',
        goto: `/spark/${spark._id}`,
      });

      const q = await sys(u, 'main', lang === 'es' ? 'Tengo una pregunta' : 'I have a question', first.sessionId);
      expect(texts(q.replies)[0]).toMatch(lang === 'es' ? /^Claro, pregúntame/ : /^Sure, ask me anything/);
      const help = await sys(
        u,
        'main',
        lang === 'es' ? '¿Qué tamaño pueden tener los documentos que subo?' : 'How big can the documents I upload be?',
        first.sessionId,
      );
      expect(texts(help.replies)[0]).toContain('10 MB');
      const plans = await sys(
        u,
        'main',
        lang === 'es' ? '¿Cuánto cuesta el plan Emerald?' : 'How much is the Emerald plan?',
        first.sessionId,
      );
      expect(texts(plans.replies)[0]).toMatch(/90 euros/);
    },
  );
});

describe('the help chat knows the product (issue 31)', () => {
  it.each([
    [
      'en',
      'How do I put the chat on my WordPress site?',
      ['Pulse', '[sparks-pulse.zip](/downloads/sparks-pulse.zip)', 'Settings → Sparks Pulse', '[Deploy](/deploy)'],
    ],
    [
      'es',
      '¿Cómo pongo el chat en mi web de WordPress?',
      ['Pulse', '[sparks-pulse.zip](/downloads/sparks-pulse.zip)', 'Ajustes → Sparks Pulse'],
    ],
    ['en', 'How do I add the chat to my website?', ['[Deploy](/deploy)', 'Website widget', 'before </body>']],
    ['es', '¿Cómo publico mi Spark en mi web?', ['[Desplegar](/deploy)', 'Widget para tu web', 'antes de </body>']],
    [
      'en',
      'What plans are there?',
      ['[Plans](/billing?showPlans=true)', 'Emerald costs 90 euros per month', '3 published Sparks'],
    ],
    ['es', '¿Qué planes hay y cuánto cuestan?', ['[Planes](/billing?showPlans=true)', 'Ruby cuesta 45 euros al mes']],
    [
      'en',
      'Can I publish my Spark during the free trial?',
      ['15-day free trial', '1 published Spark', 'publishing too'],
    ],
    [
      'es',
      '¿Puedo publicar durante la prueba gratuita?',
      ['prueba gratuita de 15 días', '1 Spark publicado', 'también publicar'],
    ],
    ['en', 'How do I upload documents?', ['attach button', '10 MB']],
    ['es', '¿Cómo subo mis documentos?', ['botón de adjuntar', '10 MB']],
    ['en', 'How do I test my Spark?', ['Create a test', 'up to 5 tests']],
    ['es', '¿Cómo pruebo mi Spark?', ['Crear una prueba', 'hasta 5 pruebas']],
    ['en', 'How do I change the colours of my Spark?', ['make it green', 'the second colour']],
    ['es', '¿Cómo cambio el nombre de mi Spark?', ['cambia el nombre a Espiga', 'título']],
  ] as const)('%s: “%s” gets the steps and the links', async (lang, question, expected) => {
    const u = await createUser(t, { language: lang });
    const first = await sys(u, 'main', lang === 'es' ? 'inicio' : 'start');
    const answer = texts((await sys(u, 'main', question, first.sessionId)).replies)[0];
    for (const part of expected) expect(answer).toContain(part);
  });
});

describe('new-spark assistant', () => {
  it.each(['es', 'en'] as const)(
    'creates a Spark by chatting, re-asks wrong answers, resumes after a reload (%s)',
    async (lang) => {
      const u = await createUser(t, { language: lang });
      const es = lang === 'es';
      const s = await sys(u, 'new-spark', 'inicio');
      expect(texts(s.replies)).toEqual([
        es
          ? '¡Vamos a crear tu Spark! ¿Cómo se llama tu negocio?'
          : "Let's create your Spark! What is your business called?",
      ]);
      const short = await sys(u, 'new-spark', 'X', s.sessionId);
      expect(texts(short.replies)[0]).toBe(
        es
          ? 'No te he entendido. Necesito un poco más de detalle (al menos 2 caracteres).'
          : "I didn't quite get that. I need a little more detail (at least 2 characters).",
      );
      await sys(u, 'new-spark', 'Panadería Lucía', s.sessionId);

      // A reload: the same session, opened again with the start keyword, goes on where it was.
      const resumed = await sys(u, 'new-spark', 'inicio', s.sessionId);
      expect(texts(resumed.replies)).toEqual([
        es ? 'Seguimos donde lo dejamos.' : "Let's pick up where we left off.",
        es
          ? '¿A qué se dedica Panadería Lucía? Cuéntamelo en una o dos frases.'
          : 'What does Panadería Lucía do? Tell me in a sentence or two.',
      ]);
      const purpose = await sys(u, 'new-spark', 'Pan artesano y bollería en el centro de Sevilla', s.sessionId);
      const options = action(purpose.replies, 'options')!.options as Array<Record<string, unknown>>;
      expectButtons(options);
      expect(options.map((o) => o.value)).toEqual(['questions', 'sell', 'bookings', 'support']);
      const wrong = await sys(u, 'new-spark', 'bailar flamenco', s.sessionId);
      expect(texts(wrong.replies)[0]).toMatch(
        es
          ? /^No te he entendido\. Elige una de las opciones: Responder preguntas de clientes, /
          : /^I didn't quite get that\. Please choose one of: Answer customer questions, /,
      );
      expect(action(wrong.replies, 'options')).toBeDefined(); // the widget is shown again
      await sys(u, 'new-spark', es ? 'la segunda' : 'second', s.sessionId);
      const done = await sys(u, 'new-spark', es ? 'español' : 'Spanish', s.sessionId);
      const event = action(done.replies, 'event')!;
      expect(event).toMatchObject({ event: 'sparkCreated', name: 'Panadería Lucía' });
      const go = action(done.replies, 'buttons')!.buttons as Array<Record<string, unknown>>;
      expect(go).toEqual([
        { label: es ? 'Ir a mi Spark' : 'Go to my Spark', goto: `/spark/${event.sparkId as string}` },
      ]);
      const spark = (
        await t
          .http()
          .get(`/api/v1/sparks/${event.sparkId as string}`)
          .set(...u.auth())
          .expect(200)
      ).body.data;
      expect(spark).toMatchObject({
        name: 'Panadería Lucía',
        type: 'DOC',
        options: {
          business: 'Panadería Lucía',
          description: 'Pan artesano y bollería en el centro de Sevilla',
          purpose: 'sell',
          language: 'es',
          initialMessage: 'Bienvenido a tu nuevo Spark',
        },
      });
    },
  );
});

describe('Spark builder chat and its objectives', () => {
  it.each(['es', 'en'] as const)('guides the owner through all five objectives (%s)', async (lang) => {
    const u = await createUser(t, { language: lang });
    const es = lang === 'es';
    const spark = (
      await t
        .http()
        .post('/api/v1/sparks')
        .set(...u.auth())
        .send({})
        .expect(201)
    ).body.data;
    const id = spark._id as string;
    const objectives = async () =>
      (
        await t
          .http()
          .get(`/api/v1/objectives/${id}?lang=${lang}`)
          .set(...u.auth())
          .expect(200)
      ).body;

    const start = await objectives();
    expect(start.data.map((o: { _id: string }) => o._id)).toEqual(['business', 'knowledge', 'look', 'test', 'deploy']);
    expect(start.data[0]).toMatchObject({
      title: es ? 'Describe tu negocio' : 'Describe your business',
      status: 'pending',
    });
    expect(start.data[0].steps[0]).toEqual({ _id: 'business.name', title: es ? 'Nombre' : 'Name', status: 'pending' });
    expect(start.meta).toMatchObject({ progress: 0, title: spark.name });

    const intro = await builder(u, id, 'inicio');
    expect(texts(intro)[1]).toContain(spark.name);
    expect(texts(await builder(u, id, 'Bici Norte'))[0]).toBe(
      es ? 'Nombre guardado: Bici Norte.' : 'Name saved: Bici Norte.',
    );
    await builder(u, id, 'Alquiler y reparación de bicicletas en Bilbao');
    const afterTone = await builder(u, id, es ? 'profesional' : 'professional');
    expect(texts(afterTone).some((x) => x.includes(es ? 'PDF' : 'PDF'))).toBe(true);
    const mid = await objectives();
    expect(mid.data[0].status).toBe('completed');
    expect(mid.meta.progress).toBe(Math.round((3 / 12) * 100));
    const prompt = (
      await t
        .http()
        .get(`/api/v1/sparks/${id}`)
        .set(...u.auth())
        .expect(200)
    ).body.data.options.sysPrompt as string;
    expect(prompt).toContain('Bici Norte');
    expect(prompt).toContain('Alquiler y reparación de bicicletas en Bilbao');

    // Waiting for a document: chatter is answered, a read document moves the flow on.
    expect(texts(await builder(u, id, 'hola'))[0]).toMatch(es ? /^Sigo esperando/ : /^I'm still waiting/);
    await t
      .http()
      .patch(`/api/v1/objectives/${id}`)
      .set(...u.auth())
      .send({ stepId: 'knowledge.upload', status: 'completed' })
      .expect(200);
    const lang1 = await builder(u, id, 'listo');
    expect(action(lang1, 'options')!.options).toEqual([
      { label: es ? 'Español' : 'Spanish', value: 'es' },
      { label: es ? 'Inglés' : 'English', value: 'en' },
    ]);
    const palette = action(await builder(u, id, es ? 'inglés' : 'English'), 'colorPalette')!;
    expect((palette.palettes as unknown[]).length).toBeGreaterThan(3);
    expect((palette.palettes as Array<Record<string, string>>)[0]).toEqual({
      name: es ? 'Violeta' : 'Violet',
      primary: '#6d4aff',
      secondary: '#efeaff',
    });
    const icons = action(await builder(u, id, es ? 'océano' : 'ocean'), 'iconSelector')!;
    expect((icons.icons as Array<Record<string, string>>)[2]).toEqual({ name: 'Robot', icon: 'robot' });
    expect(texts(await builder(u, id, 'robot'))[0]).toContain(
      es ? 'Bienvenido a tu nuevo Spark' : 'Welcome to your new Spark',
    );
    const preview = action(await builder(u, id, 'Hi! Ask me about rentals'), 'widgetPreview')!;
    expect(preview.preview).toEqual({
      name: 'Bici Norte',
      initialMessage: 'Hi! Ask me about rentals',
      language: 'en',
      palette: { name: 'ocean', primary: '#0b6bcb', secondary: '#e3f1ff' },
      icon: 'robot',
    });
    // "No" asks what to change (issue 31), and shows the preview again after it.
    const what = await builder(u, id, 'no');
    expect(texts(what)).toEqual([es ? '¿Qué quieres cambiar?' : 'What would you like to change?']);
    expect(action(await builder(u, id, es ? 'los colores' : 'the colours'), 'colorPalette')).toBeDefined();
    const again = action(await builder(u, id, es ? 'bosque' : 'forest'), 'widgetPreview')!;
    expect(again.preview).toMatchObject({ palette: { name: 'forest', primary: '#1f7a4d', secondary: '#e4f5ec' } });
    const testStep = await builder(u, id, es ? 'sí' : 'yes');
    expect((action(testStep, 'buttons')!.buttons as Array<{ value: string }>).map((b) => b.value)).toEqual([
      'create',
      'skip',
    ]);
    const judge = await builder(u, id, es ? 'crear una prueba' : 'create a test');
    const testId = action(judge, 'event')!.testId as string;
    const tests = (
      await t
        .http()
        .get(`/api/v1/sparks/${id}/tests`)
        .set(...u.auth())
        .expect(200)
    ).body.data;
    expect(tests).toEqual([expect.objectContaining({ _id: testId, name: es ? 'Prueba 1' : 'Test 1' })]);
    const openTest = (action(judge, 'buttons')!.buttons as Array<Record<string, string>>)[0];
    expect(openTest.goto).toBe(`/spark/${id}/test/${testId}`);

    // The test verdict arrives as the message the SPA sends after the feedback dialog.
    const verdict = await builder(u, id, 'test satisfactory');
    expect(texts(verdict)[0]).toBe(
      es ? '¡Genial! Marco la prueba como satisfactoria.' : "Great! I'm marking the test as satisfactory.",
    );
    const deploy = action(verdict, 'buttons')!.buttons as Array<Record<string, string>>;
    expect(deploy).toEqual([
      { label: es ? 'Publicar Bici Norte' : 'Publish Bici Norte', goto: '/deploy?q=Bici%20Norte' },
    ]);

    const end = await objectives();
    expect(end.data.map((o: { status: string }) => o.status)).toEqual([
      'completed',
      'completed',
      'completed',
      'completed',
      'pending',
    ]);
    expect(end.meta.progress).toBe(Math.round((11 / 12) * 100));
    // Published on /deploy by the trial account, as the builder offered (issue 31: the trial publishes one Spark):
    // "Deploy it" is done (docs/product.md §4), 100 %, and the builder says its last words.
    await t
      .http()
      .post(`/api/v1/sparks/${id}/deployment`)
      .set(...u.auth())
      .send({})
      .expect(200);
    const live = await objectives();
    expect(live.data.map((o: { status: string }) => o.status).every((s: string) => s === 'completed')).toBe(true);
    expect(live.meta).toMatchObject({ progress: 100, isCompleted: true });
    expect(texts(await builder(u, id, es ? 'hola' : 'hello'))).toContain(
      es ? '¡Todo listo! Tu Spark ya atiende a tus clientes.' : 'All set! Your Spark is now serving your customers.',
    );
    const spark2 = (
      await t
        .http()
        .get(`/api/v1/sparks/${id}`)
        .set(...u.auth())
        .expect(200)
    ).body.data;
    expect(spark2.options).toMatchObject({
      language: 'en',
      initialMessage: 'Hi! Ask me about rentals',
      theme: { icon: 'robot', palette: { name: 'forest' } },
    });
    expect(spark2.options.sysPrompt).toMatch(/^You are Bici Norte/); // rebuilt in the Spark's new language

    // Seeing and changing the instructions from the chat.
    const card = action(await builder(u, id, es ? 'ver instrucciones' : 'show instructions'), 'card')!;
    expect((card.info as Array<{ value: string }>)[0].value).toBe(spark2.options.sysPrompt);
    await builder(u, id, es ? 'cambiar instrucciones' : 'change instructions');
    // Shown for confirmation first (issue 18 item 4), saved on yes.
    const draft = await builder(u, id, 'Answer only about bike rentals in Bilbao.');
    expect((action(draft, 'card')!.info as Array<{ value: string }>)[0].value).toBe(
      'Answer only about bike rentals in Bilbao.',
    );
    await builder(u, id, es ? 'sí' : 'yes');
    expect(
      (
        await t
          .http()
          .get(`/api/v1/sparks/${id}`)
          .set(...u.auth())
          .expect(200)
      ).body.data.options.sysPrompt,
    ).toBe('Answer only about bike rentals in Bilbao.');

    // The conversation resumes from the server after a reload.
    const history = (
      await t
        .http()
        .get(`/api/v1/sparks/${id}/conversation`)
        .set(...u.auth())
        .expect(200)
    ).body.data;
    expect(history.messages.length).toBeGreaterThan(40);
  });

  it('once the trial has ended without a plan, the builder says why it cannot publish and offers the plans (issue 31)', async () => {
    const u = await createUser(t, { language: 'en' });
    const id = (
      await t
        .http()
        .post('/api/v1/sparks')
        .set(...u.auth())
        .send({ name: 'Espiga', options: { language: 'en' } })
        .expect(201)
    ).body.data._id as string;
    await builder(u, id, 'start');
    await sql.query(
      "UPDATE tenants SET trial_ends_at = now() - interval '1 day' WHERE user_id = (SELECT id FROM users WHERE username = $1)",
      [u.username],
    );
    await sql.query(
      "UPDATE conversations SET state = jsonb_set(state, '{step}', '\"test.judge\"') WHERE spark_id = $1",
      [id],
    );
    const told = await builder(u, id, 'skip');
    expect(texts(told)).toContain(
      '“Espiga” is ready, but your plan does not include published Sparks. Choose a plan to publish it on your website.',
    );
    expect(action(told, 'buttons')!.buttons).toEqual([{ label: 'See the plans', goto: '/billing?showPlans=true' }]);
    await t
      .http()
      .post(`/api/v1/sparks/${id}/deployment`)
      .set(...u.auth())
      .send({})
      .expect(402);
  });

  it('marks a test that went wrong as an error step and explains what to do', async () => {
    const u = await createUser(t, { language: 'es' });
    const spark = (
      await t
        .http()
        .post('/api/v1/sparks')
        .set(...u.auth())
        .send({})
        .expect(201)
    ).body.data;
    const reply = await builder(u, spark._id, 'test not satisfactory');
    expect(texts(reply)[0]).toMatch(/^Vaya\. Marco la prueba como no satisfactoria/);
    const o = (
      await t
        .http()
        .get(`/api/v1/objectives/${spark._id}`)
        .set(...u.auth())
        .expect(200)
    ).body.data;
    expect(o[3]).toMatchObject({
      _id: 'test',
      status: 'inProgress',
      steps: [{ status: 'pending' }, { _id: 'test.judge', status: 'error' }],
    });
  });

  it('keeps objectives private and validates updates', async () => {
    const [a, b] = await Promise.all([createUser(t), createUser(t)]);
    const spark = (
      await t
        .http()
        .post('/api/v1/sparks')
        .set(...a.auth())
        .send({})
        .expect(201)
    ).body.data;
    await t
      .http()
      .get(`/api/v1/objectives/${spark._id}`)
      .set(...b.auth())
      .expect(404);
    await t
      .http()
      .patch(`/api/v1/objectives/${spark._id}`)
      .set(...b.auth())
      .send({ stepId: 'business.name', status: 'completed' })
      .expect(404);
    await t
      .http()
      .patch(`/api/v1/objectives/${spark._id}`)
      .set(...a.auth())
      .send({ stepId: 'nope', status: 'completed' })
      .expect(400);
    await t
      .http()
      .patch(`/api/v1/objectives/${spark._id}`)
      .set(...a.auth())
      .send({ stepId: 'business.name', status: 'done' })
      .expect(400);
    await t
      .http()
      .get('/api/v1/objectives/whatever')
      .set(...a.auth())
      .expect(400);
    const deploy = (
      await t
        .http()
        .get('/api/v1/objectives/deploy?lang=es')
        .set(...a.auth())
        .expect(200)
    ).body;
    // The deploy assistant's objectives (issue 16): three groups of steps, none done yet.
    expect(deploy.meta).toEqual({ progress: 0, isCompleted: false, title: 'Despliegue', key: 'deploy' });
    const groups = deploy.data as Array<{ _id: string; status: string; steps: Array<{ _id: string; status: string }> }>;
    expect(groups.map((g) => [g._id, g.steps.map((step) => step._id)])).toEqual([
      ['choose', ['deploy.spark', 'deploy.channel']],
      ['sites', ['deploy.sites', 'deploy.preview']],
      ['publish', ['deploy.publish', 'deploy.verify']],
    ]);
    expect(groups.flatMap((g) => [g.status, ...g.steps.map((step) => step.status)]).every((x) => x === 'pending')).toBe(
      true,
    );

    // The deploy page's panel marks a step (PATCH /objectives/deploy): the owner's objectives move, nobody else's.
    await t
      .http()
      .patch('/api/v1/objectives/deploy')
      .set(...a.auth())
      .send({ stepId: 'deploy.spark', status: 'completed' })
      .expect(200);
    await t
      .http()
      .patch('/api/v1/objectives/deploy')
      .set(...a.auth())
      .send({ stepId: 'deploy.nope', status: 'completed' })
      .expect(400);
    const marked = (
      await t
        .http()
        .get('/api/v1/objectives/deploy?lang=en')
        .set(...a.auth())
        .expect(200)
    ).body;
    expect(marked.meta).toMatchObject({ progress: Math.round((1 / 6) * 100), isCompleted: false });
    expect(marked.data[0]).toMatchObject({
      _id: 'choose',
      status: 'inProgress',
      steps: [
        { _id: 'deploy.spark', status: 'completed' },
        { _id: 'deploy.channel', status: 'pending' },
      ],
    });
    const others = (
      await t
        .http()
        .get('/api/v1/objectives/deploy?lang=en')
        .set(...b.auth())
        .expect(200)
    ).body;
    expect(others.meta.progress).toBe(0);
  });
});

describe('the builder reads a free description without a language model (issue 17 item 4)', () => {
  it.each([
    [
      'es',
      'Somos Espiga, una panadería en Madrid, abrimos de lunes a sábado de 8 a 20, tono cercano',
      ['Espiga', 'Una panadería en Madrid', 'cercano y amable', 'Abrimos de lunes a sábado de 8 a 20'],
      'sí',
    ],
    [
      'en',
      'We are Espiga, a bakery in Madrid, open Monday to Saturday 8 to 20, friendly tone',
      ['Espiga', 'A bakery in Madrid', 'warm and friendly', 'Open Monday to Saturday 8 to 20'],
      'yes',
    ],
  ] as const)('fills the business from one message, after confirming it (%s)', async (lang, text, values, yes) => {
    const u = await createUser(t, { language: lang });
    const id = (
      await t
        .http()
        .post('/api/v1/sparks')
        .set(...u.auth())
        .send({ options: { language: lang } })
        .expect(201)
    ).body.data._id as string;
    await builder(u, id, 'inicio');
    const told = await builder(u, id, text);
    const card = action(told, 'card') as { info: Array<{ value: string }> } | undefined;
    expect(card?.info.map((i) => i.value)).toEqual(values);
    await builder(u, id, yes);
    const row = (
      await sql.query<{ name: string; options: Record<string, string> }>(
        'SELECT name, options FROM sparks WHERE id = $1',
        [id],
      )
    ).rows[0];
    expect(row.name).toBe('Espiga');
    expect(row.options).toMatchObject({ description: values[1], tone: 'friendly', hours: values[3] });
    expect(row.options.sysPrompt).toContain(values[3]);
    const objectives = (
      await t
        .http()
        .get(`/api/v1/objectives/${id}?lang=${lang}`)
        .set(...u.auth())
        .expect(200)
    ).body.data as Array<{ _id: string; status: string }>;
    expect(objectives[0]).toMatchObject({ _id: 'business', status: 'completed' });
  });
});

describe('a builder conversation stored before issue 31 (state version 1)', () => {
  it('keeps working: its pending confirmation is read, answered, and stored again as version 2', async () => {
    const u = await createUser(t, { language: 'en' });
    const id = (
      await t
        .http()
        .post('/api/v1/sparks')
        .set(...u.auth())
        .send({ name: 'Espiga', options: { language: 'en' } })
        .expect(201)
    ).body.data._id as string;
    await builder(u, id, 'start');
    // What the engine stored until issue 31: `awaiting`, and the draft as a variable.
    const draft = 'You are the assistant of Espiga, a bakery in Madrid; answer briefly and kindly.';
    const updated = await sql.query("UPDATE conversations SET state = $2 WHERE spark_id = $1 AND kind = 'builder'", [
      id,
      { flow: 'builder', step: 'business.name', vars: { draftPrompt: draft }, awaiting: 'promptConfirm' },
    ]);
    expect(updated.rowCount).toBe(1);
    const saved = await builder(u, id, 'yes');
    expect(texts(saved)[0]).toContain('saved the new instructions');
    const row = (await sql.query<{ options: { sysPrompt: string } }>('SELECT options FROM sparks WHERE id = $1', [id]))
      .rows[0];
    expect(row.options.sysPrompt).toBe(draft);
    const state = (
      await sql.query<{ state: Record<string, unknown> }>(
        "SELECT state FROM conversations WHERE spark_id = $1 AND kind = 'builder'",
        [id],
      )
    ).rows[0].state;
    expect(state).toMatchObject({
      v: 2,
      flow: 'builder',
      step: 'business.name',
      vars: { previousPrompt: expect.any(String) },
    });
    expect(state).not.toHaveProperty('awaiting');
  });
});

describe('profile, settings and onboarding assistants', () => {
  it('shows the user card and changes names and language (es → en)', async () => {
    const u = await createUser(t, { language: 'es' });
    const s = await sys(u, 'profile', 'inicio');
    const card = action(s.replies, 'userCard')!;
    expect(card.title).toBe('Tus datos');
    expect(card.info).toEqual([
      { type: 'Nombre', result: '—' },
      { type: 'Apellidos', result: '—' },
      { type: 'Correo', result: u.username },
      { type: 'Idioma', result: 'Español' },
      { type: 'Plan', result: 'Plan gratuito' },
    ]);
    // Stored with how it reads in English, and served so on a reload (issue 34 item 3): a switch turns it at once.
    const english = {
      title: 'Your details',
      info: [
        { type: 'First name', result: '—' },
        { type: 'Last name', result: '—' },
        { type: 'E-mail', result: u.username },
        { type: 'Language', result: 'English' },
        { type: 'Plan', result: 'Free plan' },
      ],
    };
    expect(card.i18n).toEqual({ en: english });
    const stored = (
      await t
        .http()
        .get(`/api/v1/spark-sys/conversations/${s.sessionId}`)
        .set(...u.auth())
        .expect(200)
    ).body.data.messages as Msg[];
    expect(action(stored, 'userCard')!.i18n).toEqual({ en: english });
    expect(action(stored, 'options')!.i18n).toMatchObject({
      en: { options: expect.arrayContaining([{ label: 'My language', value: 'language' }]) },
    });
    expect(stored.find((m) => m.type === 'ai')!.data.i18n).toEqual({
      en: { content: 'These are your details. What would you like to change?' },
    });
    await sys(u, 'profile', 'mi nombre', s.sessionId);
    expect(texts((await sys(u, 'profile', 'Ana', s.sessionId)).replies)[0]).toBe('Hecho, Ana.');
    await sys(u, 'profile', 'apellidos', s.sessionId);
    await sys(u, 'profile', 'García López', s.sessionId);
    await sys(u, 'profile', 'idioma', s.sessionId);
    const switched = await sys(u, 'profile', 'inglés', s.sessionId);
    expect(texts(switched.replies)[0]).toBe('Language changed to English.');
    expect(action(switched.replies, 'userCard')!.title).toBe('Your details');
    const profile = (
      await t
        .http()
        .get('/api/v1/account/profile')
        .set(...u.auth())
        .expect(200)
    ).body.data;
    expect(profile).toMatchObject({ firstname: 'Ana', lastname: 'García López', config: { language: 'en' } });
    const o = (
      await t
        .http()
        .get('/api/v1/objectives/profile-menu')
        .set(...u.auth())
        .expect(200)
    ).body;
    expect(o.data[0]).toMatchObject({ _id: 'profile', title: 'Complete your profile', status: 'completed' });
    expect(o.meta.progress).toBe(100);
  });

  it('deactivates the account only after confirmation (settings, en)', async () => {
    const u = await createUser(t, { language: 'en' });
    const s = await sys(u, 'settings', 'inicio');
    await sys(u, 'settings', 'deactivate my account', s.sessionId);
    expect(texts((await sys(u, 'settings', 'maybe', s.sessionId)).replies)[0]).toBe(
      "I didn't quite get that. Please answer yes or no.",
    );
    expect(texts((await sys(u, 'settings', 'no', s.sessionId)).replies)[0]).toBe(
      'All right, your account stays active.',
    );
    const status = async () =>
      (
        await t
          .http()
          .get('/api/v1/account/profile')
          .set(...u.auth())
          .expect(200)
      ).body.data.tenants[0].status;
    expect(await status()).toBe('active');
    await sys(u, 'settings', 'deactivate', s.sessionId);
    await sys(u, 'settings', 'yes', s.sessionId);
    expect(await status()).toBe('inactive');
  });

  it('onboards a new user: name, language, Sparks in three steps, first Spark (es)', async () => {
    const u = await createUser(t, { language: 'es' });
    const s = await sys(u, 'onboarding', 'inicio');
    expect(texts(s.replies)).toEqual([
      'Te damos la bienvenida a Sparks. Te ayudo a empezar en un minuto.',
      '¿Cómo te llamas?',
    ]);
    const lang = await sys(u, 'onboarding', 'Lucía', s.sessionId);
    expect(texts(lang.replies)[0]).toBe('Encantado, Lucía. ¿En qué idioma prefieres usar Sparks?');
    const end = await sys(u, 'onboarding', 'español', s.sessionId);
    expect((action(end.replies, 'card')!.info as unknown[]).length).toBe(3);
    const offer = action(end.replies, 'onboarding')!.onboarding as Array<Record<string, unknown>>;
    expectButtons(offer);
    expect(offer.map((o) => o.goto)).toEqual(['/new-spark', '/']);
  });

  it('the billing assistant shows the plan and usage, the plans of the catalogue and buttons to buy (es)', async () => {
    const u = await createUser(t, { language: 'es' });
    const objectives = async () =>
      (
        await t
          .http()
          .get('/api/v1/objectives/billing')
          .set(...u.auth())
          .expect(200)
      ).body as { data: Array<{ _id: string; title: string; steps: Array<{ _id: string; status: string }> }> };
    const before = await objectives();
    expect(before.data.map((o) => [o._id, o.title])).toEqual([
      ['plan', 'Conoce tu plan'],
      ['subscribe', 'Empieza un plan'],
      ['credits', 'Más interacciones'],
    ]);
    expect(before.data.flatMap((o) => o.steps.map((st) => st.status))).toEqual([
      'pending',
      'pending',
      'pending',
      'pending',
    ]);
    const s = await sys(u, 'billing', 'Quiero empezar un plan');
    // Seeing the plan and usage completes the first objective; choosing and paying happen at checkout.
    const after = await objectives();
    expect(after.data.flatMap((o) => o.steps.map((st) => [st._id, st.status]))).toEqual([
      ['billing.usage', 'completed'],
      ['billing.choose', 'pending'],
      ['billing.pay', 'pending'],
      ['billing.credits', 'pending'],
    ]);
    const usage = action(s.replies, 'userCard')!;
    expect(usage.info).toEqual([
      { type: 'Plan', result: 'Plan gratuito' },
      { type: 'Prueba gratuita', result: 'Quedan 15 días' },
      { type: 'Interacciones', result: '0 de 100 en este periodo' },
      { type: 'Interacciones compradas sin usar', result: '0' },
    ]);
    const cards = s.replies.filter((m) => m.type === 'action' && m.data.type === 'card').map((m) => m.data);
    expect(cards.map((c) => c.title)).toEqual(['Ruby', 'Emerald', 'Zaphire']);
    expect(cards[0].info).toContainEqual({ label: 'Precio', value: '45,00\u00a0€ / mes' });
    const buttons = action(s.replies, 'buttons')!.buttons as Array<Record<string, unknown>>;
    expectButtons(buttons);
    expect(buttons.map((b) => b.goto)).toEqual(['/billing?showPlans=true', '/billing?showCredits=true', undefined]);
  });

  it.each([
    ['billing', /^Here is where you stand: your plan/],
    ['deploy', /^Let's publish your Spark\. The steps are in the panel/],
  ])('opens the %s assistant, which says what it will do', async (name, greeting) => {
    const u = await createUser(t, { language: 'en' });
    const s = await sys(u, name, 'inicio');
    expect(texts(s.replies)[0]).toMatch(greeting);
  });
});
