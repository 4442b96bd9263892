import { skipReason } from './delta';

describe('which versions of a followed file the sync reads', () => {
  const file = (name: string, size: number, mimeType?: string) => ({ id: 'i', name, size, file: { mimeType } });

  it('skips what the import does not take, a folder, or what is larger than the limit', () => {
    expect(skipReason(file('a.pdf', 10), 10)).toBeUndefined();
    expect(skipReason(file('notes.txt', 1, 'text/plain'), 10)).toBeUndefined();
    expect(skipReason(file('a.pdf', 11), 10)).toBe('TOO_LARGE');
    expect(skipReason(file('a.xlsx', 1), 10)).toBe('UNSUPPORTED');
    expect(skipReason(file('menu', 1, 'application/pdf'), 10)).toBe('UNSUPPORTED');
    expect(skipReason({ id: 'f', name: 'Folder.pdf', folder: { childCount: 1 } }, 10)).toBe('UNSUPPORTED');
  });
});
