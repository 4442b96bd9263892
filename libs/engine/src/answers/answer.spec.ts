import type { Passage } from '../retrieval';
import { answerFromKnowledge, type AnswerInput } from './answer';
import { buildKnowledge, type Knowledge } from './units';

/** A Spark's knowledge from passages as the chunker writes them (one paragraph a line, headings on top). */
function knowledge(
  lang: 'en' | 'es',
  chunks: string[],
  name = 'espiga.pdf',
  origin: 'file' | 'owner' = 'file',
): Knowledge {
  const passages: Passage[] = chunks.map((content, i) => ({
    chunkId: `c${i}`,
    documentId: 'd1',
    documentName: name,
    page: i + 1,
    content,
    excerpt: '',
    rank: 0,
    matched: 0,
    terms: 0,
    strict: false,
    score: 0,
    coverage: 0,
    best: '',
    origin,
  }));
  return buildKnowledge(
    passages,
    passages.map(() => lang),
    passages.map(() => undefined),
  );
}

const BAKERY_EN = knowledge('en', [
  'ESPIGA BAKERY\n14 Calle Mayor, 28013 Madrid\nTel. 915 55 01 23 | hola@espiga.es',
  'OPENING HOURS\nMonday to Friday: 7:30 to 20:30\nSaturday: 8:00 to 14:30\nSunday: closed',
  'PRICES\nSourdough loaf (800 g) ................ 4.20 EUR\nSeeded rye sourdough ...... 5.10 EUR\nButter croissant ................ 1.60 EUR',
  'DELIVERY\nWe deliver within Madrid city (postcodes 28001 to 28015) from Tuesday to Saturday, between 9:00 and 13:00. Delivery costs 3 EUR.',
  'PAYMENT\nWe accept cash, cards and Bizum. We do not accept cheques.',
]);

const BAKERY_ES = knowledge('es', [
  'PANADERÍA ESPIGA\nCalle Mayor, 14 - 28013 Madrid',
  'HORARIO\nLunes a viernes: de 7:00 a 14:00 y de 17:00 a 20:30\nSábado: de 8:00 a 14:30\nDomingo: cerrado',
  'PRECIOS\nPan de masa madre (800 g) ........ 4,20 EUR\nCroissant de mantequilla ........ 1,60 EUR',
]);

const ask = (k: Knowledge, question: string, over: Partial<AnswerInput> = {}) =>
  answerFromKnowledge({
    question,
    language: 'en',
    initialMessage: 'Hi, I am Espiga',
    knowledge: k,
    hasDocuments: true,
    ...over,
  });

/** The reply's first line, markdown escapes removed. */
const lead = (text: string) => text.split('\n')[0].replace(/\\(.)/g, '$1');

