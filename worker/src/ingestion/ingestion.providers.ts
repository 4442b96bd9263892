import type { Provider } from '@nestjs/common';
import type { AppConfig } from '@sparks/core';
import { DocumentsRepository, type DbHandle } from '@sparks/db';
import { createStorage, PdfExtractor } from '@sparks/knowledge';
import { CONFIG, DB } from '../infra/tokens';
import { IngestDocumentJob } from './ingest-document.job';
import { PDF_EXTRACTOR, STORAGE } from './tokens';

const MB = 1024 * 1024;

/** The PDF reader of this worker: INGEST_CONCURRENCY threads, each with bounded heap, time and output. */
export function createPdfExtractor(c: AppConfig): PdfExtractor {
  const inflated = c.INGEST_MAX_MEMORY_MB * MB;
  return new PdfExtractor(
    {
      limits: {
        maxPages: c.INGEST_MAX_PAGES,
        maxChars: c.INGEST_MAX_CHARS,
        maxStreamBytes: Math.min(64 * MB, inflated),
        maxInflatedBytes: inflated,
      },
      timeoutMs: c.INGEST_TIMEOUT_MS,
      maxMemoryMb: c.INGEST_MAX_MEMORY_MB,
      // Room for every thread's heap and buffers, plus the process itself.
      maxRssMb: 512 + 2 * c.INGEST_CONCURRENCY * c.INGEST_MAX_MEMORY_MB,
    },
    c.INGEST_CONCURRENCY,
  );
}

export const INGESTION_PROVIDERS: Provider[] = [
  { provide: DocumentsRepository, inject: [DB], useFactory: (h: DbHandle) => new DocumentsRepository(h.db) },
  { provide: STORAGE, inject: [CONFIG], useFactory: (c: AppConfig) => createStorage(c) },
  { provide: PDF_EXTRACTOR, inject: [CONFIG], useFactory: createPdfExtractor },
  IngestDocumentJob,
];
