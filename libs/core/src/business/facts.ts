/**
 * The facts customers ask a business about most, read from the lines of its documents at ingestion
 * (issue 29 item 3) and stored beside the text: opening hours (a day range and its times, split hours,
 * closed days, holidays and dated exceptions), prices (an item and its price, with currency and unit),
 * contact details (address, phone, e-mail, website) and payment methods. Each fact keeps the line it was
 * read from, as the document writes it, which an answer quotes.
 */
import { splitSentences } from '../sentences';
import { daysIn } from './days';
import { isHeadingLine, PRICE, splitRow } from './rows';

export interface TimeOfDay {
  /** As the document writes it ("7.30am", "20:30", "9 am"). */
  text: string;
  /** Minutes from midnight. */
  minutes: number;
}

export interface HoursFact {
  kind: 'hours';
  line: string;
  heading?: string;
  /** What the row is about: "Monday to Friday", "Bank holidays", "14 de febrero". */
  label: string;
  /** Days of the week the row covers (0 Sunday … 6 Saturday); empty for a dated exception. */
  days: number[];
  holiday: boolean;
  closed: boolean;
  /** Opening intervals, in order ("de 7:00 a 14:00 y de 17:00 a 20:30": two). */
  intervals: Array<[TimeOfDay, TimeOfDay]>;
  /** What the row says after the times ("(late nights)", "shop only, workshop closed"). */
  note?: string;
}

export interface PriceFact {
  kind: 'price';
  line: string;
  heading?: string;
  /** The item as the document names it ("Seeded rye sourdough (750g)"). */
  item: string;
  /** The price as written ("£5.10", "from £42", "15 EUR el día / 50 EUR la semana"). */
  price: string;
}

export interface ContactFact {
  kind: 'contact';
  line: string;
  type: 'phone' | 'whatsapp' | 'email' | 'web' | 'address';
  value: string;
  /** The label the document gives it ("Workshop", "Tienda", "pedidos"). */
  label?: string;
}

export interface PaymentFact {
  kind: 'payment';
  line: string;
  /** Payment methods the line names, as written ("Apple Pay", "Bizum", "cash"). */
  methods: string[];
  /** The line refuses them ("We do not accept cheques"). */
  refused: boolean;
}

export type BusinessFact = HoursFact | PriceFact | ContactFact | PaymentFact;

const TIME =
  /\b(\d{1,2})(?:[:.h](\d{2}))?\s?(am|pm|a\.m\.|p\.m\.|h\b|hrs\b)?|\b(noon|midday|midnight|mediod[ií]a|medianoche)\b/giu;

/** The times of a text, in order: "7.30am - 6.00pm", "de 7:00 a 14:00", "9 am", "12 noon". */
export function timesIn(text: string): TimeOfDay[] {
  const out: TimeOfDay[] = [];
  for (const m of text.matchAll(TIME)) {
    if (m[4]) {
      const word = m[4].toLowerCase();
      if (out.length > 0 && /noon|midday|mediod/.test(word) && /\b12\s*$/.test(text.slice(0, m.index))) continue;
      out.push({ text: m[0], minutes: /night|noche/.test(word) ? 24 * 60 : 12 * 60 });
      continue;
    }
    const hour = Number(m[1]);
    const minutes = m[2] ? Number(m[2]) : 0;
    const suffix = (m[3] ?? '').toLowerCase().replace(/\./g, '');
    // A bare number is a time only with minutes or a suffix ("9am", "20:30", "14h").
    if (!m[2] && !suffix) {
      // "12 noon": the number is the time the word names.
      if (/^\s*(noon|midday|mediod)/i.test(text.slice(m.index + m[0].length))) {
        out.push({
          text: `${m[0]} ${
            text
              .slice(m.index + m[0].length)
              .trim()
              .split(/\s/)[0]
          }`,
          minutes: 12 * 60,
        });
      }
      continue;
    }
    if (hour > 24 || minutes > 59) continue;
    let h = hour;
    if (suffix === 'pm' && h < 12) h += 12;
    if (suffix === 'am' && h === 12) h = 0;
    out.push({ text: m[0].trim(), minutes: h * 60 + minutes });
  }
  return out;
}

