import { isHeadingLine, readFacts, splitSentences, type BusinessFact } from '@sparks/core';

/** Splits a sentence too long to keep whole (a table row, a list without punctuation) at the best place. */
function splitOversized(sentence: string, max: number): string[] {
  const parts: string[] = [];
  let rest = sentence;
  while (rest.length > max) {
    const window = rest.slice(0, max);
    // Prefer a clause break, then any white space, in the second half of the window.
    let cut = Math.max(window.lastIndexOf('; '), window.lastIndexOf(': '), window.lastIndexOf(', '));
    if (cut < max / 2) cut = window.lastIndexOf(' ');
    if (cut < max / 2) cut = max - 1;
    parts.push(rest.slice(0, cut + 1).trim());
    rest = rest.slice(cut + 1).trimStart();
  }
  if (rest.trim() !== '') parts.push(rest.trim());
  return parts;
}

export interface ChunkOptions {
  /** A chunk closes once adding the next sentence would pass this many characters. */
  target: number;
  /** A single sentence longer than this (no real sentence is) is split at clause breaks or spaces. */
  maxSentence: number;
}

export const DEFAULT_CHUNK_OPTIONS: ChunkOptions = { target: 900, maxSentence: 2000 };

export interface Chunk {
  page: number;
  content: string;
  /** The business facts of its lines (hours, prices, contacts, payment), when it has any. */
  facts?: BusinessFact[];
}

/**
 * Cuts a page's text into passages of whole sentences, each tagged with the page it comes from.
 * Paragraphs (separated by a blank line) stay apart inside a chunk, one per line. A heading (a line in
 * capitals) opens a new chunk, and a section too long for one chunk repeats its heading at the top of
 * the next, so that every row or sentence is read under its heading. `heading` is the one the previous
 * page ended under: the page's first chunk is read under it when the page opens with none.
 */
export function chunkPage(
  page: number,
  text: string,
  options: ChunkOptions = DEFAULT_CHUNK_OPTIONS,
  heading?: string,
): Chunk[] {
  const chunks: Chunk[] = [];
  /** The headings the lines that follow sit under (consecutive headings together). */
  let section: string[] = heading ? [heading] : [];
  /** The chunk being filled: its headings, then its finished paragraphs, then the paragraph being built. */
  let paragraphs: string[] = [];
  let current = '';
  let size = 0;
  const open = () => {
    paragraphs = [];
    current = '';
    size = section.reduce((n, h) => n + h.length + 1, 0);
  };
  const flush = () => {
    if (current !== '') paragraphs.push(current);
    if (paragraphs.length > 0) {
      const content = [...section, ...paragraphs].join('\n');
      const facts = readFacts(content);
      chunks.push(facts.length > 0 ? { page, content, facts } : { page, content });
    }
    open();
  };
  open();
  for (const raw of text.split(/\n\s*\n/)) {
    const paragraph = raw.replace(/\s+/g, ' ').trim();
    if (paragraph === '') continue;
    if (current !== '') {
      paragraphs.push(current);
      current = '';
    }
    if (isHeadingLine(paragraph)) {
      // A heading after text opens a new chunk; right after another heading, it goes beside it.
      if (paragraphs.length > 0) {
        flush();
        section = [];
      } else if (section.length > 0 && section[0] === heading && chunks.length === 0 && section.length === 1) {
        section = []; // the previous page's heading gives way to the page's own
      }
      section.push(paragraph);
      open();
      continue;
    }
    for (const sentence of splitSentences(paragraph)) {
      const pieces = sentence.length > options.maxSentence ? splitOversized(sentence, options.maxSentence) : [sentence];
      for (const piece of pieces) {
        if ((paragraphs.length > 0 || current !== '') && size + 1 + piece.length > options.target) flush();
        current = current === '' ? piece : `${current} ${piece}`;
        size += piece.length + 1;
      }
    }
  }
  flush();
  return chunks;
}

/** The headings the last line of `text` sits under (lines in capitals), if any: carried to the next page. */
export function lastHeading(text: string, previous?: string): string | undefined {
  let heading = previous;
  let afterHeading = false;
  for (const raw of text.split(/\n\s*\n/)) {
    const paragraph = raw.replace(/\s+/g, ' ').trim();
    if (paragraph === '') continue;
    if (isHeadingLine(paragraph)) {
      heading = afterHeading && heading ? `${heading}\n${paragraph}` : paragraph;
      afterHeading = true;
    } else afterHeading = false;
  }
  return heading;
}

/** Chunks every page of a document, in reading order. Pages are numbered from 1. */
export function chunkDocument(pages: string[], options: ChunkOptions = DEFAULT_CHUNK_OPTIONS): Chunk[] {
  let heading: string | undefined;
  return pages.flatMap((text, i) => {
    const chunks = chunkPage(i + 1, text, options, heading);
    heading = lastHeading(text, heading);
    return chunks;
  });
}
