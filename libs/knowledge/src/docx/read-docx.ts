import mammoth from 'mammoth';
import { splitSentences } from '@sparks/core';

/**
 * Word documents (.docx) for the ingestion (issue 20: files imported from SharePoint and OneDrive), read with
 * mammoth (docs/decisions.md, "Word documents: mammoth"). A .docx has no fixed pages: its text is cut, at paragraph
 * ends, into parts of about `DOCX_PART_CHARS` characters that stand for pages (citations and the pages view number
 * them like a PDF's pages, and the pages limit counts them).
 */

/** A ZIP file (a .docx is one) starts with a local file header. */
const ZIP_HEADER = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
/** An OLE compound file: what Word writes for a password-protected .docx (the ZIP inside is encrypted). */
const OLE_HEADER = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);

/** About how many characters of a Word document make one "page". */
export const DOCX_PART_CHARS = 3000;

const startsWith = (bytes: Uint8Array, header: Buffer) =>
  bytes.length >= header.length && header.every((b, i) => bytes[i] === b);

export const isZip = (bytes: Uint8Array) => startsWith(bytes, ZIP_HEADER);
export const isOleCompound = (bytes: Uint8Array) => startsWith(bytes, OLE_HEADER);

export interface DocxLimits {
  maxPages: number;
  maxChars: number;
  /** What the ZIP's entries may hold once inflated, in bytes (a ZIP bomb is refused before it is opened). */
  maxInflatedBytes: number;
}

export type DocxOutcome =
  | { ok: true; pages: string[] }
  | {
      ok: false;
      code: 'MALFORMED' | 'ENCRYPTED' | 'TOO_COMPLEX' | 'TOO_MANY_PAGES' | 'TOO_MUCH_TEXT';
      params?: Record<string, number>;
    };

/**
 * The sizes the ZIP's central directory declares for its entries, added up; undefined when there is no readable
 * central directory (not a ZIP, or cut short).
 */
export function zipInflatedSize(bytes: Uint8Array): number | undefined {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // The end-of-central-directory record is in the last 22 + 65535 bytes.
  const from = Math.max(0, buf.length - 22 - 0xffff);
  let eocd = -1;
  for (let i = buf.length - 22; i >= from; i -= 1) {
    if (buf.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) return undefined;
  const entries = buf.readUInt16LE(eocd + 10);
  let at = buf.readUInt32LE(eocd + 16);
  let total = 0;
  for (let n = 0; n < entries; n += 1) {
    if (at + 46 > buf.length || buf.readUInt32LE(at) !== 0x02014b50) return undefined;
    const size = buf.readUInt32LE(at + 24);
    // ZIP64 (0xffffffff): far beyond anything a Word document of 10 MB holds.
    total += size === 0xffffffff ? Number.MAX_SAFE_INTEGER : size;
    at += 46 + buf.readUInt16LE(at + 28) + buf.readUInt16LE(at + 30) + buf.readUInt16LE(at + 32);
  }
  return total;
}

/** Cuts a text into parts of about `size` characters at paragraph ends (a longer paragraph at sentence ends). */
export function splitIntoParts(text: string, size = DOCX_PART_CHARS): string[] {
  const paragraphs = text
    .split(/\n\s*\n|\n/)
    .map((p) => p.trim())
    .filter((p) => p !== '');
  const parts: string[] = [];
  let current = '';
  const push = (piece: string) => {
    if (current && current.length + piece.length + 2 > size) {
      parts.push(current);
      current = '';
    }
    current = current ? `${current}\n\n${piece}` : piece;
  };
  for (const paragraph of paragraphs) {
    if (paragraph.length <= size) push(paragraph);
    else for (const sentence of splitSentences(paragraph)) push(sentence);
  }
  if (current) parts.push(current);
  return parts;
}

/** Reads a .docx into "pages" of text, within the limits; what cannot be read is told by its reason's code. */
export async function readDocx(bytes: Buffer, limits: DocxLimits): Promise<DocxOutcome> {
  if (isOleCompound(bytes)) return { ok: false, code: 'ENCRYPTED' };
  if (!isZip(bytes)) return { ok: false, code: 'MALFORMED' };
  const inflated = zipInflatedSize(bytes);
  if (inflated === undefined) return { ok: false, code: 'MALFORMED' };
  if (inflated > limits.maxInflatedBytes) return { ok: false, code: 'TOO_COMPLEX' };
  let text: string;
  try {
    text = (await mammoth.extractRawText({ buffer: bytes })).value;
  } catch {
    return { ok: false, code: 'MALFORMED' };
  }
  if (text.length > limits.maxChars) return { ok: false, code: 'TOO_MUCH_TEXT', params: { max: limits.maxChars } };
  const pages = splitIntoParts(text);
  if (pages.length > limits.maxPages) {
    return { ok: false, code: 'TOO_MANY_PAGES', params: { pages: pages.length, max: limits.maxPages } };
  }
  return { ok: true, pages };
}
