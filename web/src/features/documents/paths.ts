/**
 * The document page of a Spark (`/spark/{sparkId}/documents/{documentId}?page=N`): what the Spark read from one of
 * its documents, opened on page N. Where a source is cited ("Menu, page 2"), this is where it links.
 */
export function documentPath(sparkId: string, documentId: string, page?: number): string {
  const path = `/spark/${encodeURIComponent(sparkId)}/documents/${encodeURIComponent(documentId)}`;
  return page === undefined ? path : `${path}?page=${page}`;
}

/** What a link to the document page may carry in its state: opened from the review list, Back returns to it. */
export interface DocumentLinkState {
  from: 'review';
}
