import { collapseSpaces, joinLines, listBreaks } from './layout';

/** Ligature characters (ﬀ ﬁ ﬂ ﬃ ﬄ ﬅ ﬆ): searched and quoted as the letters they stand for. */
const LIGATURES = /[\ufb00-\ufb06]/g;
const HAS_LIGATURE = /[\ufb00-\ufb06]/;
/** pdftotext's blank line between text blocks (white space already collapsed). */
const BLANK_LINE = /\n *\n/;
/** What may open a paragraph: a capital, a digit, Spanish opening marks, quotes, brackets, bullets. */
const PARAGRAPH_START = /^[\p{Lu}\p{Lt}\p{N}¿¡"'“‘«([•·\-–—*]/u;
/**
 * A line shorter than this share of the widest line of its block, counting the next line's first
 * word, was broken on purpose (a heading, the end of a paragraph): the next word would have fitted.
 */
const SHORT_LINE = 0.8;

function endsParagraph(line: string, next: string, width: number): boolean {
  if (!PARAGRAPH_START.test(next)) return false;
  const firstWord = next.split(' ', 1)[0];
  return line.length + 1 + firstWord.length < width * SHORT_LINE;
}

/**
 * Turns one page of `pdftotext` output (reading order, one text line per line, a blank line between
 * text blocks) into the page text the rest of the pipeline expects, the same shape as the pdf.js
 * reader's: paragraphs separated by a blank line, their lines joined with single spaces, words
 * hyphenated across lines mended, ligatures spelled out, Unicode composed (NFC).
 *
 * pdftotext does not mark paragraphs inside a block; a line that ends well before the block's
 * widest line and is followed by what can start a paragraph ends one (headings, short paragraphs), and
 * the lines of a list or a table stay one a paragraph (`listBreaks`: hours, prices).
 */
export function popplerPageText(raw: string): string {
  let text = collapseSpaces(raw);
  if (HAS_LIGATURE.test(text)) text = text.replace(LIGATURES, (c) => c.normalize('NFKC'));
  const paragraphs: string[] = [];
  for (const block of text.split(BLANK_LINE)) {
    const lines: string[] = [];
    for (const line of block.split('\n')) {
      const trimmed = line.trim();
      if (trimmed !== '') lines.push(trimmed);
    }
    let width = 0;
    for (const line of lines) width = Math.max(width, line.length);
    const listBreak = listBreaks(lines);
    let start = 0;
    for (let i = 0; i < lines.length; i++) {
      const next = lines[i + 1];
      if (next === undefined || listBreak[i] || endsParagraph(lines[i], next, width)) {
        paragraphs.push(joinLines(lines.slice(start, i + 1)));
        start = i + 1;
      }
    }
  }
  return paragraphs.join('\n\n').normalize('NFC');
}

export type PopplerComplaint = { kind: 'password' } | { kind: 'error'; line: string };

/** Messages that say nothing about the file's content (a missing display font, a tolerated quirk). */
const HARMLESS = /^(Syntax Warning|Config Error)\b/;

/**
 * What poppler's messages on stderr say about a file: that it needs a password, that something in
 * it is wrong (any error, however poppler recovered from it: a page may then be missing or out of
 * place), or nothing (undefined).
 */
export function popplerComplaint(stderr: string): PopplerComplaint | undefined {
  let first: string | undefined;
  for (const raw of stderr.split('\n')) {
    const line = raw.trim();
    if (line === '' || HARMLESS.test(line)) continue;
    if (/^Command Line Error: Incorrect password\b/.test(line)) return { kind: 'password' };
    first ??= line;
  }
  return first === undefined ? undefined : { kind: 'error', line: first };
}

/** The page count in `pdfinfo` output. */
export function pdfinfoPages(stdout: string): number | undefined {
  const match = /^Pages:\s+(\d+)\s*$/m.exec(stdout);
  return match ? Number(match[1]) : undefined;
}
