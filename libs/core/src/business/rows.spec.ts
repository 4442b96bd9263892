import { isHeadingLine, isRowLine, lineBreaks, splitRow, visualWidth } from './rows';

/** The paragraphs lineBreaks makes of lines, against the widest line as the page's width. */
function paragraphs(lines: string[]): string[] {
  const width = Math.max(...lines.map(visualWidth));
  const breaks = lineBreaks(lines, width);
  const out: string[] = [];
  let current: string[] = [];
  lines.forEach((line, i) => {
    current.push(line);
    if (breaks[i] || i === lines.length - 1) {
      out.push(current.join(' '));
      current = [];
    }
  });
  return out;
}

describe('the line structure of a business document', () => {
  it('joins a value a word processor wrapped after the dot leaders back to its item', () => {
    expect(
      paragraphs([
        'Cinnamon bun ........................................... £2.70',
        'Bath bun (our recipe since 1987, with sugar nibs and a lump of sugar baked into the middle) ...',
        '£2.40',
        'Sausage roll, free-range pork .......................... £3.10',
      ]),
    ).toEqual([
      'Cinnamon bun ........................................... £2.70',
      'Bath bun (our recipe since 1987, with sugar nibs and a lump of sugar baked into the middle) ... £2.40',
      'Sausage roll, free-range pork .......................... £3.10',
    ]);
  });

  it('joins a wrapped row or label back together ("de 7:00 a" / "20:30"), and the end of a wrapped sentence', () => {
    expect(
      paragraphs([
        'Horario: Lunes a viernes: de 7:00 a 14:00 y de 17:00 a 20:30, sábados de 8:00 a 14:30 y domingos de',
        '9:00 a 13:00',
        'We deliver within Madrid city (postcodes 28001 to 28015) from Tuesday to Saturday, between 9:00 and',
        '13:00, for orders placed before 20:00 the day before.',
      ]),
    ).toEqual([
      'Horario: Lunes a viernes: de 7:00 a 14:00 y de 17:00 a 20:30, sábados de 8:00 a 14:30 y domingos de 9:00 a 13:00',
      'We deliver within Madrid city (postcodes 28001 to 28015) from Tuesday to Saturday, between 9:00 and 13:00, for orders placed before 20:00 the day before.',
    ]);
  });

  it('keeps a heading, and every row of an hours table, apart, however long the row before', () => {
    expect(
      paragraphs([
        'Tel. 01225 448 210 | hello@hartleysbakery.co.uk | www.hartleysbakery.co.uk',
        'OPENING HOURS',
        'Monday to Friday ........ 7.30am - 6.00pm',
        'Sunday .................. 9.00am - 1.00pm (bread and pastries only, cakes to order are not available)',
        'Bank holidays ........... 10.00am - 3.00pm',
      ]),
    ).toEqual([
      'Tel. 01225 448 210 | hello@hartleysbakery.co.uk | www.hartleysbakery.co.uk',
      'OPENING HOURS',
      'Monday to Friday ........ 7.30am - 6.00pm',
      'Sunday .................. 9.00am - 1.00pm (bread and pastries only, cakes to order are not available)',
      'Bank holidays ........... 10.00am - 3.00pm',
    ]);
  });

  it('joins a row whose item wrapped onto a line that goes on in lower case', () => {
    expect(
      paragraphs([
        'Celebration cake, two tiers, sponge and filling of your choice, decorated with fresh flowers or a',
        'piped message, serves 30 ... £95.00',
        'Gluten-free lemon drizzle, 7 inch, serves 8 ............ £22.00',
      ]),
    ).toEqual([
      'Celebration cake, two tiers, sponge and filling of your choice, decorated with fresh flowers or a piped message, serves 30 ... £95.00',
      'Gluten-free lemon drizzle, 7 inch, serves 8 ............ £22.00',
    ]);
  });

  it('ends a row closed by its value before the next capital, however long it is', () => {
    expect(
      paragraphs([
        'Silver service: Bronze plus drivetrain clean, wheels trued and bearings checked ... £85',
        'Gold service: bike stripped down, every bearing cleaned and regreased, new cables and outers',
        'fitted, full drivetrain degrease ... £160',
      ]),
    ).toEqual([
      'Silver service: Bronze plus drivetrain clean, wheels trued and bearings checked ... £85',
      'Gold service: bike stripped down, every bearing cleaned and regreased, new cables and outers fitted, full drivetrain degrease ... £160',
    ]);
  });

  it('reads headings in capitals, with a parenthesis in any case', () => {
    expect(isHeadingLine('OPENING HOURS')).toBe(true);
    expect(isHeadingLine('PRICE LIST (from 1 March 2025)')).toBe(true);
    expect(isHeadingLine('REPARTO A DOMICILIO')).toBe(true);
    expect(isHeadingLine('Opening hours')).toBe(false);
    expect(isHeadingLine('Mon: CLOSED')).toBe(false);
    expect(isHeadingLine('WE CLOSE AT 20:30.')).toBe(false);
  });

  it('splits a row into its label and its value', () => {
    expect(splitRow('Baguette ............................................... £2.10')).toEqual({
      label: 'Baguette',
      value: '£2.10',
    });
    expect(splitRow('- Martes a viernes: 10:00 a 14:00 / 17:00 a 21:00')).toEqual({
      label: 'Martes a viernes',
      value: '10:00 a 14:00 / 17:00 a 21:00',
    });
    expect(splitRow('Croissant 1,60 €')).toEqual({ label: 'Croissant', value: '1,60 €' });
    expect(splitRow('Mon-Fri 8:00-18:00')).toEqual({ label: 'Mon-Fri', value: '8:00-18:00' });
    // Prose is not a row, even when it ends with a time.
    expect(
      splitRow('Durante las Fallas (del 15 al 19 de marzo) abrimos todos los días de 7:00 a 21:00.'),
    ).toBeUndefined();
    expect(isRowLine('Puncture repair (inner tube fitted, tube included) ................... £15')).toBe(true);
  });

  it('are labels with a value, bulleted items, or lines closed by a price or a time; prose is not', () => {
    for (const line of [
      'Saturday: 8:00 to 15:00',
      'Sunday: closed',
      '• Gluten-free bread',
      'Croissant 1,60 €',
      'Lunch 13.30',
    ])
      expect({ line, row: isRowLine(line) }).toEqual({ line, row: true });
    for (const line of [
      'El señor Muñoz llegó a la reunión',
      'The bakery opened in 1987. It was the first one in town: a small',
      'Note: this sentence goes on well past the width of a short list line and is prose, not an item',
    ])
      expect({ line, row: isRowLine(line) }).toEqual({ line, row: false });
    // One line of prose that happens to end with a price is not a list.
    expect(paragraphs(['A loaf of our sourdough costs 4.50 €', 'and keeps for a week.'])).toEqual([
      'A loaf of our sourdough costs 4.50 € and keeps for a week.',
    ]);
    expect(paragraphs(['Prices', 'Croissant: 1.60 €', 'Baguette: 1.20 €', 'We bake every morning'])).toEqual([
      'Prices',
      'Croissant: 1.60 €',
      'Baguette: 1.20 €',
      'We bake every morning',
    ]);
  });

  it('joins a wrapped sentence going on in a bracket, even one that reads like a label ("(javascript: …")', () => {
    expect(
      paragraphs([
        'We open at nine every day <img src=x onerror=window.__pwned=1> [x] and then some more words to fill',
        '(javascript:window.__pwned=1) ![t](http://127.0.0.2:9/x.png) and close at eight.',
      ]),
    ).toEqual([
      'We open at nine every day <img src=x onerror=window.__pwned=1> [x] and then some more words to fill (javascript:window.__pwned=1) ![t](http://127.0.0.2:9/x.png) and close at eight.',
    ]);
  });
});
