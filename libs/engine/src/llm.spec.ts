import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SparkInfo } from './flows/ports';
import { citedPassages, LlmProvider, numberedPassages, plainTurns } from './llm';
import type { Passage } from './retrieval';

describe('citations of a model’s reply', () => {
  it('reads [n], [n, m] and [n][m] in order of first mention, only numbers that were sent', () => {
    expect(citedPassages('Bikes cost 45 dollars [2]. Helmets are included [1, 2][3].', 3)).toEqual([2, 1, 3]);
    expect(citedPassages('See [0] and [4] and [12].', 3)).toEqual([]);
    expect(citedPassages('No citation at all.', 3)).toEqual([]);
  });
});

describe('the conversation sent to the model', () => {
  it('drops the sources line and the [n] markers of earlier replies, which numbered other passages', () => {
    expect(
      plainTurns([
        { role: 'user', content: 'How much is a bike [1]?' },
        { role: 'assistant', content: 'Rentals cost 25 dollars per day [1].\n\n— *[1] Handbook.pdf, page 2*' },
        { role: 'assistant', content: 'Open from 8 [1, 2].\n\n— *Hours.pdf, page 1*\nAlso in: Hours.pdf, page 2' },
      ]),
    ).toEqual([
      { role: 'user', content: 'How much is a bike [1]?' },
      { role: 'assistant', content: 'Rentals cost 25 dollars per day.' },
      { role: 'assistant', content: 'Open from 8.' },
    ]);
  });
});

describe('the passages as the prompt numbers them', () => {
  const passage = (p: Partial<Passage>): Passage => ({
    chunkId: 'c',
    documentId: 'd',
    documentName: 'Menu.pdf',
    page: 2,
    content: 'A loaf costs 4 euros.',
    excerpt: '',
    rank: 1,
    matched: 1,
    terms: 1,
    strict: true,
    score: 1,
    coverage: 1,
    best: 'A loaf costs 4 euros.',
    ...p,
  });
  const owner = passage({
    origin: 'owner',
    documentName: 'Do you deliver\non Sundays?',
    page: 1,
    content: 'Yes, from 10:00 to 14:00.',
  });

  it('a document’s passage by document and page; the owner’s answer as the business’s answer to its question, not a page', () => {
    expect(numberedPassages('en', [passage({ origin: 'file' }), owner])).toBe(
      '[1] Menu.pdf, page 2\nA loaf costs 4 euros.\n\n' +
        "[2] The business's own answer to the question “Do you deliver on Sundays?”\nYes, from 10:00 to 14:00.",
    );
    expect(numberedPassages('es', [owner, passage({})])).toBe(
      '[1] Respuesta del propio negocio a la pregunta «Do you deliver on Sundays?»\nYes, from 10:00 to 14:00.\n\n' +
        '[2] Menu.pdf, página 2\nA loaf costs 4 euros.',
    );
  });
});

describe('the Spark’s instructions written by the model', () => {
  let server: Server;
  let reply: { content: string; finish_reason: string } | 'error';
  const bodies: Array<Record<string, unknown>> = [];
  let llm: LlmProvider;
  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (d: Buffer) => (body += d.toString()));
      req.on('end', () => {
        bodies.push(JSON.parse(body) as Record<string, unknown>);
        if (reply === 'error') {
          res.writeHead(500, { 'Content-Type': 'application/json' }).end('{"error":{"message":"down"}}');
          return;
        }
        res.writeHead(200, { 'Content-Type': 'application/json' }).end(
          JSON.stringify({
            id: 'c',
            object: 'chat.completion',
            created: 0,
            model: 'm',
            choices: [
              { index: 0, message: { role: 'assistant', content: reply.content }, finish_reason: reply.finish_reason },
            ],
          }),
        );
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    llm = new LlmProvider({
      baseURL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
      model: 'm',
      timeoutMs: 2000,
    });
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  const spark: SparkInfo = {
    id: 's',
    name: 'Espiga',
    initialMessage: '',
    language: 'es',
    sysPrompt: '',
    description: 'Panadería en Madrid',
    tone: 'friendly',
  };
  const WRITTEN = 'Espiga es una panadería en Madrid. Ayuda con el pan y los dulces, con cercanía y en pocas palabras.';

  it('asks in the Spark’s language with its facts as JSON and a bound on the length, and answers the checked paragraph', async () => {
    reply = { content: `**${WRITTEN}**`, finish_reason: 'stop' };
    await expect(llm.writeInstructions(spark)).resolves.toBe(WRITTEN);
    const sent = bodies.at(-1)!;
    expect(sent.max_tokens).toBe(400);
    expect(sent.stream).toBeUndefined();
    const messages = sent.messages as Array<{ role: string; content: string }>;
    expect(messages[0].content).toMatch(/^Escribes una parte de las instrucciones .* en español, un párrafo/);
    expect(JSON.parse(messages[1].content)).toEqual({
      name: 'Espiga',
      description: 'Panadería en Madrid',
      tone: 'cercano y amable',
      language: 'español',
    });
  });

  it('throws when the model fails, is cut off, or writes what does not pass', async () => {
    reply = 'error';
    await expect(llm.writeInstructions(spark)).rejects.toThrow();
    reply = { content: WRITTEN, finish_reason: 'length' };
    await expect(llm.writeInstructions(spark)).rejects.toThrow('cut off');
    for (const content of ['', 'Vale.', `{"text": "${WRITTEN}"}`, `${WRITTEN} Pide en https://otra.example.`]) {
      reply = { content, finish_reason: 'stop' };
      await expect(llm.writeInstructions(spark)).rejects.toThrow('no usable instructions');
    }
  });
});
