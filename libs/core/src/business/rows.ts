/**
 * The line structure of a business document as a PDF draws it (issue 29 item 2): which lines are
 * headings, which are rows of a list or table (a day range and its hours, an item and its price), and
 * which lines a word processor wrapped and must be joined back into their sentence or row. Used by both
 * PDF readers (poppler's text and pdf.js's positioned text) before the text is cut into passages.
 */

/** Approximate advance widths of a proportional sans-serif font, in ems: enough to tell a full line. */
function charWidth(c: string): number {
  if (" .,:;'’|!iljI".includes(c)) return 0.26;
  if ('ftr()[]/-'.includes(c)) return 0.33;
  if ('mwMW@%'.includes(c)) return 0.85;
  if (/\p{Lu}/u.test(c)) return 0.68;
  if (/\d/.test(c)) return 0.556;
  return 0.52;
}

/** How wide a line is drawn, in ems (see `charWidth`). */
export function visualWidth(text: string): number {
  let w = 0;
  for (const c of text) w += charWidth(c);
  return w;
}

/** A line written in capitals (a parenthesis aside): "OPENING HOURS", "PRICE LIST (from 1 March 2025)". */
export function isHeadingLine(line: string): boolean {
  const text = line.trim();
  if (text.length < 3 || text.length > 80 || /[.;,]$/.test(text)) return false;
  const bare = text.replace(/\([^)]*\)/g, '');
  const letters = bare.match(/\p{L}/gu) ?? [];
  return letters.length >= 3 && !/\p{Ll}/u.test(bare) && !/\d{1,2}[:.]\d{2}/.test(bare);
}

/** Dot leaders (or an ellipsis) between an item and its value. */
export const LEADER = /(?:\s*\.{3,}\s*|\s*…\s*|\s+_{3,}\s+)/;

/** A price with its currency, or a price that is none ("free", "gratis"). */
export const PRICE =
  /(?:[£$€]\s?\d[\d.,]*|\b\d[\d.,]*\s?(?:€|eur\b|euros?\b|usd\b|mxn\b|gbp\b|pesos?\b|£|\$)|\b(?:free of charge|free|gratis)\b)/iu;
/** A line that ends in dot leaders: its value was wrapped to the next line. */
export const endsWithLeader = (line: string): boolean => /(\.{2,}|…)\s*$/.test(line.trim());

/** A price, a time or a time range, as a value of a row. */
const VALUE =
  /(?:[£$€]\s?\d[\d.,]*|\d[\d.,]*\s?(?:€|eur|euros?|usd|mxn|gbp|£|\$)|\d{1,2}(?:[:.h]\d{2})?\s?(?:am|pm|h)\b|\b\d{1,2}[:.h]\d{2}\b|\bclosed\b|\bcerrad[oa]s?\b)/iu;

/** A line that holds only a value (a price, a time, "closed"): a cell of an item's row. */
export function isValueOnly(line: string): boolean {
  const text = line.trim();
  if (text === '' || text.length > 40) return false;
  return (
    VALUE.test(text) &&
    !/\p{L}{4,}/u.test(text.replace(VALUE, '').replace(/\b(from|desde|per|por|el|la|each|cada)\b/giu, ''))
  );
}

/**
 * An item of a list or a row of a table: a bullet or a number opening it, dot leaders before a value, a
 * label and its value ("Saturday: 8:00 to 15:00", "Sunday: closed"), or a price or a time closing it.
 */
export function isRowLine(line: string): boolean {
  const text = line.trim();
  if (text.length === 0) return false;
  if (LEADER.test(text) && VALUE.test(text.split(LEADER).slice(-1)[0] ?? '')) return true;
  if (text.length > 90) return false;
  if (/^([•·▪‣◦*–—-]|\d{1,2}[.)]|\p{Ll}\))\s/u.test(text)) return true;
  if (/^[\p{L}\p{N}][^:.!?;]{0,39}:\s*\S/u.test(text) && !/[,;-]$/.test(text)) return true;
  return /(\d+(?:[.,]\d+)?\s*(?:€|\$|£|eur|euros?|usd|mxn)|[€$£]\s*\d+(?:[.,]\d+)?|\b\d{1,2}[:.h]\d{2}(?:\s*(?:h|am|pm))?)$/iu.test(
    text,
  );
}

/** A row with dot leaders and its value after them ("Baguette ....... £2.10"). */
function completeRow(line: string): boolean {
  const parts = line.split(LEADER);
  return parts.length > 1 && VALUE.test(parts[parts.length - 1]);
}

