import { sanitizeFileName } from './names';

describe('sanitizeFileName', () => {
  it('keeps an ordinary name, accents included', () => {
    expect(sanitizeFileName('Carta de menú – año 2025.pdf')).toBe('Carta de menú – año 2025.pdf');
  });

  it('keeps only the last path segment, whatever the separator', () => {
    expect(sanitizeFileName('../../etc/passwd.pdf')).toBe('passwd.pdf');
    expect(sanitizeFileName('..\\..\\windows\\system32\\x.pdf')).toBe('x.pdf');
    expect(sanitizeFileName('/absolute/path/doc.pdf')).toBe('doc.pdf');
  });

  it('never answers a name that walks up or hides', () => {
    expect(sanitizeFileName('..')).toBe('document.pdf');
    expect(sanitizeFileName('../')).toBe('document.pdf');
    expect(sanitizeFileName('.hidden.pdf')).toBe('hidden.pdf');
  });

  it('drops control and direction-override characters', () => {
    expect(sanitizeFileName('invoice\u202Efdp.exe')).toBe('invoicefdp.exe');
    expect(sanitizeFileName('a\u0000b\nc.pdf')).toBe('abc.pdf');
  });

  it('normalises accents to one form (NFC)', () => {
    expect(sanitizeFileName('Informacio\u0301n.pdf')).toBe('Información.pdf');
  });

  it('falls back to a neutral name when nothing is left', () => {
    expect(sanitizeFileName('')).toBe('document.pdf');
    expect(sanitizeFileName(undefined)).toBe('document.pdf');
    expect(sanitizeFileName('   ')).toBe('document.pdf');
  });

  it('shortens very long names and keeps the extension', () => {
    const name = sanitizeFileName(`${'x'.repeat(500)}.pdf`);
    expect(name).toHaveLength(200);
    expect(name.endsWith('.pdf')).toBe(true);
  });
});
