import type { DocumentView } from '@sparks/contracts';
import { ingestionReason, isIngestionErrorCode, type AppConfig, type Language } from '@sparks/core';
import type { DocumentRow } from '@sparks/db';
import { fileIdOfKey } from '@sparks/knowledge';

type Limits = Pick<AppConfig, 'INGEST_MAX_PAGES' | 'INGEST_MAX_CHARS'>;

/** A document as the API shows it; the reason it failed is explained in the caller's language. */
export function toDocumentView(d: DocumentRow, language: Language, limits: Limits): DocumentView {
  const params = {
    pages: d.pages ?? 0,
    max: d.error === 'TOO_MUCH_TEXT' ? limits.INGEST_MAX_CHARS : limits.INGEST_MAX_PAGES,
  };
  return {
    _id: d.id,
    sparkId: d.sparkId,
    bucketFileId: fileIdOfKey(d.storageKey),
    name: d.name,
    size: d.size,
    status: d.status,
    pages: d.pages,
    chars: d.chars,
    language: d.language,
    error: d.error,
    errorMessage: d.error && isIngestionErrorCode(d.error) ? ingestionReason(language, d.error, params) : null,
    createdAt: d.createdAt.toISOString(),
    updatedAt: d.updatedAt.toISOString(),
  };
}
