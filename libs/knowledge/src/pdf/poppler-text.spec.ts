import { pdfinfoPages, popplerComplaint, popplerPageText } from './poppler-text';

describe('popplerPageText', () => {
  it('keeps a heading apart from the paragraph under it and joins the wrapped lines of a paragraph', () => {
    const raw = [
      'Envíos y pedidos',
      'Hacemos envíos a toda la península en 48 horas. Los envíos a las islas Canarias y',
      'Baleares tardan cinco días hábiles y tienen un recargo de nueve euros.',
      '',
      '',
    ].join('\n');
    expect(popplerPageText(raw)).toBe(
      'Envíos y pedidos\n\nHacemos envíos a toda la península en 48 horas. Los envíos a las islas Canarias y ' +
        'Baleares tardan cinco días hábiles y tienen un recargo de nueve euros.',
    );
  });

  it('ends a paragraph at a short line followed by a new sentence, not at a full one', () => {
    const raw = [
      'Los niños menores de seis años comen gratis los miércoles, salvo en el mes de agosto y en',
      'Navidad, cuando la cocina cierra. ¡Pregunta por la tarta!',
      'El café con leche se sirve aparte por 1,80 euros, y el zumo de naranja natural por tres.',
    ].join('\n');
    expect(popplerPageText(raw)).toBe(
      'Los niños menores de seis años comen gratis los miércoles, salvo en el mes de agosto y en Navidad, ' +
        'cuando la cocina cierra. ¡Pregunta por la tarta!\n\n' +
        'El café con leche se sirve aparte por 1,80 euros, y el zumo de naranja natural por tres.',
    );
  });

  it('keeps the lines of a list of hours or prices apart, even when no line is wider than the others', () => {
    const raw = ['Opening hours', 'Monday to Friday: 7:30 to 20:30', 'Saturday: 8:00 to 15:00', 'Sunday: closed', ''];
    expect(popplerPageText(raw.join('\n'))).toBe(
      'Opening hours\n\nMonday to Friday: 7:30 to 20:30\n\nSaturday: 8:00 to 15:00\n\nSunday: closed',
    );
  });

  it('keeps the blocks pdftotext separates with a blank line (columns, table cells) apart', () => {
    expect(popplerPageText('Café con leche\n\n1,80 €\n\nTostada con tomate\n\n2,50 €\n\n')).toBe(
      'Café con leche\n\n1,80 €\n\nTostada con tomate\n\n2,50 €',
    );
  });

  it('mends a word hyphenated across lines, collapses white space and spells out ligatures', () => {
    expect(popplerPageText('La o\ufb01cina   del  conoci-\nmiento tiene un \ufb02ujo e\ufb01caz.\n')).toBe(
      'La oficina del conocimiento tiene un flujo eficaz.',
    );
  });

  it('composes accents written as a letter and a combining mark (NFC)', () => {
    const text = popplerPageText('Informacio\u0301n u\u0301til para el an\u0303o.\n');
    expect(text).toBe('Información útil para el año.');
    expect(text).toBe(text.normalize('NFC'));
  });

  it('answers an empty string for a page without text', () => {
    expect(popplerPageText('')).toBe('');
    expect(popplerPageText('\n \n\u00a0\n')).toBe('');
  });
});

describe('popplerComplaint', () => {
  it('finds a password request', () => {
    expect(popplerComplaint('Command Line Error: Incorrect password\n')).toEqual({ kind: 'password' });
  });

  it('reports the first error, however poppler recovered from it', () => {
    expect(
      popplerComplaint(
        'Syntax Warning: Bad bounding box\nSyntax Error: Kid object (page 2) is wrong type (integer)\nInternal Error: x\n',
      ),
    ).toEqual({ kind: 'error', line: 'Syntax Error: Kid object (page 2) is wrong type (integer)' });
    expect(popplerComplaint('Out of memory\n')).toEqual({ kind: 'error', line: 'Out of memory' });
  });

  it('ignores warnings and configuration notes, and silence', () => {
    expect(popplerComplaint('')).toBeUndefined();
    expect(popplerComplaint("Syntax Warning: Invalid Font Weight\nConfig Error: No display font for 'Symbol'\n")).toBe(
      undefined,
    );
  });
});

describe('pdfinfoPages', () => {
  it('reads the page count', () => {
    expect(pdfinfoPages('Title:           Guía\nPages:          600\nEncrypted:       no\n')).toBe(600);
    expect(pdfinfoPages('Title: Pages: 3\n')).toBeUndefined();
  });
});
