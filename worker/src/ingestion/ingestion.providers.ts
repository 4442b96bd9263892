import { Logger, type Provider } from '@nestjs/common';
import type { AppConfig } from '@sparks/core';
import { choosePoppler, pdfReaderSettings, PdfTextReader } from '@sparks/knowledge';
import { CONFIG, REDIS } from '@sparks/nest';
import { JobProducer } from '@sparks/queues';
import type { Redis } from 'ioredis';
import { IngestDocumentJob } from './ingest-document.job';
import { IngestionSweep } from './ingestion-sweep.service';
import { INGEST_PRODUCER, PDF_EXTRACTOR } from './tokens';

const MB = 1024 * 1024;

/**
 * The PDF reader of this worker: INGEST_CONCURRENCY files at once, each read by poppler's pdftotext
 * in a bounded process (or by pdf.js in a bounded thread, see INGEST_PDF_READER), with bounded
 * memory, time and output. A wrong INGEST_PDF_READER or PDFTOTEXT_PATH stops the worker at boot.
 */
function createPdfReader(c: AppConfig, env: NodeJS.ProcessEnv = process.env): PdfTextReader {
  const inflated = c.INGEST_MAX_MEMORY_MB * MB;
  const choice = choosePoppler(pdfReaderSettings(env));
  new Logger('Ingestion').log(choice.note);
  return new PdfTextReader({
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
    poppler: choice.tools,
    concurrency: c.INGEST_CONCURRENCY,
  });
}

export const INGESTION_PROVIDERS: Provider[] = [
  { provide: PDF_EXTRACTOR, inject: [CONFIG], useFactory: (c: AppConfig) => createPdfReader(c) },
  {
    provide: INGEST_PRODUCER,
    inject: [REDIS, CONFIG],
    useFactory: (redis: Redis, c: AppConfig) => {
      const logger = new Logger(JobProducer.name);
      return new JobProducer(redis, c.QUEUE_PREFIX, (queue, err) => logger.warn(`${queue}: ${err.message}`));
    },
  },
  IngestDocumentJob,
  IngestionSweep,
];
