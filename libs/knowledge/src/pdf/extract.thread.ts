/**
 * The extraction thread: reads PDFs sent by `PdfExtractor`, one at a time, with its own heap limit.
 * If a file makes it run out of memory or time, the thread dies and the main thread is unharmed.
 */
import { parentPort } from 'node:worker_threads';
import { extractPdfText, type ExtractLimits, type ExtractOutcome } from './extract';

export interface ExtractRequest {
  id: number;
  data: ArrayBuffer;
  limits: ExtractLimits;
}

export interface ExtractReply {
  id: number;
  outcome?: ExtractOutcome;
  /** An unexpected failure (a bug, not a bad file): the caller retries. */
  failure?: string;
}

parentPort?.on('message', (request: ExtractRequest) => {
  extractPdfText(new Uint8Array(request.data), request.limits).then(
    (outcome) => parentPort?.postMessage({ id: request.id, outcome } satisfies ExtractReply),
    (err: unknown) =>
      parentPort?.postMessage({
        id: request.id,
        failure: err instanceof Error ? err.message : String(err),
      } satisfies ExtractReply),
  );
});
