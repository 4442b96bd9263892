/**
 * Words that end with a period without ending a sentence, in Spanish and English (lower case,
 * without the period). "Sr. Muñoz", "p. ej.", "e.g. this", "No. 5".
 */
const ABBREVIATIONS = new Set([
  // es
  'sr',
  'sra',
  'srta',
  'sres',
  'dr',
  'dra',
  'd',
  'dña',
  'ud',
  'uds',
  'vd',
  'vds',
  'lic',
  'ing',
  'arq',
  'prof',
  'av',
  'avda',
  'c',
  'pág',
  'págs',
  'núm',
  'n',
  'nº',
  'tel',
  'telf',
  'aprox',
  'etc',
  'ej',
  'p',
  'pp',
  'vol',
  'cap',
  'art',
  'dpto',
  'depto',
  'admón',
  'cía',
  's.a',
  's.l',
  'ee.uu',
  'ss',
  'vs',
  'atte',
  'máx',
  'mín',
  // en
  'mr',
  'mrs',
  'ms',
  'st',
  'jr',
  'sr',
  'inc',
  'ltd',
  'co',
  'corp',
  'no',
  'fig',
  'figs',
  'e.g',
  'i.e',
  'approx',
  'dept',
  'est',
  'min',
  'max',
  'mt',
  'ft',
  'jan',
  'feb',
  'apr',
  'jun',
  'jul',
  'aug',
  'sep',
  'sept',
  'oct',
  'nov',
  'dec',
  'u.s',
  'a.m',
  'p.m',
  'ph.d',
  'cf',
  'al',
]);

/** Candidate sentence ends: terminal punctuation, closing quotes or brackets, then white space. */
const BOUNDARY = /[.!?…]+["'”’»)\]]*\s+/gu;
/** What may start a sentence: a capital, a digit, Spanish opening marks, quotes, brackets, bullets. */
const SENTENCE_START = /^[\p{Lu}\p{Lt}\p{N}¿¡"'“‘«([•·\-–—*]/u;

function endsWithAbbreviation(before: string): boolean {
  const match = /(?:^|[\s(¿¡"'“‘«])([\p{L}][\p{L}.º]*)$/u.exec(before);
  if (!match) return false;
  const word = match[1].toLowerCase();
  // A lone letter before a period is an initial ("J. R. Jiménez") or a list marker ("a. …").
  if (/^\p{L}$/u.test(word)) return true;
  return ABBREVIATIONS.has(word);
}

/**
 * Splits a paragraph into sentences. A period ends a sentence only when what follows can start
 * one and what precedes is not a known abbreviation or an initial; numbers ("3.5", "9:00") never split.
 */
export function splitSentences(paragraph: string): string[] {
  const text = paragraph.trim();
  if (text === '') return [];
  const sentences: string[] = [];
  let start = 0;
  BOUNDARY.lastIndex = 0;
  for (let m = BOUNDARY.exec(text); m; m = BOUNDARY.exec(text)) {
    const end = m.index + m[0].length;
    const next = text.slice(end);
    if (!SENTENCE_START.test(next)) continue;
    // Only a bare period can belong to an abbreviation; "?", "!", "..." and a closing quote end the sentence.
    if (m[0].trim() === '.' && endsWithAbbreviation(text.slice(start, m.index))) continue;
    sentences.push(text.slice(start, end).trim());
    start = end;
  }
  const rest = text.slice(start).trim();
  if (rest !== '') sentences.push(rest);
  return sentences;
}

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