const CLOSED = /\b(closed|shut|cerrad[oa]s?|cerramos)\b/i;
/** A label that is a date or a named day rather than days of the week ("14 de febrero", "Christmas Eve"). */
const DATED =
  /\b(\d{1,2}(?:st|nd|rd|th)?\s+(?:de\s+)?(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|ene|abr|ago|dic|enero|febrero|marzo|abril|mayo|junio|julio|agosto|septiembre|setiembre|octubre|noviembre|diciembre)\w*|christmas|easter|new year|thanksgiving|valentine|navidad|nochebuena|nochevieja|a[ñn]o nuevo|semana santa|reyes|pascua)/i;

/** An opening-hours row: a label naming days (or a date) and a value of times or "closed". */
export function readHours(line: string, heading?: string): HoursFact | undefined {
  const row = splitRow(line);
  if (!row) return undefined;
  const { label, value } = row;
  if (label.length > 60) return undefined;
  const dated = DATED.test(label);
  const set = dated ? { days: [], holiday: false } : daysIn(label, true);
  if (set.days.length === 0 && !set.holiday && !dated) return undefined;
  // The value without what it says in brackets: "(workshop 8:00-17:30)" is a note, not the opening.
  const main = value.replace(/\([^)]*\)/g, ' ');
  const times = timesIn(main);
  const closed = CLOSED.test(main) && times.length === 0;
  if (times.length < 2 && !closed) return undefined;
  const intervals: Array<[TimeOfDay, TimeOfDay]> = [];
  for (let i = 0; i + 1 < times.length; i += 2) intervals.push([times[i], times[i + 1]]);
  const last = times.at(-1);
  const after = last ? value.slice(value.lastIndexOf(last.text) + last.text.length) : '';
  const note = after.replace(/^[\s,;.–—-]+/, '').trim() || undefined;
  return {
    kind: 'hours',
    line,
    ...(heading ? { heading } : {}),
    label,
    days: set.days,
    holiday: set.holiday,
    closed,
    intervals,
    ...(note ? { note } : {}),
  };
}

/** A priced row: an item, dot leaders or a colon, and a price with its currency. */
export function readPrice(line: string, heading?: string): PriceFact | undefined {
  const row = splitRow(line);
  if (!row) return undefined;
  // The price comes first in the value ("£5.10", "from £42", "chocolates $16, balloon $9"); "free until 5 pm
  // the day before delivery" is a policy, not a price.
  const at = PRICE.exec(row.value);
  if (!at || at.index > 20) return undefined;
  if (/^(free|gratis)/i.test(at[0]) && row.value.length > 25) return undefined;
  const item = row.label
    .replace(/^[-•·*–—]\s*/, '')
    .replace(/[\s:–—-]+$/, '')
    .trim();
  if (item.length < 2 || !/\p{L}/u.test(item)) return undefined;
  return { kind: 'price', line, ...(heading ? { heading } : {}), item, price: row.value.replace(/\.$/, '') };
}

const EMAIL = /[\p{L}\p{N}._%+-]+@[\p{L}\p{N}.-]+\.[a-z]{2,}/giu;
const WEB =
  /\b(?:https?:\/\/)?(?:www\.)?[a-z0-9-]+(?:\.[a-z0-9-]+)*\.(?:com|es|mx|co\.uk|uk|org|net|ie|ca|us|eu|info|shop|store)(?:\/[\w/-]*)?\b/gi;
const PHONE = /(?:\+\d{1,3}\s?)?(?:\(\d{2,4}\)\s?)?\d{2,5}(?:[\s.-]\d{2,4}){1,4}/g;
const STREET =
  /(?:^|[\s,])(street|st\.|road|rd\.|avenue|ave\.?|lane|square|place|way|drive|boulevard|blvd|calle|c\/|avda\.?|avenida|plaza|paseo|camino|carrera|ronda|traves[ií]a|carretera)(?=[\s,.]|$)/i;
const POSTCODE = /\b([A-Z]{1,2}\d[A-Z\d]?\s?\d[A-Z]{2}|\d{5}|[A-Z]{2}\s\d{5})\b/;

