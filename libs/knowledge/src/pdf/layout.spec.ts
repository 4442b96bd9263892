import { assemblePageText, type PositionedText } from './layout';

const item = (str: string, x: number, y: number, opts: Partial<PositionedText> = {}): PositionedText => ({
  str,
  x,
  y,
  width: str.length * 5,
  height: 11,
  hasEOL: false,
  ...opts,
});

describe('assemblePageText', () => {
  it('joins wrapped lines into one paragraph and separates paragraphs', () => {
    const text = assemblePageText([
      item('Capítulo 1: Información', 72, 700, { height: 16, hasEOL: true }),
      item('El señor Muñoz llegó a la reunión', 72, 670, { hasEOL: true }),
      item('del año pasado. ¿Quién pagó?', 72, 657, { hasEOL: true }),
      item('Otro párrafo.', 72, 620),
    ]);
    expect(text).toBe(
      'Capítulo 1: Información\n\nEl señor Muñoz llegó a la reunión del año pasado. ¿Quién pagó?\n\nOtro párrafo.',
    );
  });

  it('mends a word hyphenated across lines, but not a real hyphen', () => {
    expect(assemblePageText([item('el conoci-', 72, 700, { hasEOL: true }), item('miento útil', 72, 687)])).toBe(
      'el conocimiento útil',
    );
    expect(assemblePageText([item('socio-', 72, 700, { hasEOL: true }), item('Económico', 72, 687)])).toBe(
      'socio- Económico',
    );
  });

  it('puts a space between runs that are apart on the same line, and none inside a word', () => {
    expect(assemblePageText([item('Hola', 72, 700), item('mundo', 72 + 20 + 10, 700)])).toBe('Hola mundo');
    expect(assemblePageText([item('Hol', 72, 700), item('a', 72 + 15, 700)])).toBe('Hola');
  });

  it('answers an empty string for a page without text', () => {
    expect(assemblePageText([])).toBe('');
    expect(assemblePageText([item('', 0, 0, { hasEOL: true }), item('   ', 72, 700)])).toBe('');
  });

  it('keeps the lines of a list of hours or prices one a paragraph', () => {
    const text = assemblePageText([
      item('Opening hours', 72, 700, { hasEOL: true }),
      item('Monday to Friday: 7:30 to 20:30', 72, 687, { hasEOL: true }),
      item('Saturday: 8:00 to 15:00', 72, 674, { hasEOL: true }),
      item('Sunday: closed', 72, 661),
    ]);
    expect(text).toBe('Opening hours\n\nMonday to Friday: 7:30 to 20:30\n\nSaturday: 8:00 to 15:00\n\nSunday: closed');
  });
});
