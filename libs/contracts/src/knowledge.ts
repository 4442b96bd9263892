import { z } from 'zod';

/** Spec §5: the chat upload takes PDF files of at most 10 MB (10 × 1024 × 1024 bytes). */
export const MAX_UPLOAD_MB = 10;
export const MAX_UPLOAD_BYTES = MAX_UPLOAD_MB * 1024 * 1024;
export const PDF_MIME = 'application/pdf';

export const DOCUMENT_STATUSES = ['pending', 'inProgress', 'completed', 'error'] as const;
export type DocumentStatus = (typeof DOCUMENT_STATUSES)[number];

/** Multipart fields of POST /bucket besides `file` (spec §3 upload payload). */
export const uploadFieldsSchema = z.object({
  sparkId: z.uuid(),
  conversationId: z
    .uuid()
    .nullable()
    .optional()
    .or(z.literal('').transform(() => undefined)),
  name: z.string().max(1000).optional(),
});

/** What POST /bucket answers. */
export interface UploadResult {
  _id: string;
  bucketFileId: string;
  name: string;
  status: DocumentStatus;
  /** True when this Spark already had the very same file: nothing new was stored. */
  duplicate: boolean;
}

export interface DocumentView {
  _id: string;
  sparkId: string;
  bucketFileId: string;
  name: string;
  size: number;
  status: DocumentStatus;
  pages: number | null;
  chars: number | null;
  language: 'es' | 'en' | null;
  /** Why it could not be read: a code, and the explanation in the caller's language. */
  error: string | null;
  errorMessage: string | null;
  createdAt: string;
  updatedAt: string;
}

export const documentParams = z.object({ sparkId: z.uuid(), documentId: z.uuid() });

export const documentPagesQuery = z.object({
  offset: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});

/** A page as the Spark read it; `noText` flags a page that is probably a scanned image. */
export interface DocumentPage {
  page: number;
  chars: number;
  text: string;
  noText: boolean;
  /** Some text, but very little: often a table, a chart or a scan with a caption. */
  littleText: boolean;
}

export interface DocumentPagesView {
  document: DocumentView;
  /** Pages with no text at all, over the whole document. */
  emptyPages: number[];
  offset: number;
  limit: number;
  total: number;
  pages: DocumentPage[];
}

/** POST /llm/load-doc-message: is this chat message a document upload? */
export const loadDocMessageSchema = z.object({
  message: z.object({
    type: z.string().max(20),
    content: z.string().max(4000).default(''),
    data: z.record(z.string(), z.unknown()).nullable().optional(),
  }),
  sessionId: z
    .uuid()
    .nullable()
    .optional()
    .or(z.literal('').transform(() => undefined)),
  sparkId: z
    .uuid()
    .nullable()
    .optional()
    .or(z.literal('').transform(() => undefined)),
});
