import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import type { ExtractLimits } from './extract';
import { pdfinfoPages, popplerComplaint, popplerPageText, type PopplerComplaint } from './poppler-text';
import type { ExtractRefusal } from './precheck';

/** The programs used to read PDFs with poppler (Debian: poppler-utils and util-linux), by absolute path. */
export interface PopplerTools {
  pdftotext: string;
  pdfinfo: string;
  /** Runs each of them with fixed limits on memory and CPU time. */
  prlimit: string;
}

export type PdfReaderMode = 'auto' | 'poppler' | 'pdfjs';

export interface PdfReaderSettings {
  /** `auto`: poppler when its tools are found, pdf.js otherwise; `poppler`: poppler or refuse to start. */
  mode: PdfReaderMode;
  /** The pdftotext to use (pdfinfo is taken from the same folder); by default the one on PATH. */
  pdftotextPath?: string;
}

const MODES: readonly PdfReaderMode[] = ['auto', 'poppler', 'pdfjs'];

/** `INGEST_PDF_READER` and `PDFTOTEXT_PATH`, checked: a wrong value stops the process, naming the setting. */
export function pdfReaderSettings(env: NodeJS.ProcessEnv): PdfReaderSettings {
  const mode = (env.INGEST_PDF_READER ?? '').trim() || 'auto';
  if (!(MODES as readonly string[]).includes(mode)) {
    throw new Error(`INGEST_PDF_READER must be one of ${MODES.join(', ')} (got "${mode}")`);
  }
  const pdftotextPath = (env.PDFTOTEXT_PATH ?? '').trim() || undefined;
  if (pdftotextPath !== undefined && !path.isAbsolute(pdftotextPath)) {
    throw new Error(`PDFTOTEXT_PATH must be an absolute path (got "${pdftotextPath}")`);
  }
  return { mode: mode as PdfReaderMode, pdftotextPath };
}

function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/** A program on the search path, by absolute path (no shell is asked). */
export function findExecutable(name: string, searchPath = process.env.PATH ?? ''): string | undefined {
  for (const dir of searchPath.split(path.delimiter)) {
    if (dir === '' || !path.isAbsolute(dir)) continue;
    const candidate = path.join(dir, name);
    if (isExecutable(candidate)) return candidate;
  }
  return undefined;
}

export type PopplerLookup = { tools: PopplerTools } | { tools?: undefined; missing: string };

/** poppler's pdftotext and pdfinfo (side by side) and prlimit, or what is missing. */
export function findPoppler(pdftotextPath?: string, searchPath = process.env.PATH ?? ''): PopplerLookup {
  const pdftotext = pdftotextPath ?? findExecutable('pdftotext', searchPath);
  if (!pdftotext || !isExecutable(pdftotext)) return { missing: pdftotextPath ?? 'pdftotext (poppler-utils)' };
  const pdfinfo = path.join(path.dirname(pdftotext), 'pdfinfo');
  if (!isExecutable(pdfinfo)) return { missing: pdfinfo };
  // Without prlimit the memory of a poppler process could not be bounded: pdf.js is used instead.
  const prlimit = findExecutable('prlimit', searchPath);
  if (!prlimit) return { missing: 'prlimit (util-linux)' };
  return { tools: { pdftotext, pdfinfo, prlimit } };
}

/** Which reader the settings lead to on this machine, and why, for the boot log. */
export function choosePoppler(
  settings: PdfReaderSettings,
  find: (pdftotextPath?: string) => PopplerLookup = findPoppler,
): { tools?: PopplerTools; note: string } {
  if (settings.mode === 'pdfjs') return { note: 'PDFs are read with pdf.js (INGEST_PDF_READER=pdfjs)' };
  const found = find(settings.pdftotextPath);
  if (found.tools)
    return { tools: found.tools, note: `PDFs are read with ${found.tools.pdftotext}, pdf.js as fallback` };
  if (settings.mode === 'poppler') {
    throw new Error(
      `INGEST_PDF_READER=poppler, but ${found.missing} was not found (Debian: apt-get install poppler-utils)`,
    );
  }
  return { note: `PDFs are read with pdf.js: ${found.missing} was not found (apt-get install poppler-utils)` };
}

