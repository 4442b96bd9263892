import { strToU8, zipSync } from 'fflate';
import { makeDocx } from '../../../../test/integration/fixtures/docx';
import { displayPath, importKindOf, parentFolders } from '../graph/paths';
import { splitIntoParts } from '../text/read-text';
import { readDocx, zipInflatedSize } from './read-docx';

const limits = { maxPages: 100, maxChars: 100_000, maxInflatedBytes: 1024 * 1024 };

describe('reading a Word document (.docx) with mammoth', () => {
  it('reads the paragraphs of a real .docx', async () => {
    const out = await readDocx(makeDocx(['Espiga bakery.', 'Open Monday to Saturday, 8 to 20.']), limits);
    expect(out).toEqual({ ok: true, pages: ['Espiga bakery.\n\nOpen Monday to Saturday, 8 to 20.'] });
  });

  it('refuses what is not a .docx, a password-protected one and a ZIP bomb, by the bytes', async () => {
    expect(await readDocx(Buffer.from('%PDF-1.4 not a docx'), limits)).toEqual({ ok: false, code: 'MALFORMED' });
    const ole = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0, 0]);
    expect(await readDocx(ole, limits)).toEqual({ ok: false, code: 'ENCRYPTED' });
    // 4 MB of zeros deflate to a few kilobytes: refused from the central directory, before mammoth inflates it.
    const bomb = Buffer.from(zipSync({ 'word/document.xml': new Uint8Array(4 * 1024 * 1024) }, { level: 9 }));
    expect(bomb.length).toBeLessThan(64 * 1024);
    expect(zipInflatedSize(bomb)).toBe(4 * 1024 * 1024);
    expect(await readDocx(bomb, limits)).toEqual({ ok: false, code: 'TOO_COMPLEX' });
    // A ZIP that is not a Word document.
    const zip = Buffer.from(zipSync({ 'a.txt': strToU8('hello') }));
    expect(await readDocx(zip, limits)).toEqual({ ok: false, code: 'MALFORMED' });
  });

  it('holds the same limits as a PDF: characters and pages (parts of about 3,000 characters)', async () => {
    const paragraphs = Array.from({ length: 40 }, (_, i) => `Paragraph ${i}. ${'word '.repeat(100)}`);
    const doc = makeDocx(paragraphs);
    expect(await readDocx(doc, { ...limits, maxChars: 5000 })).toEqual({
      ok: false,
      code: 'TOO_MUCH_TEXT',
      params: { max: 5000 },
    });
    const out = await readDocx(doc, limits);
    expect(out.ok && out.pages.length).toBe(8);
    expect(await readDocx(doc, { ...limits, maxPages: 5 })).toEqual({
      ok: false,
      code: 'TOO_MANY_PAGES',
      params: { pages: 8, max: 5 },
    });
  });

  it('cuts at paragraph ends, and a paragraph longer than a part at sentence ends', () => {
    const parts = splitIntoParts(`Short one.\n\n${'A sentence here. '.repeat(300)}`, 1000);
    expect(parts[0].startsWith('Short one.')).toBe(true);
    expect(parts.every((p) => p.length <= 1000)).toBe(true);
    expect(parts.join(' ').replace(/\s+/g, ' ')).toContain('A sentence here. A sentence here.');
  });
});

describe('paths of SharePoint and OneDrive files', () => {
  it('reads like the services name them; the default library is left out', () => {
    expect(displayPath({ site: 'Bakery', library: 'Documents' }, [], 'Menu.pdf')).toBe('Sites/Bakery/Menu.pdf');
    expect(displayPath({ site: 'Bakery', library: 'Recipes' }, ['2025'], 'Bread.docx')).toBe(
      'Sites/Bakery/Recipes/2025/Bread.docx',
    );
    expect(displayPath({}, ['Carta'], 'Horario.docx')).toBe('My files/Carta/Horario.docx');
    expect(parentFolders({ parentReference: { path: '/drives/b!x/root:/Carta/Fotos%20viejas' } })).toEqual([
      'Carta',
      'Fotos viejas',
    ]);
    expect(parentFolders({ parentReference: { path: '/drives/b!x/root:' } })).toEqual([]);
  });

  it('takes PDF, Word (.docx) and text (.txt, .md) by name, as the upload does', () => {
    expect(['a.PDF', 'b.docx', 'c.doc', 'd.xlsx', 'e', 'f.TXT', 'g.md', 'h.markdown'].map(importKindOf)).toEqual([
      'pdf',
      'docx',
      undefined,
      undefined,
      undefined,
      'txt',
      'md',
      'md',
    ]);
  });
});