/** Words a line cannot end with unless it was wrapped ("…from Tuesday to", "…de 7:00 a"). */
const DANGLING =
  /(?:^|\s)(a|an|the|and|or|of|to|for|with|from|in|on|at|by|per|y|o|u|e|de|del|la|las|el|los|en|con|por|para|al|desde|hasta|entre|sin|que)$/iu;

/** A line whose end shows it goes on: a dangling word, a comma, an opening bracket or a joining sign. */
const dangles = (line: string) => DANGLING.test(line) || /[,(\-–/+&]$/.test(line);

/** A line that goes on the previous one: it opens with a lower-case letter or closing punctuation. */
const continues = (line: string) => /^[\p{Ll})\],.;:]/u.test(line);

const endsSentence = (line: string) => /[.!?:]["”’)]?$/.test(line);

/**
 * Where the lines of a page break into paragraphs (true after line i), reading them as a word processor
 * wrote them: a heading is a paragraph of its own; a line ending in dot leaders, or wrapped (it reaches the
 * page's text width) before a word that goes on, is joined with the next; a row of a list or table
 * stands alone; a short line followed by what can open a paragraph ends one. `width` is the widest line's
 * `visualWidth` on the page (wrapped lines reach it).
 */
export function lineBreaks(lines: string[], width: number): boolean[] {
  const rows = lines.map(isRowLine);
  return lines.map((line, i) => {
    const next = lines[i + 1];
    if (next === undefined) return false;
    if (isHeadingLine(line) || isHeadingLine(next)) return true;
    if (endsWithLeader(line) && !isRowLine(line)) return false;
    const firstWord = next.split(' ', 1)[0];
    const full = visualWidth(`${line} ${firstWord}`) > width * 0.9;
    if (continues(next) && (full || dangles(line) || !endsSentence(line))) return false;
    if (dangles(line) && (full || !rows[i])) return false;
    if (isValueOnly(next) && !rows[i] && !endsSentence(line)) return false;
    // A full line that ends no sentence goes on in a bracket that opens the next one.
    if (full && !endsSentence(line) && /^[([]/.test(next)) return false;
    // A new row opens a new paragraph, however long the line before it; so does a capital after a row
    // closed by its value.
    if (rows[i + 1]) return true;
    if (completeRow(line) && /^[\p{Lu}\p{N}]/u.test(next)) return true;
    if (full) return endsSentence(line) && rows[i];
    if (rows[i] && (rows[i - 1] === true || rows[i + 1] === true)) return true;
    // A short line followed by what can open a paragraph ends one (a heading, a short paragraph).
    return /^[\p{Lu}\p{Lt}\p{N}¿¡"'“‘«([•·\-–—*]/u.test(next) && visualWidth(`${line} ${firstWord}`) < width * 0.8;
  });
}

/**
 * A row as label and value: split at its dot leaders ("Baguette ....... £2.10"), at a colon after a short
 * label ("Sábado: de 8:00 a 14:30"), or before a trailing price or the first time ("Croissant 1,60 €",
 * "Mon-Fri 8:00-18:00"). A bullet opening the row is left out. Undefined for a line that is not a row.
 */
export function splitRow(line: string): { label: string; value: string } | undefined {
  const text = line.trim().replace(/^[-•·▪‣◦*–—]\s+/u, '');
  const leader = LEADER.exec(text);
  if (leader && leader.index > 0) {
    const value = text.slice(leader.index + leader[0].length).trim();
    if (value !== '') return { label: text.slice(0, leader.index).trim(), value };
  }
  const colon = /^([^:.!?;]{1,60}?):\s*(\S.*)$/u.exec(text);
  if (colon && !/\d{1,2}$/.test(colon[1])) return { label: colon[1].trim(), value: colon[2].trim() };
  if (text.length > 90) return undefined;
  const price = new RegExp(`(${PRICE.source})\\s*$`, 'iu').exec(text);
  if (price && price.index > 0 && price.index <= 80)
    return { label: text.slice(0, price.index).trim(), value: price[1].trim() };
  // "Mon-Fri 8:00-18:00": a short label of days before a range of times.
  const time = /\s(\d{1,2}(?:[:.h]\d{2})?\s?(?:am|pm|h)?\s*[-–a]\s*\d{1,2}(?:[:.h]\d{2})?.*)$/iu.exec(text);
  if (time && time.index > 0 && time.index <= 25)
    return { label: text.slice(0, time.index).trim(), value: time[1].trim() };
  return undefined;
}