describe('answers reasoned from business facts (issue 29)', () => {
  it('answers the closing time of a weekday from a day range, quoting the row', () => {
    const a = ask(BAKERY_EN, 'What time do you close on Monday?');
    expect(lead(a.text)).toBe('On Mondays we close at 20:30 — Monday to Friday: 7:30 to 20:30.');
    expect(a.text).toContain('— *espiga.pdf, page 2*');
    expect(lead(ask(BAKERY_EN, 'When do you close on weekdays?').text)).toBe(
      'On weekdays we close at 20:30 — Monday to Friday: 7:30 to 20:30.',
    );
  });

  it('says no for a closed day and yes with the hours for an open one', () => {
    expect(lead(ask(BAKERY_EN, 'Are you open on Sundays?').text)).toBe("No, we're closed on Sundays — Sunday: closed.");
    expect(lead(ask(BAKERY_ES, '¿abrís el domingo?', { language: 'es' }).text)).toBe(
      'No, los domingos cerramos — Domingo: cerrado.',
    );
    expect(lead(ask(BAKERY_ES, '¿A qué hora abrís el sábado?', { language: 'es' }).text)).toBe(
      'Los sábados abrimos a las 8:00 — Sábado: de 8:00 a 14:30.',
    );
  });

  it('answers the midday break and the afternoon of split hours', () => {
    expect(lead(ask(BAKERY_ES, '¿Cerráis a mediodía?', { language: 'es' }).text)).toContain(
      'cerramos de 14:00 a 17:00',
    );
    expect(lead(ask(BAKERY_ES, '¿A qué hora abrís por la tarde?', { language: 'es' }).text)).toContain('a las 17:00');
  });

  it('finds an item by a shortened or misspelt name, and never answers with another item’s price', () => {
    expect(lead(ask(BAKERY_EN, 'whats the price of the sourdogh loaf').text)).toBe('Sourdough loaf (800 g): 4.20 EUR.');
    expect(lead(ask(BAKERY_EN, 'How much is a croissant?').text)).toBe('Butter croissant: 1.60 EUR.');
    expect(ask(BAKERY_EN, 'How much is a baguette?').kind).toBe('notCovered');
  });

  it('answers a question in the other language from the document, in the question’s words', () => {
    const es = ask(BAKERY_EN, '¿A qué hora cerráis los sábados?');
    expect(lead(es.text)).toBe('Los sábados cerramos a las 14:30 — Saturday: 8:00 to 14:30.');
    expect(es.text).toContain('— *espiga.pdf, página 2 (en inglés)*');
    expect(lead(ask(BAKERY_ES, 'How much is a croissant?', { language: 'es' }).text)).toBe(
      'Croissant de mantequilla: 1,60 EUR.',
    );
  });

  it('gives the address, the phone and whether a payment method is taken', () => {
    expect(lead(ask(BAKERY_EN, 'where is the shop?').text)).toBe(
      "We're at 14 Calle Mayor, 28013 Madrid — 14 Calle Mayor, 28013 Madrid.",
    );
    expect(lead(ask(BAKERY_EN, "What's your phone number?").text)).toContain('915 55 01 23');
    expect(lead(ask(BAKERY_EN, 'Can I pay with Bizum?').text)).toBe(
      'Yes, we accept Bizum — We accept cash, cards and Bizum.',
    );
    expect(lead(ask(BAKERY_EN, 'do you take cheques?').text)).toBe(
      "No, we don't accept cheques — We do not accept cheques.",
    );
  });

  it('quotes a whole sentence, never the part a line wrap left', () => {
    expect(lead(ask(BAKERY_EN, 'Do you deliver to my postcode?').text)).toBe(
      'We deliver within Madrid city (postcodes 28001 to 28015) from Tuesday to Saturday, between 9:00 and 13:00.',
    );
  });

  it('says the documents do not cover a question whose subject they never mention, never a title or a neighbour', () => {
    for (const q of ['Do you have wifi for customers?', 'can I bring my dog', 'Do you sell gift vouchers?'])
      expect({ q, kind: ask(BAKERY_EN, q).kind }).toEqual({ q, kind: 'notCovered' });
    const es = ask(BAKERY_ES, '¿tenéis wifi para clientes?', { language: 'es' });
    expect(es.kind).toBe('notCovered');
    expect(es.text).toMatch(/^Lo siento, no encuentro información/);
  });
});

describe('the offline answer’s form', () => {
  it('greets with the initial message as its owner typed it, never as markup', () => {
    const initialMessage = '<img src=x onerror=window.__pwned=1> [x](javascript:window.__pwned=1) *Hola*';
    const greeting = ask(BAKERY_ES, 'hola', { language: 'es', initialMessage });
    expect(greeting.kind).toBe('greeting');
    expect(greeting.text).toBe(
      '\\<img src=x onerror=window.\\_\\_pwned=1\\> \\[x\\](javascript:window.\\_\\_pwned=1) \\*Hola\\*',
    );
  });

  it('thanks and goodbyes get a short polite reply in the question’s language, never "not covered"', () => {
    expect(ask(BAKERY_EN, 'Thanks!').text).toBe("You're welcome! Is there anything else I can help you with?");
    expect(ask(BAKERY_EN, '¡Muchas gracias!').text).toBe('¡De nada! ¿Te puedo ayudar con algo más?');
    expect(ask(BAKERY_EN, 'bye').kind).toBe('greeting');
  });

  it('cites a document by its name as typed, and quotes the document escaped', () => {
    const k = knowledge(
      'en',
      ['OPENING HOURS\nSaturday: 8:00 to 14:30 <b>*late*</b>'],
      '[x](javascript:alert(1))*.pdf',
    );
    const a = ask(k, 'What time do you open on Saturday?');
    expect(a.text).toContain('\\<b\\>\\*late\\*\\</b\\>');
    expect(a.text).toContain('— *\\[x\\](javascript:alert(1))\\*.pdf, page 1*');
    expect(a.sources[0].document).toBe('[x](javascript:alert(1))*.pdf');
  });

  it('answers with an owner’s answer to the question, cited as theirs', () => {
    const k = knowledge('en', ['Do you have gluten-free bread?\nYes, every Friday.'], 'The business', 'owner');
    const owner = ask(k, 'do you have gluten free bread?');
    expect(owner.text).toBe('Yes, every Friday.\n\n— *added by you*');
    expect(ask(k, 'do you have gluten free bread?', { audience: 'visitor' }).sources[0].addedBy).toBe('owner');
  });

  it('says there are no documents yet, or that they do not cover the question', () => {
    expect(ask({ passages: [], units: [] }, 'price?', { hasDocuments: false }).text).toMatch(
      /^I don't have any documents/,
    );
    expect(ask(BAKERY_EN, 'Which football team do you support?').kind).toBe('notCovered');
  });
});