/** The label written before a value on its line ("Workshop: 01223 364 901" → "Workshop"). */
function labelBefore(line: string, index: number): string | undefined {
  const before = line
    .slice(0, index)
    .split(/[|·•]|\s[-–—]\s/)
    .pop()
    ?.replace(/[:.\s]+$/, '')
    .trim();
  return before && before.length <= 40 && /\p{L}/u.test(before) ? before : undefined;
}

/** The contact details of a line: phones (WhatsApp apart), e-mail addresses, websites, a street address. */
export function readContacts(line: string): ContactFact[] {
  const out: ContactFact[] = [];
  const emails = [...line.matchAll(EMAIL)];
  for (const m of emails) out.push({ kind: 'contact', line, type: 'email', value: m[0] });
  const withoutEmails = line.replace(EMAIL, ' ');
  for (const m of withoutEmails.matchAll(WEB)) {
    if (/@/.test(m[0])) continue;
    out.push({ kind: 'contact', line, type: 'web', value: m[0] });
  }
  for (const m of withoutEmails.replace(WEB, ' ').matchAll(PHONE)) {
    const digits = m[0].replace(/\D/g, '');
    if (digits.length < 9 || digits.length > 13) continue;
    const label = labelBefore(withoutEmails, m.index);
    const whatsapp = /whats\s?app/i.test(label ?? '') && !/\b(call|tel|phone|llam|tel[eé]fono)\b/i.test(label ?? '');
    out.push({
      kind: 'contact',
      line,
      type: whatsapp ? 'whatsapp' : 'phone',
      value: m[0].trim(),
      ...(label ? { label } : {}),
    });
  }
  const addressLike = POSTCODE.test(line) || /^(\d+[a-z]?\s|c\/|calle|avda|avenida|plaza|paseo)/i.test(line.trim());
  if (STREET.test(line) && /\d/.test(line) && line.length <= 100 && addressLike) {
    if (!emails.length && !out.some((c) => c.type === 'phone' || c.type === 'whatsapp'))
      out.push({ kind: 'contact', line, type: 'address', value: line.replace(/\s*[.;]$/, '') });
  }
  return out;
}

/** Payment methods a line may name (as a pattern, to find them whatever their case). */
const METHODS =
  /\b(cash|efectivo|cards?|tarjetas?|debit|d[ée]bito|credit|cr[ée]dito|visa|mastercard|american express|amex|discover|apple pay|google pay|samsung pay|paypal|bizum|transferencias?|bank transfer|spei|oxxo|cheques?|checks?|contactless|sin contacto|vouchers?|financiaci[oó]n|finance|instalments|installments|plazos|meses sin intereses)\b/gi;
const PAYMENT_WORDS =
  /\b(pay|paid|payment|accept|take|pago|pagar|pagos|aceptamos|formas de pago|m[ée]todos de pago)\b/i;
const REFUSE = /\b(do not|don't|not|no|never|nunca)\b/i;

/** The payment methods a line names, when it speaks of paying (or sits under a payment heading). */
export function readPayment(line: string, heading?: string): PaymentFact | undefined {
  const methods = [...new Set([...line.matchAll(METHODS)].map((m) => m[0]))];
  if (methods.length === 0) return undefined;
  if (!PAYMENT_WORDS.test(line) && !PAYMENT_WORDS.test(heading ?? '') && methods.length < 2) return undefined;
  return { kind: 'payment', line, methods, refused: REFUSE.test(line) && methods.length <= 2 };
}

/**
 * The facts of a passage's lines (one paragraph a line, as the chunker writes them). A line in capitals
 * is the heading of the rows under it.
 */
export function readFacts(content: string): BusinessFact[] {
  const facts: BusinessFact[] = [];
  let heading: string | undefined;
  for (const raw of content.split('\n')) {
    const line = raw.trim();
    if (line === '') continue;
    if (isHeadingLine(line)) {
      heading = line;
      continue;
    }
    const hours = readHours(line, heading);
    if (hours) facts.push(hours);
    const price = hours ? undefined : readPrice(line, heading);
    if (price) facts.push(price);
    if (!hours && !price) facts.push(...readContacts(line));
    for (const sentence of splitSentences(line)) {
      const payment = readPayment(sentence, heading);
      if (payment) facts.push(payment);
    }
  }
  return facts;
}
