import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { Pool } from 'pg';
import { addDocument, userIdOf } from './fixtures/knowledge';
import { readEvents } from './fixtures/sse';
import { createUser, startApp, type SignedUser, type TestApp } from './harness';
import { ROOT } from './paths';
import { instructionsOf, startOpenAiServer, type OpenAiServer } from './support/openai-server';

/**
 * Issue 17 items 3 and 4 with a language model: a local server that speaks the OpenAI Chat Completions
 * protocol (support/openai-server.js) stands in for the model; the api, the worker, PostgreSQL and Redis
 * are real. In its `grounded` mode the server composes its reply from the numbered passages it is sent,
 * so what the chat shows can only come from what retrieval gave the model.
 */
const sql = new Pool({ connectionString: process.env.DATABASE_URL, max: 2 });
sql.on('error', () => undefined);
afterAll(() => sql.end());

const HANDBOOK = [
  'Welcome to Northwind Bikes. We repair and rent bicycles in Portland.',
  'Rentals cost 25 dollars per day, helmet and lock included. Electric bikes cost 45 dollars per day.',
  'Our return policy: unused parts can be returned within 30 days with the receipt for a full refund.',
];
const CATALOGO = [
  'Bienvenidos a Panadería Lucía. Somos una panadería artesana en el centro de Sevilla desde 1998.',
  'Horario de apertura: de lunes a sábado abrimos de 8:00 a 20:00. Los domingos y festivos permanece cerrada.',
  'Hacemos envíos a domicilio en toda la ciudad por 3 euros. Los pedidos de más de 30 euros tienen el envío gratuito.',
];

interface Ctx {
  user: SignedUser;
  sparkId: string;
  testId: string;
}
interface Reply {
  _id: string;
  type: string;
  data: { content: string; type?: string; answer?: string; engine?: string; sources?: unknown[] };
}

let llm: OpenAiServer;
let worker: ChildProcess;
let t: TestApp;
const prefix = `${process.env.QUEUE_PREFIX}_llm`;

