import { documentTitle, type DocumentView } from '@sparks/contracts';
import {
  documentSourceText,
  ingestionReason,
  isIngestionErrorCode,
  type AppConfig,
  type DocumentSharingService,
  type Language,
} from '@sparks/core';
import type { DocumentRow } from '@sparks/db';
import { fileIdOfKey } from '@sparks/knowledge';

type Limits = Pick<AppConfig, 'INGEST_MAX_PAGES' | 'INGEST_MAX_CHARS'>;

/** Where an imported document came from (`IntegrationsRepository.sourcesOf`). */
export interface DocumentSource {
  service: string;
  path: string;
}

/** A document as the API shows it; the reason it failed and where it came from are said in the caller's language. */
export function toDocumentView(
  d: DocumentRow,
  language: Language,
  limits: Limits,
  from?: DocumentSource,
): DocumentView {
  const service = from?.service as DocumentSharingService | undefined;
  const params = {
    pages: d.pages ?? 0,
    max: d.error === 'TOO_MUCH_TEXT' ? limits.INGEST_MAX_CHARS : limits.INGEST_MAX_PAGES,
  };
  return {
    _id: d.id,
    sparkId: d.sparkId,
    bucketFileId: fileIdOfKey(d.storageKey),
    name: d.name,
    title: documentTitle(d),
    titleSet: d.title !== null,
    size: d.size,
    status: d.status,
    pages: d.pages,
    chars: d.chars,
    language: d.language,
    error: d.error,
    errorMessage: d.error && isIngestionErrorCode(d.error) ? ingestionReason(language, d.error, params) : null,
    source:
      from && service
        ? { service, path: from.path, text: documentSourceText(language, { service, path: from.path }) }
        : null,
    createdAt: d.createdAt.toISOString(),
    updatedAt: d.updatedAt.toISOString(),
  };
}
