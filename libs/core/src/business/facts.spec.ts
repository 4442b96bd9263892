import { daysIn } from './days';
import { readContacts, readFacts, readHours, readPayment, readPrice, timesIn, type HoursFact } from './facts';

const interval = (f: HoursFact | undefined) => f?.intervals.map(([a, b]) => `${a.text}-${b.text}`);

describe('days as documents and questions write them', () => {
  it('reads names, abbreviations, ranges and the words for several days, in English and Spanish', () => {
    expect(daysIn('Monday to Friday').days).toEqual([1, 2, 3, 4, 5]);
    expect(daysIn('Mon-Fri').days).toEqual([1, 2, 3, 4, 5]);
    expect(daysIn('Tue-Wed', true).days).toEqual([2, 3]);
    expect(daysIn('Lunes a sábado').days).toEqual([1, 2, 3, 4, 5, 6]);
    expect(daysIn('de martes a sábado').days).toEqual([2, 3, 4, 5, 6]);
    expect(daysIn('Friday to Monday').days).toEqual([5, 6, 0, 1]);
    expect(daysIn('¿a qué hora cerráis entre semana?').days).toEqual([1, 2, 3, 4, 5]);
    expect(daysIn('que horario teneis los findes').days).toEqual([6, 0]);
    expect(daysIn('Domingos y festivos')).toEqual({ days: [0], holiday: true });
    expect(daysIn('Bank holidays')).toEqual({ days: [], holiday: true });
  });

  it('reads an ambiguous abbreviation only where it can be a day', () => {
    expect(daysIn('Keep your flowers away from direct sun', true).days).toEqual([]);
    expect(daysIn('Sun', true).days).toEqual([0]);
    expect(daysIn('vistas al mar', true).days).toEqual([]);
  });
});

describe('opening hours', () => {
  it('reads day ranges, split hours, notes and closed days', () => {
    expect(interval(readHours('Monday to Friday ........ 7.30am - 6.00pm'))).toEqual(['7.30am-6.00pm']);
    const split = readHours('Lunes a viernes: de 7:00 a 14:00 y de 17:00 a 20:30');
    expect(split?.days).toEqual([1, 2, 3, 4, 5]);
    expect(interval(split)).toEqual(['7:00-14:00', '17:00-20:30']);
    expect(split?.intervals[1][1].minutes).toBe(20 * 60 + 30);
    const noted = readHours('Mon-Fri: 8:00-18:00 (workshop 8:00-17:30)');
    expect(interval(noted)).toEqual(['8:00-18:00']);
    expect(noted?.note).toBe('(workshop 8:00-17:30)');
    expect(readHours('Mon: CLOSED')).toMatchObject({ days: [1], closed: true, intervals: [] });
    expect(readHours('Festivos: cerrado')).toMatchObject({ holiday: true, closed: true });
    expect(readHours('Mon - Fri ....... 9 am - 7 pm')?.intervals[0][1].minutes).toBe(19 * 60);
  });

  it('reads a dated exception as such, never as days of the week', () => {
    expect(readHours("Valentine's Day and Mother's Day weekend: 7 am - 9 pm")?.days).toEqual([]);
    expect(readHours('14 de febrero, 10 de mayo y 2 de noviembre: de 7:00 a 22:00')?.days).toEqual([]);
    expect(readHours('1 de enero: cerrado')).toMatchObject({ days: [], closed: true });
  });

  it('is no hours row without days or without times', () => {
    expect(readHours('Zone 1 - Bucktown, Wicker Park ...... $12')).toBeUndefined();
    expect(readHours('Saturday: we are busy')).toBeUndefined();
    expect(timesIn('between 9am and 12 noon').map((t) => t.minutes)).toEqual([9 * 60, 12 * 60]);
  });
});

describe('prices, contacts and payment', () => {
  it('reads an item and its price as written', () => {
    expect(readPrice('Seeded rye sourdough (750g) ............................ £5.10')).toMatchObject({
      item: 'Seeded rye sourdough (750g)',
      price: '£5.10',
    });
    expect(readPrice('- Angelópolis, Lomas de Angelópolis, Cholula y resto de la zona: 150 MXN')?.item).toBe(
      'Angelópolis, Lomas de Angelópolis, Cholula y resto de la zona',
    );
    expect(readPrice('Bici urbana: 15 EUR el día / 50 EUR la semana')?.price).toBe('15 EUR el día / 50 EUR la semana');
    expect(readPrice('Changes or cancellations: free until 5 pm the day before delivery')).toBeUndefined();
  });

  it('reads phones (WhatsApp apart, with their labels), e-mail, website and the address', () => {
    const line = 'Tel. 963 41 27 85 - WhatsApp 654 20 19 88 - pedidos@hornosanroque.es';
    expect(readContacts(line).map((c) => [c.type, c.value, c.type === 'email' ? undefined : c.label])).toEqual([
      ['email', 'pedidos@hornosanroque.es', undefined],
      ['phone', '963 41 27 85', 'Tel'],
      ['whatsapp', '654 20 19 88', 'WhatsApp'],
    ]);
    expect(readContacts('Tel. 01225 448 210 | hello@x.co.uk').find((c) => c.type === 'phone')?.value).toBe(
      '01225 448 210',
    );
    expect(readContacts('C/ de Sueca, 41 - 46006 Valencia (barrio de Ruzafa)')[0]).toMatchObject({ type: 'address' });
    expect(readContacts('22 Walcot Street, Bath BA1 5BG')[0]).toMatchObject({ type: 'address' });
    expect(
      readContacts('We are at the top of Walcot Street, a 10-minute walk from the station.').filter(
        (c) => c.type === 'address',
      ),
    ).toEqual([]);
  });

  it('reads the ways to pay, and a refusal', () => {
    expect(readPayment('We accept cash, all major debit and credit cards, Apple Pay and Google Pay.')?.methods).toEqual(
      ['cash', 'debit', 'credit', 'cards', 'Apple Pay', 'Google Pay'],
    );
    expect(readPayment('We do not accept cheques.')).toMatchObject({ methods: ['cheques'], refused: true });
    expect(readPayment('Efectivo, tarjeta y Bizum.', 'FORMAS DE PAGO')?.methods).toEqual([
      'Efectivo',
      'tarjeta',
      'Bizum',
    ]);
  });

  it('reads a passage line by line, under its headings', () => {
    const facts = readFacts('OPENING HOURS\nSat: 9:00-17:00\nPAYMENT\nCash and cards. We do not accept cheques.');
    expect(facts.map((f) => f.kind)).toEqual(['hours', 'payment', 'payment']);
    expect(facts[0]).toMatchObject({ heading: 'OPENING HOURS', days: [6] });
  });
});
