import mammoth from 'mammoth';

import { pagesOfText, type TextOutcome } from '../text/read-text';

/**
 * Word documents (.docx) for the ingestion (issue 20: files imported from SharePoint and OneDrive; issue 32: uploaded
 * in the chat), read with mammoth (docs/decisions.md, "Word documents: mammoth"). A .docx has no fixed pages: its text
 * is cut, at paragraph ends, into parts of about `PART_CHARS` characters (text/read-text.ts) that stand for pages
 * (citations and the pages view number them like a PDF's pages, and the pages limit counts them).
 */

/** A ZIP file (a .docx is one) starts with a local file header. */
const ZIP_HEADER = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
/** An OLE compound file: what Word writes for a password-protected .docx (the ZIP inside is encrypted). */
const OLE_HEADER = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);

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

export type DocxOutcome = TextOutcome | { ok: false; code: 'ENCRYPTED' | 'TOO_COMPLEX' };

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
  return pagesOfText(text, limits);
}
