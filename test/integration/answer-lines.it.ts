import { makePdf, type PageSpec } from './fixtures/pdfs';
import { createTest } from './factories';
import { useKnowledgeApp, type Owner } from './support/knowledge';

/**
 * Issue 17, item 2: a bakery's two-page PDF laid out as lines (hours, a price list), uploaded and read by
 * the real worker, asked in a test chat. The reply leads with the line that answers, as the document writes
 * it (after what was asked, for hours: issue 29), and cites its page; common paraphrases ("weekdays" for "Monday to Friday", "close" for the hours) and
 * the other language (a Spanish question on an English Spark, and the reverse) are bridged.
 */
const BAKERY_EN: PageSpec[] = [
  {
    heading: 'Espiga Bakery',
    lines: [
      'Opening hours',
      'Monday to Friday: 7:30 to 20:30',
      'Saturday: 8:00 to 15:00',
      'Sunday: closed',
      '',
      'Prices',
      'Sourdough loaf: 4.50 €',
      'Baguette: 1.20 €',
      'Croissant: 1.60 €',
      'Cinnamon roll: 2.80 €',
      'Coffee with milk: 1.90 €',
    ],
  },
  {
    heading: 'Orders and allergens',
    paragraphs: [
      [
        'Birthday cakes must be ordered at least two days in advance, by phone or at the counter.',
        'We deliver orders above 30 euros within the city.',
      ],
      ['All our bread contains gluten.', 'Our croissants are made with butter and may contain traces of nuts.'],
    ],
  },
];

const BAKERY_ES: PageSpec[] = [
  {
    heading: 'Panadería Espiga',
    lines: [
      'Horario',
      'Lunes a viernes: 7:30 a 20:30',
      'Sábado: 8:00 a 15:00',
      'Domingo: cerrado',
      '',
      'Precios',
      'Pan de masa madre: 4,50 €',
      'Barra de pan: 1,20 €',
      'Croissant: 1,60 €',
      'Rollo de canela: 2,80 €',
      'Café con leche: 1,90 €',
    ],
  },
  {
    heading: 'Encargos y alérgenos',
    paragraphs: [
      [
        'Las tartas de cumpleaños se encargan con al menos dos días de antelación, por teléfono o en el mostrador.',
        'Llevamos a domicilio los pedidos de más de 30 euros dentro de la ciudad.',
      ],
      [
        'Todo nuestro pan contiene gluten.',
        'Los croissants llevan mantequilla y pueden contener trazas de frutos secos.',
      ],
    ],
  },
];

interface Reply {
  content: string;
  answer: string;
  sources: Array<{ document: string; page: number }>;
}

