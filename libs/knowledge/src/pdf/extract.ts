import type { IngestionErrorCode } from '@sparks/core';
import path from 'node:path';
import { assemblePageText, type PositionedText } from './layout';
import { checkBombs, checkFrame } from './precheck';

export interface ExtractLimits {
  maxPages: number;
  maxChars: number;
  /** Decompression caps checked before the reader opens the file (decompression bombs). */
  maxStreamBytes: number;
  maxInflatedBytes: number;
}

export type ExtractOutcome =
  | { ok: true; pageCount: number; pages: string[] }
  | { ok: false; code: IngestionErrorCode; params?: Record<string, string | number> };

/** The part of pdf.js used here (its own types need `moduleResolution: node16`, which not every consumer has). */
interface PdfJsPage {
  getTextContent(): Promise<{ items: unknown[] }>;
  cleanup(): unknown;
}
interface PdfJsDocument {
  numPages: number;
  getPage(n: number): Promise<PdfJsPage>;
  destroy(): Promise<void>;
}
interface PdfJs {
  getDocument(params: Record<string, unknown>): { promise: Promise<PdfJsDocument>; destroy(): Promise<void> };
}
let pdfjs: Promise<PdfJs> | undefined;

// pdf.js is an ES module; this file is CommonJS, and `module: node16` keeps this a real import().
const loadPdfJs = (): Promise<PdfJs> =>
  (pdfjs ??= import('pdfjs-dist/legacy/build/pdf.mjs') as unknown as Promise<PdfJs>);

const pdfjsRoot = () => path.dirname(require.resolve('pdfjs-dist/package.json'));

function positioned(items: unknown[]): PositionedText[] {
  const out: PositionedText[] = [];
  for (const item of items) {
    const t = item as { str?: unknown; transform?: number[]; width?: number; height?: number; hasEOL?: boolean };
    if (typeof t.str !== 'string' || !t.transform) continue;
    out.push({
      str: t.str,
      x: t.transform[4],
      y: t.transform[5],
      width: t.width ?? 0,
      height: t.height ?? 0,
      hasEOL: !!t.hasEOL,
    });
  }
  return out;
}

/**
 * Reads the text of a PDF page by page. Expected failures (a password, a damaged or cut file, a
 * bomb, too many pages or too much text) are answered as reason codes, never thrown. Runs inside
 * the extraction thread, where time and memory are bounded from outside.
 */
export async function extractPdfText(data: Uint8Array, limits: ExtractLimits): Promise<ExtractOutcome> {
  const refused = checkFrame(data) ?? checkBombs(data, limits);
  if (refused) return refused;
  const lib = await loadPdfJs();
  const root = pdfjsRoot();
  const task = lib.getDocument({
    data,
    standardFontDataUrl: path.join(root, 'standard_fonts') + path.sep,
    cMapUrl: path.join(root, 'cmaps') + path.sep,
    cMapPacked: true,
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    stopAtErrors: false,
    verbosity: 0,
  });
  let doc: PdfJsDocument;
  try {
    doc = await task.promise;
  } catch (err) {
    await task.destroy().catch(() => undefined);
    const name = (err as { name?: string }).name;
    if (name === 'PasswordException') return { ok: false, code: 'ENCRYPTED' };
    return { ok: false, code: 'MALFORMED' };
  }
  try {
    if (doc.numPages > limits.maxPages) {
      return { ok: false, code: 'TOO_MANY_PAGES', params: { pages: doc.numPages, max: limits.maxPages } };
    }
    const pages: string[] = [];
    let chars = 0;
    let unreadable = 0;
    for (let n = 1; n <= doc.numPages; n++) {
      let text = '';
      try {
        const page = await doc.getPage(n);
        const content = await page.getTextContent();
        text = assemblePageText(positioned(content.items));
        page.cleanup();
      } catch {
        unreadable += 1; // a damaged page reads as empty; the others still count
      }
      chars += text.length;
      if (chars > limits.maxChars) return { ok: false, code: 'TOO_MUCH_TEXT', params: { max: limits.maxChars } };
      pages.push(text);
    }
    if (doc.numPages > 0 && unreadable === doc.numPages) return { ok: false, code: 'MALFORMED' };
    return { ok: true, pageCount: doc.numPages, pages };
  } finally {
    await doc.destroy().catch(() => undefined);
  }
}