beforeAll(async () => {
  llm = await startOpenAiServer();
  worker = spawn(process.execPath, [path.join(ROOT, 'worker', 'dist', 'main.js')], {
    cwd: ROOT,
    env: {
      ...process.env,
      QUEUE_PREFIX: prefix,
      LLM_BASE_URL: llm.url,
      LLM_API_KEY: 'sk-test',
      LLM_MODEL: 'test-model',
      LLM_TIMEOUT_MS: '1500',
      LOG_LEVEL: 'error',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  t = await startApp({ QUEUE_PREFIX: prefix });
});
afterAll(async () => {
  await t.close();
  worker.kill('SIGTERM');
  await new Promise((r) => worker.once('exit', r));
  await llm.close();
});
beforeEach(() => {
  llm.setMode({ kind: 'grounded' });
  llm.setDelay(0);
});

async function sparkWithDocs(language: 'es' | 'en'): Promise<Ctx> {
  const user = await createUser(t, { language });
  const spark = (
    await t
      .http()
      .post('/api/v1/sparks')
      .set(...user.auth())
      .send({ options: { language } })
      .expect(201)
  ).body.data as { _id: string };
  const test = (
    await t
      .http()
      .post(`/api/v1/sparks/${spark._id}/tests`)
      .set(...user.auth())
      .send({ name: 'T1' })
      .expect(201)
  ).body.data as { _id: string };
  const userId = await userIdOf(sql, user.username);
  if (language === 'es')
    await addDocument(sql, { sparkId: spark._id, userId, name: 'Catálogo 2026.pdf', pages: CATALOGO, language });
  else await addDocument(sql, { sparkId: spark._id, userId, name: 'Handbook.pdf', pages: HANDBOOK, language });
  return { user, sparkId: spark._id, testId: test._id };
}

const ask = async (c: Ctx, text: string): Promise<Reply> =>
  (
    await t
      .http()
      .post(`/api/v1/sparks/${c.sparkId}/chat/${c.testId}`)
      .set(...c.user.auth())
      .send({ input: { text } })
      .expect(201)
  ).body.data.ai as Reply;

/** Asks over the event stream; answers the token texts and the stored reply. */
async function stream(c: Ctx, text: string): Promise<{ tokens: string[]; reply: Reply }> {
  const res = await fetch(
    `${await t.url()}/api/v1/sparks/${c.sparkId}/chat/${c.testId}?input.text=${encodeURIComponent(text)}`,
    { headers: { Authorization: `Bearer ${c.user.access}` } },
  );
  const events = await readEvents(res);
  const done = events.at(-1)!;
  expect(done.type).toBe('done');
  return {
    tokens: events.filter((e) => e.type === 'token').map((e) => e.text as string),
    reply: (done.messages as Reply[])[0],
  };
}

const unanswered = async (sparkId: string) =>
  (await sql.query<{ question: string }>('SELECT question FROM unanswered_questions WHERE spark_id = $1', [sparkId]))
    .rows;

describe('answers grounded in the cited passages (issue 17 item 3)', () => {
  let en: Ctx;
  let es: Ctx;
  beforeAll(async () => {
    [en, es] = await Promise.all([sparkWithDocs('en'), sparkWithDocs('es')]);
  });

  it('numbers the passages in the prompt, streams the reply token by token and maps its [n] to document and page', async () => {
    llm.setDelay(20);
    const { tokens, reply } = await stream(en, 'How much does an electric bike cost per day?');
    const sent = llm.requests.at(-1)!;
    expect(sent).toMatchObject({ model: 'test-model', stream: true });
    const system = sent.messages[0].content;
    expect(sent.messages[0].role).toBe('system');
    expect(system).toContain('cite the passage it comes from by its number in square brackets');
    expect(system).toMatch(/^\[1\] Handbook, page 2\nRentals cost 25 dollars per day/m);
    expect(sent.messages.at(-1)).toEqual({ role: 'user', content: 'How much does an electric bike cost per day?' });

    // The model's words arrive one by one, then the sources line.
    expect(tokens.length).toBeGreaterThan(5);
    expect(tokens.join('')).toBe(reply.data.content);
    expect(reply.data).toMatchObject({
      answer: 'answer',
      engine: 'llm',
      content: 'Electric bikes cost 45 dollars per day. [1]\n\n— *[1] Handbook, page 2*',
      sources: [{ document: 'Handbook', page: 2, documentId: expect.any(String) }],
    });
  });

  it('stays in the Spark’s language: Spanish instructions, Spanish page labels, Spanish sources', async () => {
    const reply = await ask(es, '¿Cuánto cuesta el envío a domicilio?');
    const system = llm.requests.at(-1)!.messages[0].content;
    expect(system).toContain('Responde en español');
    expect(system).toMatch(/^\[1\] Catálogo 2026, página 3\n/m);
    expect(reply.data.content).toMatch(/^Hacemos envíos a domicilio en toda la ciudad por 3 euros\. \[1\]/);
    expect(reply.data.content).toContain('— *[1] Catálogo 2026, página 3*');
  });

  it('when the model says the passages do not cover the question, the chat says so and the question is noted', async () => {
    llm.setMode({ kind: 'reply', tokens: ['[NO', 'NE]'] });
    const { tokens, reply } = await stream(en, 'Do you rent electric scooters per day?');
    // The mark never reaches the chat: only the translated sentence does.
    expect(tokens.join('')).not.toContain('NONE');
    expect(reply.data).toMatchObject({
      answer: 'notCovered',
      engine: 'llm',
      content:
        "Sorry, I can't find anything about that in this assistant's documents. I've noted your question so it can be added.",
      sources: [],
    });
    expect(await unanswered(en.sparkId)).toContainEqual({ question: 'Do you rent electric scooters per day?' });
  });

  it('questions no passage covers never reach the model', async () => {
    const before = llm.requests.length;
    const reply = await ask(en, 'Who won the football world cup in 1998?');
    expect(reply.data.answer).toBe('notCovered');
    expect(llm.requests.length).toBe(before);
  });

  it('the owner’s answer to an unanswered question reaches the model and is cited as added by the owner', async () => {
    const c = await sparkWithDocs('en');
    expect((await ask(c, 'Do you deliver on Sundays?')).data.answer).toBe('notCovered');
    const [group] = (
      await t
        .http()
        .get(`/api/v1/sparks/${c.sparkId}/unanswered`)
        .set(...c.user.auth())
        .expect(200)
    ).body.data as Array<{ id: string }>;
    await t
      .http()
      .post(`/api/v1/sparks/${c.sparkId}/unanswered/${group.id}/answer`)
      .set(...c.user.auth())
      .send({ answer: 'We deliver on Sundays from 10:00 to 14:00.' })
      .expect(200);
    const reply = await ask(c, 'Do you deliver on Sundays?');
    // The model reads it as the owner's answer to that question, not as a page of a document.
    const system = llm.requests.at(-1)!.messages[0].content;
    expect(system).toMatch(
      /^\[1\] The business's own answer to the question “Do you deliver on Sundays\?”\nWe deliver on Sundays from 10:00 to 14:00\.$/m,
    );
    expect(system).not.toContain('Do you deliver on Sundays?, page');
    expect(reply.data.engine).toBe('llm');
    expect(reply.data.content).toContain('We deliver on Sundays from 10:00 to 14:00.');
    expect(reply.data.content).toMatch(/— \*\[1\] added by you\*$/);
    expect(reply.data.sources).toEqual([expect.objectContaining({ addedBy: 'owner' })]);
  });

  it('a model that fails falls back to today’s extractive answer', async () => {
    llm.setMode({ kind: 'error', status: 500 });
    const reply = await ask(en, 'What is the return policy for unused parts?');
    expect(reply.data).toMatchObject({ answer: 'answer', engine: 'offline' });
    expect(reply.data.content).toMatch(/^Our return policy: unused parts can be returned within 30 days/);
    expect(reply.data.content).toContain('Handbook, page 3');
  });

  it('a model that does not answer in LLM_TIMEOUT_MS falls back too, and so does one that stops mid-stream', async () => {
    llm.setMode({ kind: 'hang' });
    const started = Date.now();
    const hung = await ask(en, 'What is the return policy for unused parts?');
    expect(hung.data).toMatchObject({ answer: 'answer', engine: 'offline' });
    expect(Date.now() - started).toBeLessThan(10_000);

    // Slower than the time allowed: some tokens are streamed, then the stored reply replaces them.
    llm.setMode({ kind: 'grounded' });
    llm.setDelay(400);
    const { tokens, reply } = await stream(en, 'How much does an electric bike cost per day?');
    expect(tokens.length).toBeGreaterThan(0);
    expect(reply.data).toMatchObject({ answer: 'answer', engine: 'offline' });
    expect(reply.data.content).toMatch(/^Rentals cost 25 dollars per day|^Electric bikes cost 45 dollars per day/);
  });
});

/** Talks to a Spark's builder chat over the JSON transport. */
async function builder(u: SignedUser, sparkId: string, text: string): Promise<Reply[]> {
  const res = await t
    .http()
    .post(`/api/v1/sparks/${sparkId}/messages`)
    .set(...u.auth())
    .send({ input: { text } })
    .expect(201);
  return res.body.data.messages as Reply[];
}
const card = (replies: Reply[]) =>
  replies.find((m) => m.type === 'action' && m.data.type === 'card')?.data as unknown as {
    title: string;
    info: Array<{ label: string; value: string }>;
  };

async function newSpark(language: 'es' | 'en') {
  const user = await createUser(t, { language });
  const spark = (
    await t
      .http()
      .post('/api/v1/sparks')
      .set(...user.auth())
      .send({ options: { language } })
      .expect(201)
  ).body.data as { _id: string };
  await builder(user, spark._id, language === 'es' ? 'inicio' : 'start');
  return { user, sparkId: spark._id };
}
const sparkRow = async (id: string) =>
  (
    await sql.query<{ name: string; options: Record<string, string> }>(
      'SELECT name, options FROM sparks WHERE id = $1',
      [id],
    )
  ).rows[0];

/** The Spark as the api shows it to its owner. */
const sparkView = async (u: SignedUser, sparkId: string) =>
  (
    await t
      .http()
      .get(`/api/v1/sparks/${sparkId}`)
      .set(...u.auth())
      .expect(200)
  ).body.data as { name: string; options: { sysPrompt: string } };

describe('the builder understands free text with a model (issue 17 item 4)', () => {
  const ESPIGA = 'We are Espiga, a bakery in Madrid, open Monday to Saturday 8 to 20, friendly tone';
  const READ = {
    name: 'Espiga',
    description: 'Artisan bakery in Madrid',
    tone: 'friendly',
    hours: 'Monday to Saturday, 8:00–20:00',
  };
  /** The template's rules, which the instructions end with whoever wrote the rest. */
  const RULES =
    "Speak English in a warm and friendly tone. Answer only with the information in the business's documents; " +
    "when you don't have it, say so plainly and offer to pass the question on. Never invent prices, dates or policies.";
  /** The template's instructions for what READ says (prompt.ts without a model). */
  const TEMPLATE =
    'You are Espiga, the assistant of Espiga on its website. The business: Artisan bakery in Madrid. ' +
    `Opening hours: Monday to Saturday, 8:00–20:00. ${RULES}`;

  /** The owner describes the business, the model's reading (READ) is confirmed; `writing` is the model when asked to write. */
  async function confirmed(writing: Parameters<OpenAiServer['setMode']>[0]) {
    llm.setMode({ kind: 'reply', content: JSON.stringify(READ) });
    const { user, sparkId } = await newSpark('en');
    await builder(user, sparkId, ESPIGA);
    llm.setMode(writing);
    const asked = llm.requests.length;
    const yes = await builder(user, sparkId, 'yes');
    return { user, sparkId, yes, sent: llm.requests.slice(asked) };
  }

  it('asks the model for JSON, confirms what it understood, then fills the Spark and writes its instructions', async () => {
    // What a model answers: the test checks what the product does with it, not the model.
    llm.setMode({
      kind: 'reply',
      content: JSON.stringify({
        name: 'Espiga',
        description: 'Artisan bakery in Madrid',
        tone: 'friendly',
        hours: 'Monday to Saturday, 8:00–20:00',
      }),
    });
    const { user, sparkId } = await newSpark('en');
    const told = await builder(user, sparkId, ESPIGA);
    const sent = llm.requests.at(-1)!;
    expect(sent.response_format).toMatchObject({
      type: 'json_schema',
      json_schema: { name: 'business', strict: true },
    });
    expect(sent.response_format?.json_schema?.schema).toMatchObject({
      type: 'object',
      additionalProperties: false,
      required: expect.arrayContaining(['name', 'description', 'tone', 'hours']),
    });
    expect(sent.response_format?.json_schema?.schema).not.toHaveProperty('$schema');
    expect(sent.messages.at(-1)).toEqual({ role: 'user', content: ESPIGA });
    expect(card(told)).toEqual({
      type: 'card',
      content: '',
      title: 'Your business',
      info: [
        { label: 'Name', value: 'Espiga' },
        { label: 'Description', value: 'Artisan bakery in Madrid' },
        { label: 'Tone', value: 'warm and friendly' },
        { label: 'Opening hours', value: 'Monday to Saturday, 8:00–20:00' },
      ],
      // The card in the other language, shown at once after a switch (issue 34, item 3): its labels and the tone
      // chosen from the list translated, what the owner wrote as written.
      i18n: {
        es: {
          title: 'Tu negocio',
          info: [
            { label: 'Nombre', value: 'Espiga' },
            { label: 'Descripción', value: 'Artisan bakery in Madrid' },
            { label: 'Tono', value: 'cercano y amable' },
            { label: 'Horario', value: 'Monday to Saturday, 8:00–20:00' },
          ],
        },
      },
    });
    // Nothing changes before the owner agrees.
    expect((await sparkRow(sparkId)).name).not.toBe('Espiga');

    // The model's JSON again, when asked for the instructions: not plain text, so the template writes them.
    const yes = await builder(user, sparkId, 'yes');
    const row = await sparkRow(sparkId);
    expect(row.name).toBe('Espiga');
    expect(row.options).toMatchObject({
      description: 'Artisan bakery in Madrid',
      tone: 'friendly',
      hours: 'Monday to Saturday, 8:00–20:00',
    });
    expect(row.options.sysPrompt).toBe(TEMPLATE);
    expect(card(yes).info[0].value).toBe(row.options.sysPrompt);
    // On to the documents: name, description and tone are done.
    expect(yes.filter((m) => m.type === 'ai').map((m) => m.data.content)).toContain(
      "Now upload your documents (PDF, Word .docx or text .txt/.md, up to 10 MB each) with the attach button. I'll tell you what I read from each one.",
    );
  });

  it('once confirmed, the model writes the part of the instructions about the business; the rules are the template’s', async () => {
    const { user, sparkId, yes, sent } = await confirmed({ kind: 'grounded' });
    // One request for the instructions, bounded, with the Spark's facts as JSON and the ask in its language.
    expect(sent).toHaveLength(1);
    expect(sent[0].max_tokens).toBe(400);
    expect(sent[0].response_format).toBeUndefined();
    expect(sent[0].messages[0].role).toBe('system');
    expect(sent[0].messages[0].content).toMatch(/^You write part of the instructions .* in English, one paragraph/);
    const facts = {
      name: 'Espiga',
      description: 'Artisan bakery in Madrid',
      tone: 'warm and friendly',
      hours: 'Monday to Saturday, 8:00–20:00',
      language: 'English',
    };
    expect(JSON.parse(sent[0].messages[1].content)).toEqual(facts);

    const written = instructionsOf(facts);
    expect(written).toBe(
      'Welcome visitors to Espiga: Artisan bakery in Madrid. Opening hours to give when asked: ' +
        'Monday to Saturday, 8:00–20:00. Keep every reply warm and friendly.',
    );
    const view = await sparkView(user, sparkId);
    expect(view.name).toBe('Espiga');
    expect(view.options.sysPrompt).toBe(`You are Espiga, the assistant of Espiga on its website. ${written} ${RULES}`);
    expect(card(yes).info[0].value).toBe(view.options.sysPrompt);
  });

  it('a model that fails, hangs or writes something unusable when asked for the instructions leaves the template’s', async () => {
    for (const writing of [
      { kind: 'error', status: 500 },
      { kind: 'hang' },
      { kind: 'reply', content: 'Sure!' },
      { kind: 'reply', content: `Welcome visitors to Espiga. Send orders to https://espiga.example/order today.` },
    ] as const) {
      const { user, sparkId, yes, sent } = await confirmed(writing);
      expect(sent).toHaveLength(1);
      const view = await sparkView(user, sparkId);
      expect(view.name).toBe('Espiga');
      expect(view.options.sysPrompt).toBe(TEMPLATE);
      expect(card(yes).info[0].value).toBe(TEMPLATE);
    }
  });

  it('an answer that is not valid JSON for the schema leaves the rules to read the text', async () => {
    llm.setMode({ kind: 'reply', content: '{"name": "Espiga", "tone": "grumpy"}' });
    const { user, sparkId } = await newSpark('es');
    const told = await builder(user, sparkId, 'Somos Espiga, una panadería en Madrid, tono cercano');
    expect(card(told).info).toEqual([
      { label: 'Nombre', value: 'Espiga' },
      { label: 'Descripción', value: 'Una panadería en Madrid' },
      { label: 'Tono', value: 'cercano y amable' },
    ]);
  });

  it('a model that is down leaves the rules too', async () => {
    llm.setMode({ kind: 'error', status: 503 });
    const { user, sparkId } = await newSpark('en');
    const told = await builder(user, sparkId, ESPIGA);
    expect(card(told).info.map((i) => i.value)).toEqual([
      'Espiga',
      'A bakery in Madrid',
      'warm and friendly',
      'Open Monday to Saturday 8 to 20',
    ]);
    await builder(user, sparkId, 'yes');
    expect((await sparkRow(sparkId)).name).toBe('Espiga');
    // And the template writes the instructions.
    expect((await sparkView(user, sparkId)).options.sysPrompt).toBe(
      'You are Espiga, the assistant of Espiga on its website. The business: A bakery in Madrid. ' +
        `Opening hours: Open Monday to Saturday 8 to 20. ${RULES}`,
    );
  });
});

describe('the builder asks the model what a reply means when its rules are not sure (issue 31)', () => {
  const ESPIGA = 'We are Espiga, a bakery in Madrid, open Monday to Saturday 8 to 20, friendly tone';
  const UNCLEAR = 'chuffed with that, ta';
  const texts = (replies: Reply[]) => replies.filter((m) => m.type === 'action' || m.type === 'ai');

  it('reads an unclear reply to “Is it right?” with the model (structured output), and only that one', async () => {
    llm.setMode({ kind: 'error', status: 503 });
    const { user, sparkId } = await newSpark('en');
    await builder(user, sparkId, ESPIGA);
    llm.setMode({
      kind: 'reply',
      content: JSON.stringify({ kind: 'agree', field: null, value: null, unusual: false }),
    });
    const before = llm.requests.length;
    await builder(user, sparkId, UNCLEAR);
    const sent = llm.requests.slice(before);
    // The reply, then the instructions (the model's JSON is no paragraph: the template writes them).
    expect(sent[0].response_format).toMatchObject({
      type: 'json_schema',
      json_schema: { name: 'reply', strict: true },
    });
    expect(sent[0].response_format?.json_schema?.schema).toMatchObject({
      required: expect.arrayContaining(['kind', 'field', 'value', 'unusual']),
    });
    expect(JSON.parse(sent[0].messages[1].content)).toEqual({
      step: { question: 'This is what I understood from your message. Is it right?', expects: 'confirm' },
      reply: UNCLEAR,
    });
    expect((await sparkRow(sparkId)).name).toBe('Espiga');

    // A reply the rules are sure of never reaches the model.
    const sure = llm.requests.length;
    await builder(user, sparkId, 'skip for now');
    expect(llm.requests.length).toBe(sure);
  });

  it('a model that fails leaves the rules’ reading: the question again, and nothing changed', async () => {
    llm.setMode({ kind: 'error', status: 503 });
    const { user, sparkId } = await newSpark('en');
    await builder(user, sparkId, ESPIGA);
    const again = await builder(user, sparkId, UNCLEAR);
    expect(texts(again).map((m) => m.data.content || m.data.type)).toEqual([
      "I didn't quite get that. Please answer yes or no.",
      'buttons',
    ]);
    expect((await sparkRow(sparkId)).name).not.toBe('Espiga');
    await builder(user, sparkId, 'yep that’s right');
    expect((await sparkRow(sparkId)).name).toBe('Espiga');
  });
});