/** The reply's markdown as a reader sees it: escapes and emphasis gone, line by line. */
const lines = (markdown: string) =>
  markdown
    .replace(/\\([\\`*_[\]{}()#+\-.!<>|~&:@=])/g, '$1')
    .replace(/\*\*|__|^\*|\*$/gm, '')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');

describe('answers from a document laid out as lines (hours and prices)', () => {
  const k = useKnowledgeApp();
  const sparks: Record<'en' | 'es', { user: Owner; sparkId: string; testId: string }> = {} as never;

  beforeAll(async () => {
    for (const [lang, pages, file] of [
      ['en', BAKERY_EN, 'Espiga.pdf'],
      ['es', BAKERY_ES, 'Espiga-es.pdf'],
    ] as const) {
      const user = await k.owner(lang);
      const spark = await k.spark(user, lang);
      const res = await k.upload(user, { sparkId: spark.id }, await makePdf(pages), file).expect(201);
      await k.waitForStatus(user, spark.id, res.body.data._id as string, 'completed');
      const test = await createTest(k.t, user, spark.id);
      sparks[lang] = { user, sparkId: spark.id, testId: test._id };
    }
  });

  const ask = async (lang: 'en' | 'es', text: string): Promise<Reply> => {
    const { user, sparkId, testId } = sparks[lang];
    const res = await k.t
      .http()
      .post(`/api/v1/sparks/${sparkId}/chat/${testId}`)
      .set(...user.auth())
      .send({ input: { text } })
      .expect(201);
    return res.body.data.ai.data as Reply;
  };

  /** The reply leads with exactly `line`, quotes nothing else of the page, and cites `page` first. */
  const expectLine = (reply: Reply, line: string, page: number) => {
    expect(reply.answer).toBe('answer');
    expect(lines(reply.content)[0]).toBe(line);
    expect(reply.sources[0]?.page).toBe(page);
    expect(lines(reply.content)[1]).toMatch(new RegExp(`(page|página) ${page}\\b`));
  };

  // Hours, contact and payment answers lead with what was asked, in the question's language, then quote the row
  // (issue 29); a price quotes the item's row.
  const cases: Array<[lang: 'en' | 'es', question: string, line: string, page: number]> = [
    ['en', 'What time do you open on Saturday?', 'On Saturdays we open at 8:00 — Saturday: 8:00 to 15:00.', 1],
    ['en', 'How much is a sourdough loaf?', 'Sourdough loaf: 4.50 €.', 1],
    ['en', 'How much is a croissant?', 'Croissant: 1.60 €.', 1],
    [
      'en',
      'What time do you close on weekdays?',
      'On weekdays we close at 20:30 — Monday to Friday: 7:30 to 20:30.',
      1,
    ],
    ['en', 'Are you open on Sunday?', "No, we're closed on Sundays — Sunday: closed.", 1],
    ['en', 'How far in advance do I have to order a birthday cake?', expect.any(String) as never, 2],
    ['en', '¿A qué hora abrís el sábado?', 'Los sábados abrimos a las 8:00 — Saturday: 8:00 to 15:00.', 1],
    ['en', '¿Cuánto cuesta un croissant?', 'Croissant: 1.60 €.', 1],
    ['en', '¿Cuánto cuesta el pan de masa madre?', 'Sourdough loaf: 4.50 €.', 1],
    ['es', '¿A qué hora abrís el sábado?', 'Los sábados abrimos a las 8:00 — Sábado: 8:00 a 15:00.', 1],
    ['es', '¿Cuánto cuesta el pan de masa madre?', 'Pan de masa madre: 4,50 €.', 1],
    ['es', '¿Cuánto cuesta un croissant?', 'Croissant: 1,60 €.', 1],
    [
      'es',
      '¿A qué hora cerráis entre semana?',
      'Entre semana cerramos a las 20:30 — Lunes a viernes: 7:30 a 20:30.',
      1,
    ],
    ['es', 'What time do you open on Saturday?', 'On Saturdays we open at 8:00 — Sábado: 8:00 a 15:00.', 1],
    ['es', 'How much is a croissant?', 'Croissant: 1,60 €.', 1],
  ];

  it.each(cases)('%s Spark, "%s": leads with "%s", page %d', async (lang, question, line, page) => {
    const reply = await ask(lang, question);
    if (typeof line === 'string') expectLine(reply, line, page);
    else expect(reply.sources[0]?.page).toBe(page);
  });

  it('reads the lines of a list as lines, not the page as one block', async () => {
    const res = await k.handle.pool.query<{ content: string }>(
      `SELECT content FROM document_chunks WHERE spark_id = $1 AND page = 1`,
      [sparks.en.sparkId],
    );
    const text = res.rows.map((r) => r.content).join('\n');
    expect(text.split('\n')).toEqual(
      expect.arrayContaining(['Monday to Friday: 7:30 to 20:30', 'Saturday: 8:00 to 15:00', 'Croissant: 1.60 €']),
    );
  });

  it('still declines what the documents do not say, in both languages', async () => {
    for (const [lang, question] of [
      ['en', 'Do you sell pizza?'],
      ['en', 'How much is a pizza?'],
      ['es', '¿Cuánto cuesta una pizza margarita?'],
      ['es', 'What time does the swimming pool close?'],
    ] as const) {
      expect({ question, answer: (await ask(lang, question)).answer }).toEqual({ question, answer: 'notCovered' });
    }
  });
});
