import { composeOffline, covers, isGreeting, isStartKeyword, smallTalk } from './composer';
import type { Passage } from './retrieval';

const passage = (over: Partial<Passage> = {}): Passage => ({
  chunkId: 'c1',
  documentId: 'd1',
  documentName: 'Carta.pdf',
  page: 3,
  content: 'Abrimos de lunes a sábado de 8:00 a 20:00.',
  excerpt: 'Abrimos de **lunes** a sábado de 8:00 a 20:00.',
  rank: 0.5,
  matched: 2,
  terms: 3,
  strict: false,
  score: 3,
  coverage: 0.6,
  best: 'Abrimos de lunes a sábado de 8:00 a 20:00.',
  ...over,
});

describe('offline composer', () => {
  it('recognises the start keywords of docs/product.md §4, whatever their case', () => {
    for (const s of [
      'inicio',
      'INICIO',
      'inicio en español',
      'Start in English',
      'start in english',
      'inicio en inglés',
    ]) {
      expect(isStartKeyword(s)).toBe(true);
    }
    for (const s of ['inicio de la temporada de rebajas', 'start the engine now', 'hola'])
      expect(isStartKeyword(s)).toBe(false);
  });

  it('tells a greeting from a question that starts with one', () => {
    for (const s of ['Hola', '¡Hola!', 'buenos días', 'Hi there', 'hello!!', 'inicio'])
      expect(isGreeting(s)).toBe(true);
    for (const s of [
      'Hola, ¿a qué hora abrís los domingos por la tarde?',
      'hi, how much does a rental cost per day?',
      '',
    ]) {
      expect(isGreeting(s)).toBe(false);
    }
  });

  it('counts a passage as an answer only when its best sentence covers enough of the question’s weight', () => {
    expect(covers(passage({ coverage: 0.25 }))).toBe(true);
    expect(covers(passage({ coverage: 0.2 }))).toBe(false);
    expect(covers(passage({ matched: 0, terms: 0, coverage: 0 }))).toBe(false);
  });

  it('leads with the sentence that answers, then its source, in the Spark’s language', () => {
    const es = composeOffline({
      question: '¿horario?',
      language: 'es',
      initialMessage: 'Hola',
      passages: [passage()],
      hasDocuments: true,
    });
    expect(es.kind).toBe('answer');
    expect(es.text).toBe('Abrimos de lunes a sábado de 8:00 a 20:00.\n\n— *Carta.pdf, página 3*');
    expect(es.sources).toEqual([{ documentId: 'd1', document: 'Carta.pdf', page: 3 }]);
    const en = composeOffline({
      question: 'hours?',
      language: 'en',
      initialMessage: 'Hi',
      passages: [passage()],
      hasDocuments: true,
    });
    expect(en.text).toContain('— *Carta.pdf, page 3*');
  });

  it('says plainly when nothing covers the question, and when there are no documents at all', () => {
    const weak = composeOffline({
      question: 'x y z',
      language: 'en',
      initialMessage: 'Hi',
      passages: [passage({ matched: 1, terms: 3, coverage: 0.1 })],
      hasDocuments: true,
    });
    expect(weak.kind).toBe('notCovered');
    const none = composeOffline({
      question: '¿precio?',
      language: 'es',
      initialMessage: 'Hola',
      passages: [],
      hasDocuments: false,
    });
    expect(none.text).toMatch(/^Todavía no tengo documentos/);
  });

  it('greets with the initial message', () => {
    expect(
      composeOffline({
        question: 'Hola',
        language: 'es',
        initialMessage: 'Bienvenido',
        passages: [],
        hasDocuments: true,
      }),
    ).toEqual({
      kind: 'greeting',
      text: 'Bienvenido',
      sources: [],
    });
  });

  it('greets with the initial message as its owner typed it, never as markup', () => {
    const initialMessage =
      '<img src=x onerror=window.__pwned=1> [x](javascript:window.__pwned=1) ![t](http://127.0.0.2:9/x.png) *Hola*';
    const greeting = composeOffline({
      question: 'hola',
      language: 'es',
      initialMessage,
      passages: [],
      hasDocuments: true,
    });
    expect(greeting.text).toBe(
      '\\<img src=x onerror=window.\\_\\_pwned=1\\> \\[x\\](javascript:window.\\_\\_pwned=1) !\\[t\\](http\\://127.0.0.2:9/x.png) \\*Hola\\*',
    );
  });

  it('cites a document by its name as typed, never as markup', () => {
    const answer = composeOffline({
      question: 'horario',
      language: 'en',
      initialMessage: 'Hi',
      passages: [passage({ documentName: '[x](javascript:window.__pwned=1)*.pdf' })],
      hasDocuments: true,
    });
    expect(answer.text).toContain('— *\\[x\\](javascript:window.\\_\\_pwned=1)\\*.pdf, page 3*');
    // The sources keep the name itself, for the screens that show it as text.
    expect(answer.sources[0].document).toBe('[x](javascript:window.__pwned=1)*.pdf');
  });

  it('quotes the answering sentence escaped, as plain text', () => {
    const answer = composeOffline({
      question: 'horario',
      language: 'en',
      initialMessage: 'Hi',
      passages: [passage({ best: '# Horario <b>8:00</b> ![t](http://127.0.0.2:9/x.png)' })],
      hasDocuments: true,
    });
    expect(answer.text).toMatch(/^\\# Horario \\<b\\>8:00\\<\/b\\> !\\\[t\\\]\(http\\:\/\/127\.0\.0\.2:9\/x\.png\)\n/);
  });

  it('lists the other passages that also answer as further sources, the best one first', () => {
    const answer = composeOffline({
      question: 'horario',
      language: 'en',
      initialMessage: 'Hi',
      passages: [passage(), passage({ chunkId: 'c2', page: 5 }), passage({ chunkId: 'c3', page: 7, coverage: 0.1 })],
      hasDocuments: true,
    });
    expect(answer.text).toBe(
      'Abrimos de lunes a sábado de 8:00 a 20:00.\n\n— *Carta.pdf, page 3*\nAlso in: Carta.pdf, page 5',
    );
    expect(answer.sources.map((s) => s.page)).toEqual([3, 5]);
  });
});

describe('small talk in a test chat (issue 18 item 15)', () => {
  const reply = (question: string, language: 'en' | 'es' = 'en') =>
    composeOffline({ question, language, initialMessage: 'Hi, I am Espiga', passages: [], hasDocuments: true });

  it('thanks and goodbyes get a short polite reply, never "not covered"', () => {
    for (const q of ['Thanks!', 'thank you so much', 'Ok, thanks', 'bye', 'Goodbye!', 'see you later']) {
      const r = reply(q);
      expect({ q, kind: r.kind }).toEqual({ q, kind: 'greeting' });
      expect(r.text).not.toMatch(/noted your question/);
    }
    expect(reply('¡Muchas gracias!', 'es').text).toBe('¡De nada! ¿Te puedo ayudar con algo más?');
    expect(reply('Adiós', 'es').text).toBe('¡Hasta pronto, y gracias por tu visita!');
    expect(reply('Thanks!').text).toBe("You're welcome! Is there anything else I can help you with?");
    expect(reply('Hello!').text).toBe('Hi, I am Espiga');
  });

  it('a question that starts with thanks is still a question', () => {
    expect(smallTalk('Thanks, and how much is a croissant?')).toBeUndefined();
    expect(smallTalk('gracias, ¿a qué hora abrís el sábado?')).toBeUndefined();
    expect(reply('Thanks, and how much is a croissant?').kind).toBe('notCovered');
  });
});
