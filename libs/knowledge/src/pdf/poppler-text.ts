import { lineBreaks, visualWidth } from '@sparks/core';
import { collapseSpaces, joinLines } from './layout';

/** Ligature characters (ﬀ ﬁ ﬂ ﬃ ﬄ ﬅ ﬆ): searched and quoted as the letters they stand for. */
const LIGATURES = /[\ufb00-\ufb06]/g;
const HAS_LIGATURE = /[\ufb00-\ufb06]/;
/** pdftotext's blank line between text blocks (white space already collapsed). */
const BLANK_LINE = /\n *\n/;
/**
 * Turns one page of `pdftotext` output (reading order, one text line per line, a blank line between
 * text blocks) into the page text the rest of the pipeline expects, the same shape as the pdf.js
 * reader's: paragraphs separated by a blank line, their lines joined with single spaces, words
 * hyphenated across lines mended, ligatures spelled out, Unicode composed (NFC).
 *
 * pdftotext does not mark paragraphs inside a block: `lineBreaks` reads them from the lines as a word
 * processor wrote them (headings apart, rows of lists and tables one a paragraph, wrapped lines and
 * values wrapped after dot leaders joined back), against the page's widest line.
 */
export function popplerPageText(raw: string): string {
  let text = collapseSpaces(raw);
  if (HAS_LIGATURE.test(text)) text = text.replace(LIGATURES, (c) => c.normalize('NFKC'));
  const blocks = text.split(BLANK_LINE).map((block) =>
    block
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== ''),
  );
  let width = 0;
  for (const lines of blocks) for (const line of lines) width = Math.max(width, visualWidth(line));
  const paragraphs: string[] = [];
  for (const lines of blocks) {
    const breaks = lineBreaks(lines, width);
    let start = 0;
    for (let i = 0; i < lines.length; i++) {
      if (i + 1 === lines.length || breaks[i]) {
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