export type PopplerResult =
  | { kind: 'read'; pages: string[] }
  /** A clean answer that the file cannot be read, with the same reason pdf.js would give. */
  | { kind: 'refused'; outcome: ExtractRefusal }
  /** poppler gave no clean answer (an error, a crash, too slow, too much memory): pdf.js should judge. */
  | { kind: 'unclean'; reason: string };

export interface PopplerRunOptions {
  limits: ExtractLimits;
  /** Address space of each poppler process, in MB (`prlimit --as`). */
  maxMemoryMb: number;
  /** Wall-clock time poppler may have spent once it has read `pages` pages (it grows with them). */
  budgetMs: (pages: number) => number;
  /** Stops the processes (the reader is closing). */
  signal?: AbortSignal;
  /**
   * Each page's text as soon as it is read. They are the pages of the answer only if it is `read`;
   * whatever else it is, they are to be forgotten.
   */
  onPage?: (text: string) => void;
}

const STDERR_CAP = 16 * 1024;
const INFO_CAP = 64 * 1024;

interface Finished {
  code: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
  spawnError?: string;
}

interface Bounded {
  kill(): void;
  finished: Promise<Finished>;
}

interface Bounds {
  memoryBytes: number;
  cpuSeconds: number;
}

/**
 * Runs `bin args` under prlimit (address space, CPU seconds, no core file), with no shell, none of
 * the worker's environment (LC_ALL=C only) and the PDF on stdin: nothing from the user, not even a
 * file name, reaches the command line.
 */
function runBounded(
  tools: PopplerTools,
  bin: string,
  args: string[],
  input: Uint8Array,
  bounds: Bounds,
  onStdout: (chunk: Buffer) => void,
): Bounded {
  const child = spawn(
    tools.prlimit,
    [`--as=${bounds.memoryBytes}`, `--cpu=${bounds.cpuSeconds}`, '--core=0', '--', bin, ...args],
    { stdio: ['pipe', 'pipe', 'pipe'], env: { LC_ALL: 'C' }, cwd: '/', windowsHide: true },
  );
  let stderr = '';
  const finished = new Promise<Finished>((resolve) => {
    child.once('error', (err) => resolve({ code: null, signal: null, stderr, spawnError: err.message }));
    child.once('close', (code, signal) => resolve({ code, signal, stderr }));
  });
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (s: string) => {
    if (stderr.length < STDERR_CAP) stderr += s.slice(0, STDERR_CAP - stderr.length);
  });
  child.stdout.on('data', onStdout);
  // The process may stop reading early (it found what it needed, or it was stopped): no EPIPE noise.
  child.stdin.on('error', () => undefined);
  child.stdin.end(input);
  return {
    kill: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    },
    finished,
  };
}

function describe(run: Finished, complaint: PopplerComplaint | undefined): string {
  if (run.spawnError) return `could not start (${run.spawnError})`;
  const how = run.signal ? `killed by ${run.signal}` : `exit code ${run.code}`;
  return complaint?.kind === 'error' ? `${how}: ${complaint.line}` : how;
}

/** The page count by `pdfinfo`, asked only when the text went past a limit (to name the right one). */
async function pageCount(tools: PopplerTools, data: Uint8Array, bounds: Bounds): Promise<number | string> {
  let out = '';
  const info = runBounded(tools, tools.pdfinfo, ['-'], data, bounds, (chunk) => {
    if (out.length < INFO_CAP) out += chunk.toString('latin1');
  });
  const timer = setTimeout(() => info.kill(), bounds.cpuSeconds * 1000);
  const done = await info.finished;
  clearTimeout(timer);
  const complaint = popplerComplaint(done.stderr);
  const pages = done.code === 0 && !complaint ? pdfinfoPages(out) : undefined;
  return pages ?? `pdfinfo: ${describe(done, complaint)}`;
}

