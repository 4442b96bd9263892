import { chunkDocument, DEFAULT_CHUNK_OPTIONS, type Chunk, type ChunkOptions } from './chunking';
import { detectLanguage, textSearchConfig, type DocumentLanguage } from './language';

const NOT_LETTERS = /\P{L}+/gu;
const HIGH_SURROGATE = /[\ud800-\udbff]/g;
/** A page with fewer letters than this is flagged: often a table, a chart or a scan with a caption. */
export const LITTLE_TEXT_LETTERS = 40;

/** Letters (code points of category L) in a text; a letter outside the BMP counts once. */
export function countLetters(text: string): number {
  const letters = text.replace(NOT_LETTERS, '');
  return letters.length - (letters.match(HIGH_SURROGATE)?.length ?? 0);
}

export interface ReadDocument {
  chunks: Chunk[];
  language: DocumentLanguage;
  config: 'spanish' | 'english';
  pages: number;
  chars: number;
  /** Pages (from 1) with no letters at all: scanned images, blank pages. */
  emptyPages: number[];
}

/**
 * What a Spark keeps of a document's pages: passages of whole sentences tagged with their page,
 * and the language to index them in. Undefined when no page has any text (a scanned document).
 * `fallbackLanguage` is used when the text does not tell (tables of figures, a few words).
 */
export function readDocument(
  pages: string[],
  fallbackLanguage: DocumentLanguage,
  options: ChunkOptions = DEFAULT_CHUNK_OPTIONS,
): ReadDocument | undefined {
  const emptyPages: number[] = [];
  let chars = 0;
  let letters = 0;
  const kept = pages.map((text, i) => {
    const n = countLetters(text);
    chars += text.length;
    letters += n;
    if (n === 0) emptyPages.push(i + 1);
    return n === 0 ? '' : text; // a page number alone on a scanned page is not worth indexing
  });
  if (letters === 0) return undefined;
  const language = detectLanguage(kept.join('\n')) ?? fallbackLanguage;
  return {
    chunks: chunkDocument(kept, options),
    language,
    config: textSearchConfig(language),
    pages: pages.length,
    chars,
    emptyPages,
  };
}
