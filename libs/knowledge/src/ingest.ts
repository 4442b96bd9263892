import type { TextSearchConfig } from '@sparks/core';
import { streamedPages, type PdfTextReader, type ReadOutcome } from './pdf/reader';
import type { Chunk } from './text/chunking';
import { DocumentReader, readDocument, type ReadDocument } from './text/document';
import { textSearchConfig, type DocumentLanguage } from './text/language';

export interface PdfDocumentRead {
  outcome: ReadOutcome;
  /** What the Spark keeps of it; undefined when the file could not be read or has no text. */
  read?: ReadDocument;
  /**
   * True when every passage of `read` went to `onChunks`, in order (most of them while the pages
   * were read). False when `onChunks` got passages that must be forgotten (the file was then read
   * again by pdf.js, or refused) or got none: `read.chunks` is then the whole answer.
   */
  streamed: boolean;
}

/**
 * Reads a PDF into the passages a Spark keeps. With `onChunks`, the passages of the pages read so
 * far are handed out while the rest of the file is still being read (once the language is settled,
 * so that they can be indexed at once), and the last ones when the reading ends: whoever indexes
 * them works alongside the reader instead of after it. `signal` stops the reading
 * (`ExtractionInterrupted`).
 */
export async function readPdfDocument(
  reader: PdfTextReader,
  data: Uint8Array,
  fallbackLanguage: DocumentLanguage,
  onChunks?: (chunks: Chunk[], config: TextSearchConfig) => void,
  signal?: AbortSignal,
): Promise<PdfDocumentRead> {
  const doc = new DocumentReader(fallbackLanguage);
  const onPage = onChunks
    ? (text: string) => {
        doc.add(text);
        const language = doc.settledLanguage;
        if (!language) return;
        const chunks = doc.takeChunks();
        if (chunks.length > 0) onChunks(chunks, textSearchConfig(language));
      }
    : undefined;
  const outcome = await reader.extract(data, { onPage, signal });
  if (!outcome.ok) return { outcome, streamed: false };
  // Not read page by page (pdf.js, or poppler gave up and pdf.js read it again): from its pages.
  if (!onChunks || !streamedPages(outcome)) {
    return { outcome, read: readDocument(outcome.pages, fallbackLanguage), streamed: false };
  }
  // `doc` holds every page: what it has not handed out yet goes now.
  const rest = doc.takeChunks();
  const read = doc.finish();
  if (!read) return { outcome, streamed: false }; // no letters, so nothing was handed out
  if (rest.length > 0) onChunks(rest, read.config);
  return { outcome, read, streamed: true };
}

/**
 * Options of every `document.ingest` job, the api's and the sweep's: retries for failures that may
 * pass (storage or database briefly away); bad files fail once.
 */
export const INGEST_JOB_OPTIONS = { attempts: 3, backoff: { type: 'exponential', delay: 2000 } };
