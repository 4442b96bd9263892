import { countLetters, DocumentReader, readDocument } from './document';

describe('readDocument', () => {
  it('chunks the pages, detects the language and counts what it read', () => {
    const pages = ['El menú del día cuesta 12 euros. Incluye pan, bebida y postre.', '', 'Abrimos todos los días.'];
    const doc = readDocument(pages, 'en')!;
    expect(doc.language).toBe('es');
    expect(doc.config).toBe('spanish');
    expect(doc.pages).toBe(3);
    expect(doc.chars).toBe(pages.join('').length);
    expect(doc.emptyPages).toEqual([2]);
    expect(doc.chunks.map((c) => c.page)).toEqual([1, 3]);
  });

  it('answers nothing for a document with no letters (scanned pages with page numbers)', () => {
    expect(readDocument(['', '2', '  3 '], 'es')).toBeUndefined();
    expect(readDocument([], 'es')).toBeUndefined();
  });

  it('falls back to the given language when the text does not tell', () => {
    expect(readDocument(['Total 1.200 EUR', 'IVA 21%'], 'es')!.language).toBe('es');
    expect(readDocument(['Total 1.200 EUR', 'IVA 21%'], 'en')!.language).toBe('en');
  });
});

describe('countLetters', () => {
  it('counts letters only, each once (accents, ñ, letters outside the BMP), not digits, marks or punctuation', () => {
    expect(countLetters('Año 2025: ¡Olé!')).toBe(6);
    expect(countLetters('Informacio\u0301n')).toBe(11);
    expect(countLetters('\u{1d400}\u{1d401} x')).toBe(3);
    expect(countLetters(' 12 – 3 ')).toBe(0);
  });
});

describe('DocumentReader', () => {
  const es = 'El menú del día cuesta doce euros y se sirve de lunes a viernes en la terraza. ';
  const en = 'The lunch menu costs twelve euros and it is served on the terrace from Monday to Friday. ';

  it('settles the language once 20,000 characters are in, and hands out the passages page by page', () => {
    const reader = new DocumentReader('en');
    const pages = [es.repeat(100), '', es.repeat(100), en.repeat(400), es.repeat(10)];
    reader.add(pages[0]); // ~8,000 characters: not enough to settle
    expect(reader.settledLanguage).toBeUndefined();
    const first = reader.takeChunks();
    expect(first.every((c) => c.page === 1)).toBe(true);
    reader.add(pages[1]);
    reader.add(pages[2]);
    expect(reader.settledLanguage).toBeUndefined();
    reader.add(pages[3]); // English from here on, but the first 20,000 characters are mostly Spanish
    expect(reader.settledLanguage).toBe('es');
    const middle = reader.takeChunks();
    expect(new Set(middle.map((c) => c.page))).toEqual(new Set([3, 4]));
    reader.add(pages[4]);
    const last = reader.takeChunks();
    expect(reader.takeChunks()).toEqual([]);

    const whole = reader.finish()!;
    expect(whole).toEqual(readDocument(pages, 'en'));
    expect([...first, ...middle, ...last]).toEqual(whole.chunks);
    expect(whole.language).toBe('es');
    expect(whole.emptyPages).toEqual([2]);
  });

  it('settles on the fallback when the first 20,000 characters do not tell (a table of figures)', () => {
    const reader = new DocumentReader('es');
    reader.add('Total 1.234 EUR\n'.repeat(1500)); // 24,000 characters, no function words
    expect(reader.settledLanguage).toBe('es');
    reader.add(en.repeat(50));
    expect(reader.finish()!.language).toBe('es');
  });

  it('never settles a short document: its language is decided by finish', () => {
    const reader = new DocumentReader('es');
    reader.add(en.repeat(5));
    expect(reader.settledLanguage).toBeUndefined();
    expect(reader.finish()!.language).toBe('en');
  });
});
