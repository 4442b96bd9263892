import { MAX_UPLOAD_BYTES, PDF_MIME } from '@sparks/contracts/rules';

import { toLanguage } from '../../i18n';

/** What the file picker offers. */
export const UPLOAD_ACCEPT = '.pdf,application/pdf';

/** How often the document being read is looked at (GET /sparks/{id}/documents). */
export const DOCUMENT_POLL_MS = 1500;

export type UploadCheck = { ok: true } | { ok: false; reason: 'format' } | { ok: false; reason: 'size'; bytes: number };

/** The file's size in MB with two decimals, written the way the language writes numbers (12.35 / 12,35). */
export function formatMegabytes(bytes: number, language: string): string {
  return new Intl.NumberFormat(toLanguage(language), {
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
    useGrouping: false,
  }).format(bytes / (1024 * 1024));
}

/** A file's size for people: KB below 1 MB, else MB with two decimals (in the language's way). */
export function formatFileSize(bytes: number, language: string): { value: string; unit: 'KB' | 'MB' } {
  if (bytes < 1024 * 1024) {
    const kb = Math.max(1, Math.round(bytes / 1024));
    return { value: new Intl.NumberFormat(toLanguage(language)).format(kb), unit: 'KB' };
  }
  return { value: formatMegabytes(bytes, language), unit: 'MB' };
}

/** Whether a file's first bytes hold the PDF signature '%PDF-' (it may follow a little junk, ≤ 1024 bytes). */
export function looksLikePdf(head: Uint8Array): boolean {
  const signature = [0x25, 0x50, 0x44, 0x46, 0x2d];
  for (let start = 0; start + signature.length <= Math.min(head.length, 1024); start += 1) {
    if (signature.every((byte, i) => head[start + i] === byte)) return true;
  }
  return false;
}

/** The first kilobyte of a file. */
async function readHead(file: Blob): Promise<Uint8Array> {
  const part = file.slice(0, 1024);
  if (typeof part.arrayBuffer === 'function') return new Uint8Array(await part.arrayBuffer());
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(new Uint8Array(reader.result as ArrayBuffer));
    reader.onerror = () => reject(reader.error ?? new Error('read failed'));
    reader.readAsArrayBuffer(part);
  });
}

/**
 * The browser's checks before uploading (docs/product.md §5): a PDF by its type or name and by its first bytes (a
 * picture renamed .pdf is refused here), then at most 10 MB.
 */
export async function checkUpload(
  file: Blob & { name: string },
  head: (file: Blob) => Promise<Uint8Array> = readHead,
): Promise<UploadCheck> {
  const named = /\.pdf$/i.test(file.name);
  if (file.type !== PDF_MIME && !named) return { ok: false, reason: 'format' };
  if (file.size === 0 || !looksLikePdf(await head(file))) return { ok: false, reason: 'format' };
  if (file.size > MAX_UPLOAD_BYTES) return { ok: false, reason: 'size', bytes: file.size };
  return { ok: true };
}
