import { lineBreaks, visualWidth } from '@sparks/core';

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
 * Turns a page's positioned text into plain text: lines joined into paragraphs, paragraphs separated
 * by a blank line. A new paragraph starts where the vertical gap is larger than a line's, where the
 * font size changes (a heading), where the text jumps back up (a new column), or where the lines' own
 * structure says (`lineBreaks` of @sparks/core: headings, rows of lists and tables, wrapped lines).
 */
export function assemblePageText(items: PositionedText[]): string {
  const lines = collectLines(items);
  const texts = lines.map((l) => collapseSpaces(l.text).trim());
  let width = 0;
  for (const t of texts) width = Math.max(width, visualWidth(t));
  const listBreak = lineBreaks(texts, width);
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
