import { isOleCompound, isZip } from '../docx/read-docx';
import { hasPdfHeader } from '../pdf/magic';
import type { DocumentFileKind } from '../storage/storage';

/**
 * The kinds of file a Spark reads from an upload in its chat (docs/decisions.md, "Uploads: Word and text beside
 * PDF"): a PDF, a Word document (.docx) and plain or Markdown text (.txt, .md).
 */
export type UploadKind = DocumentFileKind;

/** How many first bytes `uploadKind` needs to decide (the longest signature it looks for, OLE's, has 8). */
export const UPLOAD_HEAD_LENGTH = 8;

/**
 * The kind a file's name says it is: `.pdf`, `.docx`, or text (`.txt`, `.md`, `.markdown`); undefined for any other
 * name. The one rule of the chat's upload and of the SharePoint and OneDrive import; the bytes are checked apart.
 */
export function kindOfName(fileName: string): DocumentFileKind | undefined {
  const extension = /\.(pdf|docx|txt|md|markdown)$/i.exec(fileName)?.[1].toLowerCase();
  if (extension === 'markdown') return 'md';
  return extension as DocumentFileKind | undefined;
}

/**
 * What an upload is, from its first bytes and its name, or undefined when it is none of the kinds read. A PDF is
 * known by its bytes whatever its name (as before); a Word document needs the name `.docx` and a ZIP (or, for one
 * protected by a password, an OLE compound file: the worker then says why it cannot be read); text needs a text
 * name and first bytes that are neither of those nor binary (a NUL). `head` may be shorter than
 * `UPLOAD_HEAD_LENGTH` only when it is the whole file.
 */
export function uploadKind(head: Uint8Array, fileName: string): UploadKind | undefined {
  if (hasPdfHeader(head)) return 'pdf';
  const named = kindOfName(fileName);
  const binary = isZip(head) || isOleCompound(head);
  if (named === 'docx') return binary ? 'docx' : undefined;
  if ((named !== 'txt' && named !== 'md') || binary || head.includes(0)) return undefined;
  return named;
}

/**
 * Checks, chunk by chunk, that a text upload is UTF-8 without NUL characters (a binary file named .txt, or text in
 * another encoding, would otherwise be stored and read as garbage). `push` and `end` answer false once it is not.
 */
export class TextUploadCheck {
  private readonly decoder = new TextDecoder('utf-8', { fatal: true });
  private ok = true;

  push(chunk: Uint8Array): boolean {
    return this.check(() => this.decoder.decode(chunk, { stream: true }));
  }

  end(): boolean {
    return this.check(() => this.decoder.decode());
  }

  private check(decode: () => string): boolean {
    if (!this.ok) return false;
    try {
      this.ok = !decode().includes('\u0000');
    } catch {
      this.ok = false;
    }
    return this.ok;
  }
}
