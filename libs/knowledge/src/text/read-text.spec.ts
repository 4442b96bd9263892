import { readText } from './read-text';

const limits = { maxPages: 100, maxChars: 100_000 };

describe('readText', () => {
  it('drops a byte-order mark, makes line ends \\n and keeps Markdown as written', () => {
    const bytes = Buffer.from('\uFEFF# Horario\r\n\r\n| Día | Hora |\r\n| --- | --- |\r\n| Lunes | 7:00 |\r\n', 'utf8');
    expect(readText(bytes, limits)).toEqual({
      ok: true,
      pages: ['# Horario\n\n| Día | Hora |\n\n| --- | --- |\n\n| Lunes | 7:00 |'],
    });
  });

  it('cuts a long text into parts of about 3,000 characters at paragraph ends', () => {
    const paragraph = 'A sentence about the bakery. '.repeat(20).trim();
    const result = readText(Buffer.from(Array(20).fill(paragraph).join('\n\n')), limits);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.pages.length).toBeGreaterThan(1);
    for (const page of result.pages) expect(page.length).toBeLessThanOrEqual(3000);
    expect(result.pages.join('\n\n')).toBe(Array(20).fill(paragraph).join('\n\n'));
  });

  it('refuses what is not UTF-8 or holds a NUL, and names the limits it passes', () => {
    expect(readText(Buffer.from('Caf\xe9', 'latin1'), limits)).toEqual({ ok: false, code: 'MALFORMED' });
    expect(readText(Buffer.from('a\u0000b'), limits)).toEqual({ ok: false, code: 'MALFORMED' });
    expect(readText(Buffer.from('x'.repeat(200)), { maxPages: 100, maxChars: 100 })).toEqual({
      ok: false,
      code: 'TOO_MUCH_TEXT',
      params: { max: 100 },
    });
    const many = Array(5).fill('y'.repeat(2000)).join('\n\n');
    expect(readText(Buffer.from(many), { maxPages: 2, maxChars: 100_000 })).toEqual({
      ok: false,
      code: 'TOO_MANY_PAGES',
      params: { pages: 5, max: 2 },
    });
  });
});
