import { readQuestion } from './question';
import { editDistance, questionLanguage, soundKey, spanishRoot, stem } from './words';

describe('words as the answer engine compares them', () => {
  it('brings a Spanish verb’s forms to one root, stem changes and irregular roots included', () => {
    const roots = (words: string[]) => [...new Set(words.map(spanishRoot))];
    expect(roots(['abris', 'abren', 'abrimos', 'abre', 'abrir', 'abierto'])).toEqual(['abr']);
    expect(roots(['cerrais', 'cierran', 'cerramos', 'cierre', 'cierrais'])).toEqual(['cerr']);
    expect(roots(['traigais', 'traer'])).toEqual(['tra']);
    expect(roots(['tenemos', 'tienen', 'tengo'])).toEqual(['ten']);
    expect(roots(['montaje', 'montar'])).toEqual(['mont']);
    expect(roots(['reparacion', 'reparar', 'reparais'])).toEqual(['repar']);
  });

  it('stems as PostgreSQL’s english and spanish configurations do (Snowball)', () => {
    expect(stem('deliveries', 'en')).toBe('deliveri');
    expect(stem('opening', 'en')).toBe('open');
    expect(stem('horarios', 'es')).toBe('horari');
    expect(stem('envío', 'es')).toBe('envi');
  });

  it('gives words written alike one spelling key, and counts typos', () => {
    expect(soundKey('orkid')).toBe(soundKey('orchid'));
    expect(soundKey('keratina')).toBe(soundKey('queratina'));
    expect(soundKey('vacasiones')).toBe(soundKey('vacaciones'));
    expect(soundKey('domisilio')).toBe(soundKey('domicilio'));
    expect(editDistance('sourdogh', 'sourdough', 2)).toBe(1);
    expect(editDistance('quseo', 'queso', 1)).toBe(1);
    expect(editDistance('wifi', 'with', 1)).toBe(2);
  });

  it('tells the question’s language, the Spark’s on a tie', () => {
    expect(questionLanguage('¿A qué hora cerráis?', 'en')).toBe('es');
    expect(questionLanguage('abris los domingos', 'en')).toBe('es');
    expect(questionLanguage('What time do you close on Saturday?', 'es')).toBe('en');
    expect(questionLanguage('Bizum?', 'es')).toBe('es');
    expect(questionLanguage('Bizum?', 'en')).toBe('en');
  });
});

describe('a question as the engine reads it', () => {
  const known = () => false;

  it('finds what kind of answer is wanted and the days asked, in both languages', () => {
    const q = readQuestion('¿A qué hora cerráis entre semana?', 'es', known);
    expect([...q.intents]).toEqual(expect.arrayContaining(['close']));
    expect(q.days.days).toEqual([1, 2, 3, 4, 5]);
    expect(readQuestion('how much is the sourdough loaf', 'en', known).intents.has('price')).toBe(true);
    expect(readQuestion('How much notice do you need for a cake?', 'en', known).intents.has('price')).toBe(false);
    expect(readQuestion('¿Abrís por la tarde?', 'es', known).part).toBe('afternoon');
  });

  it('reads a misspelt word as the concept word it is closest to, its first letter kept', () => {
    const q = readQuestion('wher is the shop', 'en', known);
    expect(q.intents.has('where')).toBe(true);
    expect(readQuestion('what tiem do you close', 'en', known).intents.has('time')).toBe(true);
  });

  it('keeps stop words out, but not the concept phrases they open ("sin gluten", "how much")', () => {
    const q = readQuestion('¿Tenéis pan sin gluten para celíacos?', 'es', known);
    expect(q.terms.map((t) => t.folded)).toEqual(['teneis', 'pan', 'sin gluten', 'celiacos']);
    // "para" is a stop word, not a form of "parar".
    expect(readQuestion('descuento para estudiantes', 'es', known).terms.map((t) => t.folded)).toEqual([
      'descuento',
      'estudiantes',
    ]);
  });
});
