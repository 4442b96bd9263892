import type { DocumentPagesView } from '@sparks/contracts';
import useSWR from 'swr';

import { api } from '../../api/client';

/** How many pages one request reads (the api allows up to 500; a page of a menu or a price list is short). */
export const PAGES_PER_BATCH = 10;

type PagesKey = readonly ['document-pages', string, string, number];

const fetchPages = ([, sparkId, documentId, batch]: PagesKey) =>
  api.get<DocumentPagesView>(
    `/sparks/${encodeURIComponent(sparkId)}/documents/${encodeURIComponent(documentId)}/pages`,
    { params: { offset: batch * PAGES_PER_BATCH, limit: PAGES_PER_BATCH } },
  );

/**
 * GET /sparks/{sparkId}/documents/{documentId}/pages for the `batch`-th run of {@link PAGES_PER_BATCH} pages (0: the
 * first pages): the document, its pages without text, its page count and those pages as the Spark read them. While
 * the document is still being read it is asked again every few seconds.
 */
export function useDocumentPages(sparkId: string, documentId: string, batch: number) {
  return useSWR<DocumentPagesView, Error, PagesKey>(['document-pages', sparkId, documentId, batch], fetchPages, {
    refreshInterval: (data) =>
      data && (data.document.status === 'pending' || data.document.status === 'inProgress') ? 3000 : 0,
    revalidateOnFocus: false,
  });
}
