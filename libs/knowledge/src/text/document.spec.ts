import { countLetters, readDocument } from './document';

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
