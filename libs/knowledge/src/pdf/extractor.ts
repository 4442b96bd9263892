import fs from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { ExtractLimits, ExtractOutcome } from './extract';
import type { ExtractReply, ExtractRequest } from './extract.thread';

export interface ExtractorOptions {
  limits: ExtractLimits;
  /** A file that takes longer is abandoned (its thread is terminated) and reported as TIMEOUT. */
  timeoutMs: number;
  /** Heap of each extraction thread; a file that needs more kills only its thread (TOO_COMPLEX). */
  maxMemoryMb: number;
  /**
   * Resident memory of the whole process above which a running extraction is stopped: buffers
   * outside the heap (decoded streams) are not covered by the thread's heap limit.
   */
  maxRssMb: number;
  /** A thread is replaced after this many files, so nothing a file left behind lives for long. */
  recycleAfter?: number;
  /** The compiled thread script (found next to this file by default). */
  threadFile?: string;
}

/** The extraction could not run (not the file's fault, as far as we know): worth another try. */
export class ExtractionInterrupted extends Error {}

/**
 * Waits for its turn in `line` (a slot handed over by calling the entry); stopped by `signal`, it
 * leaves the line and throws `ExtractionInterrupted`.
 */
export function waitInLine<T>(line: Array<(value: T) => void>, signal?: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const turn = (value: T) => {
      signal?.removeEventListener('abort', leave);
      resolve(value);
    };
    const leave = () => {
      const at = line.indexOf(turn);
      if (at !== -1) line.splice(at, 1);
      reject(new ExtractionInterrupted('the reading was stopped'));
    };
    line.push(turn);
    signal?.addEventListener('abort', leave, { once: true });
  });
}

function defaultThreadFile(): string {
  const compiled = path.join(__dirname, 'extract.thread.js');
  // From the TypeScript sources (tests), run the compiled thread of this package's build.
  return fs.existsSync(compiled) ? compiled : path.resolve(__dirname, '..', '..', 'dist', 'pdf', 'extract.thread.js');
}

/** One extraction thread, used for one file at a time and replaced when a file kills it. */
class ExtractorThread {
  private worker?: Worker;
  private used = 0;
  private nextId = 1;

  constructor(private readonly options: ExtractorOptions) {}

  private spawn(): Worker {
    const worker = new Worker(this.options.threadFile ?? defaultThreadFile(), {
      resourceLimits: {
        maxOldGenerationSizeMb: this.options.maxMemoryMb,
        maxYoungGenerationSizeMb: Math.min(64, Math.max(8, Math.floor(this.options.maxMemoryMb / 8))),
        stackSizeMb: 4,
      },
      stdout: true,
      stderr: true,
    });
    // pdf.js may print warnings; they are not ours to log line by line.
    worker.stdout.resume();
    worker.stderr.resume();
    worker.unref();
    worker.once('exit', () => {
      if (this.worker === worker) this.worker = undefined;
    });
    return worker;
  }

  async run(data: Uint8Array, timeoutMs: number, signal?: AbortSignal): Promise<ExtractOutcome> {
    if (!this.worker || this.used >= (this.options.recycleAfter ?? 50)) {
      await this.discard();
      this.worker = this.spawn();
      this.used = 0;
    }
    const worker = this.worker;
    this.used += 1;
    const id = this.nextId++;
    // A private copy: the caller's buffer may share its memory with others and cannot be moved.
    const copy = new Uint8Array(data.byteLength);
    copy.set(data);

    return new Promise<ExtractOutcome>((resolve, reject) => {
      let settled = false;
      const finish = (fn: () => void, kill: boolean) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        clearInterval(watchdog);
        signal?.removeEventListener('abort', onAbort);
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
        if (kill) void this.discard();
        fn();
      };
      const onMessage = (reply: ExtractReply) => {
        if (reply.id !== id) return;
        if (reply.outcome) finish(() => resolve(reply.outcome!), false);
        else finish(() => reject(new ExtractionInterrupted(reply.failure ?? 'extraction failed')), true);
      };
      const onError = (err: Error & { code?: string }) => {
        if (err.code === 'ERR_WORKER_OUT_OF_MEMORY') finish(() => resolve({ ok: false, code: 'TOO_COMPLEX' }), true);
        else finish(() => reject(new ExtractionInterrupted(err.message)), true);
      };
      const onExit = (code: number) =>
        finish(() => reject(new ExtractionInterrupted(`extraction thread exited (${code})`)), true);
      const onAbort = () => finish(() => reject(new ExtractionInterrupted('the reading was stopped')), true);
      const timer = setTimeout(() => finish(() => resolve({ ok: false, code: 'TIMEOUT' }), true), timeoutMs);
      const watchdog = setInterval(() => {
        if (process.memoryUsage.rss() > this.options.maxRssMb * 1024 * 1024) {
          finish(() => reject(new ExtractionInterrupted('the process ran short of memory')), true);
        }
      }, 200);
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
      signal?.addEventListener('abort', onAbort, { once: true });
      worker.postMessage({ id, data: copy.buffer, limits: this.options.limits } satisfies ExtractRequest, [
        copy.buffer,
      ]);
    });
  }

  async discard(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    if (worker) await worker.terminate().catch(() => undefined);
  }
}

/**
 * Reads PDFs in `size` threads at most, each with bounded heap and time, reusing warm threads
 * (loading the PDF reader costs more than reading a short file).
 */
export class PdfExtractor {
  private readonly idle: ExtractorThread[] = [];
  private readonly waiting: Array<(thread: ExtractorThread) => void> = [];
  private readonly all: ExtractorThread[] = [];

  constructor(
    private readonly options: ExtractorOptions,
    size = 1,
  ) {
    for (let i = 0; i < size; i++) {
      const thread = new ExtractorThread(options);
      this.all.push(thread);
      this.idle.push(thread);
    }
  }

  get limits(): ExtractLimits {
    return this.options.limits;
  }

  /**
   * `timeoutMs` overrides the options' for this file (what is left of a time budget); `signal` stops
   * the reading (its thread is terminated) with `ExtractionInterrupted`.
   */
  async extract(data: Uint8Array, options: { timeoutMs?: number; signal?: AbortSignal } = {}): Promise<ExtractOutcome> {
    if (options.signal?.aborted) throw new ExtractionInterrupted('the reading was stopped');
    const thread = this.idle.pop() ?? (await waitInLine(this.waiting, options.signal));
    try {
      return await thread.run(data, options.timeoutMs ?? this.options.timeoutMs, options.signal);
    } finally {
      const next = this.waiting.shift();
      if (next) next(thread);
      else this.idle.push(thread);
    }
  }

  async close(): Promise<void> {
    await Promise.all(this.all.map((t) => t.discard()));
  }
}
