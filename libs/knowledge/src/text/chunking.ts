import { splitSentences } from '@sparks/core';

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
}

/**
 * Cuts a page's text into passages of whole sentences, each tagged with the page it comes from.
 * Paragraphs (separated by a blank line) stay apart inside a chunk, one per line.
 */
export function chunkPage(page: number, text: string, options: ChunkOptions = DEFAULT_CHUNK_OPTIONS): Chunk[] {
  const chunks: Chunk[] = [];
  let paragraphs: string[] = [];
  let current = '';
  let size = 0;
  const flush = () => {
    const body = [...paragraphs, current].filter((p) => p !== '').join('\n');
    if (body.trim() !== '') chunks.push({ page, content: body });
    paragraphs = [];
    current = '';
    size = 0;
  };
  for (const paragraph of text.split(/\n\s*\n/)) {
    if (current !== '') {
      paragraphs.push(current);
      current = '';
    }
    for (const sentence of splitSentences(paragraph.replace(/\s+/g, ' '))) {
      const pieces = sentence.length > options.maxSentence ? splitOversized(sentence, options.maxSentence) : [sentence];
      for (const piece of pieces) {
        if (size > 0 && size + 1 + piece.length > options.target) flush();
        current = current === '' ? piece : `${current} ${piece}`;
        size += piece.length + 1;
      }
    }
  }
  flush();
  return chunks;
}

/** Chunks every page of a document, in reading order. Pages are numbered from 1. */
export function chunkDocument(pages: string[], options: ChunkOptions = DEFAULT_CHUNK_OPTIONS): Chunk[] {
  return pages.flatMap((text, i) => chunkPage(i + 1, text, options));
}
