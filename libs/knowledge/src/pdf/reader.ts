import type { ExtractLimits, ExtractOutcome } from './extract';
import { ExtractionInterrupted, PdfExtractor, waitInLine, type ExtractorOptions } from './extractor';
import { readWithPoppler, type PopplerResult, type PopplerTools } from './poppler';
import { checkBombsAsync, checkFrame } from './precheck';

export type PdfReaderName = 'poppler' | 'pdfjs';

/** What a reader made of a file, and which reader it was (`fallback`: why poppler handed it to pdf.js). */
export type ReadOutcome = ExtractOutcome & { reader: PdfReaderName; fallback?: string };

/** Whether the outcome's pages are the ones `extract` gave to `onPage`, as they were read. */
export const streamedPages = (outcome: ReadOutcome): boolean =>
  outcome.ok && outcome.reader === 'poppler' && outcome.fallback === undefined;

export interface PdfTextReaderOptions extends ExtractorOptions {
  /** poppler's tools (see `findPoppler`); without them every file is read with pdf.js. */
  poppler?: PopplerTools;
  /** Files read at once: poppler processes, and pdf.js threads for the files poppler hands over. */
  concurrency?: number;
  /**
   * Wall-clock time poppler may have spent on a file once it has read `pages` pages, before pdf.js
   * takes over. Default: 2 s + 25 ms a page, and half of `timeoutMs` at most (poppler reads about a
   * page a millisecond, so only a file it chokes on, or a stuck process, reaches it).
   */
  popplerBudgetMs?: (pages: number) => number;
}

/**
 * The PDF reader of the ingestion: poppler's `pdftotext` in a bounded child process when it is
 * installed (several times faster), pdf.js in a bounded thread otherwise. A file poppler has any
 * complaint about (a damaged structure, an error, a crash, too slow, out of memory) is read again
 * by pdf.js, which judges it exactly as before; poppler answers alone only when it reads a file
 * cleanly or finds a password, too many pages or too much text. Either way the same checks (a PDF
 * header, a complete end, no decompression bomb) decide first, and `timeoutMs` bounds the whole
 * reading.
 */
export class PdfTextReader {
  private readonly pdfjs: PdfExtractor;
  private readonly size: number;
  private running = 0;
  private readonly waiting: Array<() => void> = [];
  private readonly closing = new AbortController();

  constructor(private readonly options: PdfTextReaderOptions) {
    this.size = Math.max(1, options.concurrency ?? 1);
    // Its threads start only when a file needs pdf.js.
    this.pdfjs = new PdfExtractor(options, this.size);
  }

  /** The reader of files poppler reads cleanly. */
  get reader(): PdfReaderName {
    return this.options.poppler ? 'poppler' : 'pdfjs';
  }

  get limits(): ExtractLimits {
    return this.options.limits;
  }

  /**
   * `onPage` gets each page as poppler reads it; those pages are the outcome's pages only when it
   * is `ok` and read by poppler with no fallback (`streamedPages`). pdf.js gives them all at the end.
   */
  async extract(
    data: Uint8Array,
    options: { onPage?: (text: string) => void; signal?: AbortSignal } = {},
  ): Promise<ReadOutcome> {
    const { signal } = options;
    const poppler = this.options.poppler;
    if (!poppler) return { ...(await this.pdfjs.extract(data, { signal })), reader: 'pdfjs' };
    const refused = checkFrame(data);
    if (refused) return { ...refused, reader: 'poppler' };

    await this.acquire(signal);
    const started = Date.now();
    let result: PopplerResult;
    try {
      // The bomb check runs alongside poppler (bounded anyway) and, when it finds one, stops it and answers.
      const bombFound = new AbortController();
      const bomb = checkBombsAsync(data, this.options.limits).then((refusal) => {
        if (refusal) bombFound.abort();
        return refusal;
      });
      const reading = readWithPoppler(poppler, data, {
        limits: this.options.limits,
        maxMemoryMb: this.options.maxMemoryMb,
        budgetMs: this.options.popplerBudgetMs ?? this.defaultBudget,
        signal: AbortSignal.any([this.closing.signal, bombFound.signal, ...(signal ? [signal] : [])]),
        onPage: options.onPage,
      }).catch((err: unknown) => ({ kind: 'unclean' as const, reason: `could not run poppler: ${String(err)}` }));
      const refusal = await bomb;
      if (refusal) {
        await reading;
        return { ...refusal, reader: 'poppler' };
      }
      result = await reading;
    } finally {
      this.release();
    }
    switch (result.kind) {
      case 'read':
        return { ok: true, pageCount: result.pages.length, pages: result.pages, reader: 'poppler' };
      case 'refused':
        return { ...result.outcome, reader: 'poppler' };
      case 'unclean': {
        if (this.closing.signal.aborted) throw new ExtractionInterrupted('the PDF reader was closed');
        if (signal?.aborted) throw new ExtractionInterrupted('the reading was stopped');
        const timeoutMs = this.options.timeoutMs - (Date.now() - started);
        const outcome: ExtractOutcome =
          timeoutMs > 0 ? await this.pdfjs.extract(data, { timeoutMs, signal }) : { ok: false, code: 'TIMEOUT' };
        return { ...outcome, reader: 'pdfjs', fallback: result.reason };
      }
    }
  }

  private readonly defaultBudget = (pages: number): number => Math.min(this.options.timeoutMs / 2, 2000 + 25 * pages);

  private async acquire(signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) throw new ExtractionInterrupted('the reading was stopped');
    if (this.running < this.size) {
      this.running += 1;
      return;
    }
    await waitInLine(this.waiting, signal);
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.running -= 1;
  }

  async close(): Promise<void> {
    this.closing.abort();
    await this.pdfjs.close();
  }
}
