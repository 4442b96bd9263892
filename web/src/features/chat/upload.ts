import { MAX_UPLOAD_BYTES, PDF_MIME } from '@sparks/contracts/rules';

import { toLanguage } from '../../i18n';

const DOCX_MIME = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

/** What the file picker offers: a PDF, a Word document, text (docs/decisions.md, "Uploads: Word and text beside PDF"). */
export const UPLOAD_ACCEPT = `.pdf,${PDF_MIME},.docx,${DOCX_MIME},.txt,text/plain,.md,.markdown,text/markdown`;

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

/** A ZIP (a .docx is one) or, for one protected by a password, an OLE compound file. */
function looksLikeDocx(head: Uint8Array): boolean {
  const zip = [0x50, 0x4b, 0x03, 0x04];
  const ole = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
  return [zip, ole].some((signature) => signature.every((byte, i) => head[i] === byte));
}

/** The kind a file's name or type says it is. */
function declaredKind(file: Blob & { name: string }): 'pdf' | 'docx' | 'text' | undefined {
  const name = file.name.toLowerCase();
  if (name.endsWith('.pdf') || file.type === PDF_MIME) return 'pdf';
  if (name.endsWith('.docx') || file.type === DOCX_MIME) return 'docx';
  if (/\.(txt|md|markdown)$/.test(name)) return 'text';
  return undefined;
}

/**
 * The browser's checks before uploading (docs/product.md §5): a PDF, a Word document (.docx) or text (.txt, .md)
 * by its name or type and by its first bytes (a picture renamed .pdf or .txt is refused here), then at most 10 MB.
 * The server checks again, and decides text by its name (a .txt sent as anything else is not text to it).
 */
export async function checkUpload(
  file: Blob & { name: string },
  head: (file: Blob) => Promise<Uint8Array> = readHead,
): Promise<UploadCheck> {
  const kind = declaredKind(file);
  if (!kind || file.size === 0) return { ok: false, reason: 'format' };
  const first = await head(file);
  const looksRight =
    (looksLikePdf(first) && kind !== 'text') ||
    (kind === 'docx' && looksLikeDocx(first)) ||
    (kind === 'text' && !first.includes(0));
  if (!looksRight) return { ok: false, reason: 'format' };
  if (file.size > MAX_UPLOAD_BYTES) return { ok: false, reason: 'size', bytes: file.size };
  return { ok: true };
}
