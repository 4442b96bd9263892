/**
 * Plain and Markdown text uploaded in a Spark's chat (.txt, .md): decoded as UTF-8 (a byte-order mark dropped), and
 * cut into parts that stand for pages as a Word document's text is. Markdown is kept as written: its headings,
 * lists and tables are lines of text already, which is what the answers quote.
 */
import { splitSentences } from '@sparks/core';

export interface TextLimits {
  maxPages: number;
  maxChars: number;
}

export type TextOutcome =
  | { ok: true; pages: string[] }
  | { ok: false; code: 'MALFORMED' | 'TOO_MANY_PAGES' | 'TOO_MUCH_TEXT'; params?: Record<string, number> };

/** About how many characters of a text (or a Word document's) make one "page". */
export const PART_CHARS = 3000;

/** Cuts a text into parts of about `size` characters at paragraph ends (a longer paragraph at sentence ends). */
export function splitIntoParts(text: string, size = PART_CHARS): string[] {
  const paragraphs = text
    .split(/\n\s*\n|\n/)
    .map((p) => p.trim())
    .filter((p) => p !== '');
  const parts: string[] = [];
  let current = '';
  const push = (piece: string) => {
    if (current && current.length + piece.length + 2 > size) {
      parts.push(current);
      current = '';
    }
    current = current ? `${current}\n\n${piece}` : piece;
  };
  for (const paragraph of paragraphs) {
    if (paragraph.length <= size) push(paragraph);
    else for (const sentence of splitSentences(paragraph)) push(sentence);
  }
  if (current) parts.push(current);
  return parts;
}

/** A text's "pages" within the limits (shared with the .docx reader). */
export function pagesOfText(text: string, limits: TextLimits): TextOutcome {
  if (text.length > limits.maxChars) return { ok: false, code: 'TOO_MUCH_TEXT', params: { max: limits.maxChars } };
  const pages = splitIntoParts(text);
  if (pages.length > limits.maxPages) {
    return { ok: false, code: 'TOO_MANY_PAGES', params: { pages: pages.length, max: limits.maxPages } };
  }
  return { ok: true, pages };
}

/** Reads an uploaded text file; bytes that are not UTF-8, or hold a NUL, are `MALFORMED`. */
export function readText(bytes: Uint8Array, limits: TextLimits): TextOutcome {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return { ok: false, code: 'MALFORMED' };
  }
  if (text.includes('\u0000')) return { ok: false, code: 'MALFORMED' };
  return pagesOfText(text.replace(/\r\n?/g, '\n'), limits);
}
