import { z } from 'zod';

export const DOCUMENT_STATUSES = ['pending', 'inProgress', 'completed', 'error'] as const;
export type DocumentStatus = (typeof DOCUMENT_STATUSES)[number];

/** Multipart fields of POST /bucket besides `file` (docs/product.md §3 upload payload). */
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
export const uploadResultSchema = z.object({
  _id: z.string(),
  bucketFileId: z.string(),
  name: z.string(),
  status: z.enum(DOCUMENT_STATUSES),
  /** True when this Spark already had the very same file: nothing new was stored. */
  duplicate: z.boolean(),
});
export type UploadResult = z.infer<typeof uploadResultSchema>;

/** The longest title an owner may give a document (issue 34 item 10). */
export const DOCUMENT_TITLE_MAX = 120;

/**
 * What customers read as a document's source ("Menu, page 2"): the title the owner gave it, or else its file name
 * without the extension ("espiga-en.pdf" → "espiga-en"). An owner's written answer (origin `owner`) keeps its name:
 * that is the question it answers.
 */
export function documentTitle(doc: { name: string; title?: string | null; origin?: string }): string {
  if (doc.title) return doc.title;
  if (doc.origin === 'owner') return doc.name;
  const bare = doc.name.replace(/\.[A-Za-z0-9]{1,5}$/, '').trim();
  return bare || doc.name;
}

/** PATCH of a document: its title for customers; null (or blank) gives back the default, the file name. */
export const updateDocumentSchema = z.object({
  title: z
    .string()
    .max(DOCUMENT_TITLE_MAX)
    // One line: control characters, line breaks and direction overrides would break (or disguise) the citation
    // line they are printed in.
    .transform(
      (v) =>
        v
          .replace(/[\p{Cc}\u200B\u200E\u200F\u2028-\u202E\u2066-\u2069]+/gu, ' ')
          .replace(/\s+/g, ' ')
          .trim() || null,
    )
    .nullable(),
});

export const documentViewSchema = z.object({
  _id: z.string(),
  sparkId: z.string(),
  bucketFileId: z.string(),
  name: z.string(),
  /** What customers read as its source in answers: the owner's title, or the file name without its extension. */
  title: z.string(),
  /** Whether the owner gave the title (false: it is the default from the file name). */
  titleSet: z.boolean(),
  size: z.number(),
  status: z.enum(DOCUMENT_STATUSES),
  pages: z.number().nullable(),
  chars: z.number().nullable(),
  language: z.enum(['es', 'en']).nullable(),
  /** Why it could not be read: a code, and the explanation in the caller's language. */
  error: z.string().nullable(),
  errorMessage: z.string().nullable(),
  /**
   * Where an imported document came from (issue 20): the service, the file's path there, and the two said in the
   * caller's language ("from SharePoint: Sites/Bakery/Menu.pdf"). Null for an uploaded file.
   */
  source: z.object({ service: z.enum(['sharepoint', 'onedrive']), path: z.string(), text: z.string() }).nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type DocumentView = z.infer<typeof documentViewSchema>;

/** DELETE of a document. */
export const documentDeletedSchema = z.object({ _id: z.string(), deleted: z.literal(true) });

export const documentParams = z.object({ sparkId: z.uuid(), documentId: z.uuid() });

export const documentPagesQuery = z.object({
  offset: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});

/** A page as the Spark read it; `noText` flags a page that is probably a scanned image. */
export const documentPageSchema = z.object({
  page: z.number().int(),
  chars: z.number().int(),
  text: z.string(),
  noText: z.boolean(),
  /** Some text, but very little: often a table, a chart or a scan with a caption. */
  littleText: z.boolean(),
});
export type DocumentPage = z.infer<typeof documentPageSchema>;

export const documentPagesViewSchema = z.object({
  document: documentViewSchema,
  /** Pages with no text at all, over the whole document. */
  emptyPages: z.array(z.number().int()),
  offset: z.number().int(),
  limit: z.number().int(),
  total: z.number().int(),
  pages: z.array(documentPageSchema),
});
export type DocumentPagesView = z.infer<typeof documentPagesViewSchema>;

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

/** What POST /llm/load-doc-message answers. */
export const loadDocMessageResultSchema = z.object({ isDocumentLoadMessage: z.boolean() });
