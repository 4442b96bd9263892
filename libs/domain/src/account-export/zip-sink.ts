import { strToU8, Zip, ZipDeflate, ZipPassThrough } from 'fflate';
import type { Writable } from 'node:stream';

/** Throws the failure the zip or its Writable met (set by their callbacks, so it is passed in, never narrowed). */
function rethrow(error: Error | undefined): void {
  if (error) throw error;
}

/**
 * A zip written as it is made (fflate's streaming `Zip`) into a Writable: a response being downloaded or a file.
 * Entries are added one after the other and each waits for the Writable to drain, so a large export never sits
 * in memory; text is deflated, stored files (PDFs, Word documents: already compressed) are kept as they are.
 */
export class ZipSink {
  private readonly zip: Zip;
  private failure: Error | undefined;
  private readonly finished: Promise<void>;
  private files = 0;

  constructor(private readonly out: Writable) {
    let done!: () => void;
    let fail!: (err: Error) => void;
    this.finished = new Promise<void>((resolve, reject) => {
      done = resolve;
      fail = reject;
    });
    // Nobody may be waiting yet: a failure is kept for the next call and for `end`.
    this.finished.catch(() => undefined);
    out.on('error', (err) => {
      this.failure ??= err;
      fail(err);
    });
    this.zip = new Zip((err, chunk, final) => {
      if (err) {
        this.failure ??= err;
        fail(err);
        return;
      }
      out.write(chunk);
      if (final) out.end(() => done());
    });
  }

  /** How many entries were added. */
  get count(): number {
    return this.files;
  }

  /** Adds one entry (`path` inside the zip, `/`-separated). */
  async add(
    path: string,
    content: string | Uint8Array,
    options: { stored?: boolean; mtime?: Date } = {},
  ): Promise<void> {
    rethrow(this.failure);
    const bytes = typeof content === 'string' ? strToU8(content) : content;
    const entry = options.stored ? new ZipPassThrough(path) : new ZipDeflate(path, { level: 6 });
    if (options.mtime) entry.mtime = options.mtime;
    this.zip.add(entry);
    entry.push(bytes, true);
    this.files += 1;
    if (this.out.writableNeedDrain) {
      await new Promise<void>((resolve, reject) => {
        const onDrain = () => {
          this.out.off('error', onError);
          resolve();
        };
        const onError = (err: Error) => {
          this.out.off('drain', onDrain);
          reject(err);
        };
        this.out.once('drain', onDrain);
        this.out.once('error', onError);
      });
    }
    rethrow(this.failure);
  }

  /** Adds a JSON document, indented for reading. */
  json(path: string, value: unknown): Promise<void> {
    return this.add(path, `${JSON.stringify(value, null, 2)}\n`);
  }

  /** Writes the zip's directory and waits until the Writable has taken everything. */
  async end(): Promise<void> {
    rethrow(this.failure);
    this.zip.end();
    await this.finished;
  }

  /** Gives up: the zip is never completed (the Writable is destroyed, so a download ends as failed). */
  abort(err: Error): void {
    this.failure ??= err;
    this.zip.terminate();
    this.out.destroy(err);
  }
}
