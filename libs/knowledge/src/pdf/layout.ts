/** A run of text as a PDF text extractor positions it (pdf.js `TextItem`, flattened). */
export interface PositionedText {
  str: string;
  x: number;
  y: number;
  width: number;
  height: number;
  hasEOL: boolean;
}

interface Line {
  text: string;
  y: number;
  height: number;
  xEnd: number;
}

/** White space inside a line, as PDF text extractors give it (tabs, no-break and typographic spaces). */
export const SPACES = /[ \t\u00a0\u2000-\u200b\u3000]+/g;
/** Whether `SPACES` would change a text: most lines have single plain spaces only, and skip the work. */
const ODD_SPACES = /[\t\u00a0\u2000-\u200b\u3000]| {2}/;

/** Every run of white space as one plain space. */
export const collapseSpaces = (text: string) => (ODD_SPACES.test(text) ? text.replace(SPACES, ' ') : text);

function collectLines(items: PositionedText[]): Line[] {
  const lines: Line[] = [];
  let current: Line | undefined;
  const finish = () => {
    if (current && current.text.trim() !== '') lines.push(current);
    current = undefined;
  };
  for (const item of items) {
    if (item.str === '') {
      if (item.hasEOL) finish();
      continue;
    }
    const height = Math.abs(item.height) || 1;
    if (current && Math.abs(item.y - current.y) > Math.max(current.height, height) * 0.5) finish();
    if (!current) {
      current = { text: item.str, y: item.y, height, xEnd: item.x + item.width };
    } else {
      const gap = item.x - current.xEnd;
      const needsSpace = gap > height * 0.15 && !/\s$/.test(current.text) && !/^\s/.test(item.str);
      current.text += (needsSpace ? ' ' : '') + item.str;
      current.xEnd = item.x + item.width;
      current.height = Math.max(current.height, height);
    }
    if (item.hasEOL) finish();
  }
  finish();
  return lines;
}

/** Joins the lines of a paragraph, mending words hyphenated across a line break ("conoci-" + "miento"). */
export function joinLines(lines: string[]): string {
  let out = '';
  for (const raw of lines) {
    const line = collapseSpaces(raw).trim();
    if (out === '') out = line;
    else if (/\p{L}-$/u.test(out) && /^\p{Ll}/u.test(line)) out = out.slice(0, -1) + line;
    else out += ' ' + line;
  }
  return out;
}

/**
 * An item of a list or a row of a table as a line of a page: a bullet or a number opening it, a label
 * and its value ("Saturday: 8:00 to 15:00", "Sunday: closed"), or a price or a time closing it
 * ("Croissant 1.60 €", "Lunch 13.30"). Short: a line of prose is longer.
 */
export function isListLine(line: string): boolean {
  const text = line.trim();
  if (text.length === 0 || text.length > 80) return false;
  if (/^([•·▪‣◦*–—-]|\d{1,2}[.)]|\p{Ll}\))\s/u.test(text)) return true;
  if (/^[^:.!?;]{1,40}:\s*\S/u.test(text) && !/[,;-]$/.test(text)) return true;
  return /(\d+(?:[.,]\d+)?\s*(?:€|\$|£|eur|euros?|usd)|[€$£]\s*\d+(?:[.,]\d+)?|\b\d{1,2}[:.h]\d{2}(?:\s*(?:h|am|pm))?)$/iu.test(
    text,
  );
}

/**
 * Where the lines of a block break into paragraphs of their own: between two lines of a run of list or
 * table lines (two or more `isListLine` in a row), and before and after such a run. A price list, a
 * table of opening hours keep one item a line instead of becoming one block of text.
 */
export function listBreaks(lines: string[]): boolean[] {
  const list = lines.map(isListLine);
  const inRun = list.map((l, i) => l && (list[i - 1] === true || list[i + 1] === true));
  return lines.map((_l, i) => i + 1 < lines.length && (inRun[i] || inRun[i + 1]));
}

/**
 * Turns a page's positioned text into plain text: lines joined into paragraphs, paragraphs separated
 * by a blank line. A new paragraph starts where the vertical gap is larger than a line's, where the
 * font size changes (a heading), where the text jumps back up (a new column), or at every line of a
 * list or a table (`listBreaks`).
 */
export function assemblePageText(items: PositionedText[]): string {
  const lines = collectLines(items);
  const listBreak = listBreaks(lines.map((l) => collapseSpaces(l.text)));
  const paragraphs: string[] = [];
  let paragraph: string[] = [];
  let previous: Line | undefined;
  for (const [i, line] of lines.entries()) {
    if (previous) {
      const lineHeight = Math.max(previous.height, line.height, 1);
      const gap = previous.y - line.y;
      const breaks =
        gap > lineHeight * 1.6 ||
        gap < -lineHeight * 0.5 ||
        Math.abs(line.height - previous.height) > lineHeight * 0.25 ||
        listBreak[i - 1];
      if (breaks && paragraph.length > 0) {
        paragraphs.push(joinLines(paragraph));
        paragraph = [];
      }
    }
    paragraph.push(line.text);
    previous = line;
  }
  if (paragraph.length > 0) paragraphs.push(joinLines(paragraph));
  return paragraphs
    .filter((p) => p !== '')
    .join('\n\n')
    .normalize('NFC');
}
