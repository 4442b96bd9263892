import type { TextSearchConfig } from '@sparks/core';
import { chunkPage, DEFAULT_CHUNK_OPTIONS, lastHeading, type Chunk, type ChunkOptions } from './chunking';
import { detectLanguage, LANGUAGE_SAMPLE, textSearchConfig, type DocumentLanguage } from './language';

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
  config: TextSearchConfig;
  pages: number;
  chars: number;
  /** Pages (from 1) with no letters at all: scanned images, blank pages. */
  emptyPages: number[];
}

/**
 * What a Spark keeps of a document's pages, read one page at a time: passages of whole sentences
 * tagged with their page, and the language to index them in. The language is settled as soon as
 * the first 20,000 characters are in (`detectLanguage` reads no further), so the passages of the
 * pages read so far can be indexed while the rest is still being read.
 * `fallbackLanguage` is used when the text does not tell (tables of figures, a few words).
 */
export class DocumentReader {
  private readonly kept: string[] = [];
  private readonly emptyPages: number[] = [];
  private chars = 0;
  private letters = 0;
  /** The first characters of the kept pages joined by new lines, as long as the language needs. */
  private sample = '';
  private language: DocumentLanguage | undefined;
  /** Pages whose passages `takeChunks` has handed out, and those passages. */
  private taken = 0;
  private readonly chunks: Chunk[] = [];
  /** The heading the last page read ended under, carried to the next page's first passage. */
  private heading: string | undefined;

  constructor(
    private readonly fallbackLanguage: DocumentLanguage,
    private readonly options: ChunkOptions = DEFAULT_CHUNK_OPTIONS,
  ) {}

  add(text: string): void {
    const n = countLetters(text);
    this.chars += text.length;
    this.letters += n;
    if (n === 0) this.emptyPages.push(this.kept.length + 1);
    const kept = n === 0 ? '' : text; // a page number alone on a scanned page is not worth indexing
    if (this.sample.length < LANGUAGE_SAMPLE) this.sample += (this.kept.length > 0 ? '\n' : '') + kept;
    this.kept.push(kept);
    if (!this.language && this.letters > 0 && this.sample.length >= LANGUAGE_SAMPLE) {
      this.language = this.languageOf(this.sample);
    }
  }

  /** The language, once the pages read so far decide it for good; undefined until then. */
  get settledLanguage(): DocumentLanguage | undefined {
    return this.language;
  }

  /** The passages of the pages added since the last call, in reading order. */
  takeChunks(): Chunk[] {
    const chunks = this.kept.slice(this.taken).flatMap((text, i) => {
      const page = chunkPage(this.taken + i + 1, text, this.options, this.heading);
      this.heading = lastHeading(text, this.heading);
      return page;
    });
    this.taken = this.kept.length;
    this.chunks.push(...chunks);
    return chunks;
  }

  /** The whole document (every passage, whether taken or not); undefined when no page has any letter. */
  finish(): ReadDocument | undefined {
    if (this.letters === 0) return undefined;
    this.takeChunks();
    const language = this.language ?? this.languageOf(this.sample);
    return {
      chunks: [...this.chunks],
      language,
      config: textSearchConfig(language),
      pages: this.kept.length,
      chars: this.chars,
      emptyPages: [...this.emptyPages],
    };
  }

  private languageOf(sample: string): DocumentLanguage {
    return detectLanguage(sample) ?? this.fallbackLanguage;
  }
}

/** `DocumentReader` over pages read already. Undefined when no page has any text (a scanned document). */
export function readDocument(
  pages: string[],
  fallbackLanguage: DocumentLanguage,
  options: ChunkOptions = DEFAULT_CHUNK_OPTIONS,
): ReadDocument | undefined {
  const reader = new DocumentReader(fallbackLanguage, options);
  for (const page of pages) reader.add(page);
  return reader.finish();
}
