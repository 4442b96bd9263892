import { importableKind, skipReason } from './delta';

describe('which versions of a followed file the sync reads', () => {
  const file = (name: string, size: number, mimeType?: string) => ({ id: 'i', name, size, file: { mimeType } });

  it('reads PDFs and Word documents (.docx), by name as the import does', () => {
    expect(importableKind(file('Menu.PDF', 1))).toBe('pdf');
    expect(importableKind(file('Carta.docx', 1))).toBe('docx');
    expect(importableKind(file('menu', 1, 'application/pdf'))).toBeUndefined();
    expect(importableKind(file('Carta.doc', 1, 'application/msword'))).toBeUndefined();
    expect(importableKind(file('notes.txt', 1, 'text/plain'))).toBeUndefined();
  });

  it('skips what is not a PDF or .docx, a folder, or what is larger than the limit', () => {
    expect(skipReason(file('a.pdf', 10), 10)).toBeUndefined();
    expect(skipReason(file('a.pdf', 11), 10)).toBe('TOO_LARGE');
    expect(skipReason(file('a.txt', 1), 10)).toBe('UNSUPPORTED');
    expect(skipReason({ id: 'f', name: 'Folder.pdf', folder: { childCount: 1 } }, 10)).toBe('UNSUPPORTED');
  });
});
