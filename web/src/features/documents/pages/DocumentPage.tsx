import { useParams } from 'react-router-dom';

import { useSearchParams } from '../../../lib/router';
import { DocumentReader } from '../components/DocumentReader';
import '../documents.css';

/** `?page=`: a page number from 1; anything else opens the document at its first page. */
function askedPage(value: string | null): number {
  const page = Number(value);
  return Number.isSafeInteger(page) && page >= 1 ? page : 1;
}

/**
 * /spark/{sparkId}/documents/{documentId}?page=N: one document of the Spark as the Spark read it, opened at page N
 * (issue 35 item 2; where the review list's sources link). Read-only. A lazy chunk of its own.
 */
export default function DocumentPage() {
  const { sparkId = '', documentId = '' } = useParams();
  const [params] = useSearchParams();
  const asked = askedPage(params.get('page'));
  // Another document or page starts afresh: the pages shown and the focus are the asked page's.
  return (
    <DocumentReader key={`${sparkId}/${documentId}/${asked}`} sparkId={sparkId} documentId={documentId} asked={asked} />
  );
}
