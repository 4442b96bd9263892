import { readDocument } from './document';

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