/**
 * Reads a PDF with poppler's `pdftotext` (reading order, UTF-8, a form feed after each page) in a
 * process bounded in memory and CPU time, stopped once it has taken longer than `budgetMs` allows,
 * its output turned into pages as it comes and no longer read past the limits (then `pdfinfo`, as
 * bounded, tells the page count, so that too many pages is named before too much text, as pdf.js
 * does). Only clean answers are given as such; anything poppler complained about is `unclean`.
 */
export async function readWithPoppler(
  tools: PopplerTools,
  data: Uint8Array,
  options: PopplerRunOptions,
): Promise<PopplerResult> {
  const { limits } = options;
  const started = Date.now();
  const bounds: Bounds = {
    memoryBytes: options.maxMemoryMb * 1024 * 1024,
    cpuSeconds: Math.max(1, Math.ceil(options.budgetMs(limits.maxPages + 1) / 1000) + 1),
  };
  // A page whose raw text is this long (before white space is collapsed) is not worth collecting.
  const rawPageCap = 2 * limits.maxChars + 1_000_000;

  const pages: string[] = [];
  const decoder = new StringDecoder('utf8');
  let pending = '';
  let chars = 0;
  let overflow: 'text' | 'raw' | undefined;
  let timedOut = false;
  let stopped = false;

  // One page more than allowed is enough to know there are too many.
  const text: Bounded = runBounded(
    tools,
    tools.pdftotext,
    ['-enc', 'UTF-8', '-eol', 'unix', '-l', String(limits.maxPages + 1), '-', '-'],
    data,
    bounds,
    (chunk) => {
      if (overflow) return;
      pending += decoder.write(chunk);
      for (let cut = pending.indexOf('\f'); cut !== -1; cut = pending.indexOf('\f')) {
        const page = popplerPageText(pending.slice(0, cut));
        pending = pending.slice(cut + 1);
        chars += page.length;
        pages.push(page);
        if (chars > limits.maxChars) {
          overflow = 'text';
          text.kill();
          return;
        }
        options.onPage?.(page);
      }
      if (pending.length > rawPageCap) {
        overflow = 'raw';
        text.kill();
      }
    },
  );

  // The budget grows with the pages read: a timer that, when it fires early, waits for the rest.
  let timer: NodeJS.Timeout;
  const watch = () => {
    const left = started + options.budgetMs(pages.length) - Date.now();
    if (left > 0) {
      timer = setTimeout(watch, left);
    } else {
      timedOut = true;
      text.kill();
    }
  };
  timer = setTimeout(watch, options.budgetMs(0));
  const onAbort = () => {
    stopped = true;
    text.kill();
  };
  options.signal?.addEventListener('abort', onAbort);
  if (options.signal?.aborted) onAbort();

  const done = await text.finished;
  clearTimeout(timer);
  options.signal?.removeEventListener('abort', onAbort);
  const complaint = popplerComplaint(done.stderr);

  const unclean = (reason: string): PopplerResult => ({ kind: 'unclean', reason });
  if (stopped) return unclean('stopped');
  if (complaint?.kind === 'password') return { kind: 'refused', outcome: { ok: false, code: 'ENCRYPTED' } };
  if (timedOut) return unclean(`took longer than ${Date.now() - started} ms (${pages.length} pages read)`);
  if (complaint) return unclean(`pdftotext: ${describe(done, complaint)}`);
  if (overflow === 'raw') return unclean('a page with more text than can be kept');
  if (overflow === 'text' || pages.length > limits.maxPages) {
    const count = await pageCount(tools, data, bounds);
    if (typeof count === 'string') return unclean(count);
    if (count > limits.maxPages) {
      return {
        kind: 'refused',
        outcome: { ok: false, code: 'TOO_MANY_PAGES', params: { pages: count, max: limits.maxPages } },
      };
    }
    if (overflow === 'text') {
      return { kind: 'refused', outcome: { ok: false, code: 'TOO_MUCH_TEXT', params: { max: limits.maxChars } } };
    }
    return unclean(`${pages.length} pages of text for ${count} pages`);
  }
  if (done.code !== 0 || done.signal) return unclean(`pdftotext: ${describe(done, complaint)}`);
  pending += decoder.end();
  if (pending.trim() !== '') return unclean('text after the last page break');
  return { kind: 'read', pages };
}
