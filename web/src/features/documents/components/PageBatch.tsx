import type { DocumentPage } from '@sparks/contracts';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';

import { useDocumentPages } from '../api';

/**
 * One page as the Spark read it: its heading (focusable, to be taken to), then its text with its line breaks, or the
 * note that no text was read on it. The cited page is marked (`aria-current`, a badge in its heading).
 */
function Sheet({
  page,
  total,
  cited,
  language,
  headingRef,
}: {
  page: DocumentPage;
  total: number;
  cited: boolean;
  /** The document's language, for the text's `lang` (it may not be the app's). */
  language: string | null;
  headingRef: (heading: HTMLHeadingElement | null) => void;
}) {
  const { t } = useTranslation('sparks');
  const id = `document-page-${page.page}`;
  return (
    <section
      className={cited ? 'document-sheet document-sheet--cited' : 'document-sheet'}
      aria-labelledby={id}
      aria-current={cited ? 'page' : undefined}
      data-page={page.page}
    >
      <h2 id={id} ref={headingRef} tabIndex={-1} className="document-sheet__title">
        {t('document.pageHeading', { page: page.page, total })}
        {cited && (
          <>
            <span className="visually-hidden">,</span>{' '}
            <span className="document-sheet__cited">{t('document.cited')}</span>
          </>
        )}
      </h2>
      {page.noText ? (
        <p className="document-sheet__flag">{t('document.noText')}</p>
      ) : (
        <>
          {page.littleText && <p className="document-sheet__flag">{t('document.littleText')}</p>}
          <div className="document-sheet__text" lang={language ?? undefined}>
            {page.text}
          </div>
        </>
      )}
    </section>
  );
}

/**
 * A run of pages of the document, read by its own request (the reader shows the runs around the asked page and adds
 * earlier or later ones on demand). `focus` names a page of the run whose heading is scrolled to the top and takes the
 * focus once it shows: the cited page as the page opens, the page next to where the reader was after "Earlier pages"
 * or "Later pages".
 */
export function PageBatch({
  sparkId,
  documentId,
  batch,
  total,
  cited,
  language,
  focus,
  onFocused,
}: {
  sparkId: string;
  documentId: string;
  batch: number;
  total: number;
  cited: number | null;
  language: string | null;
  focus: number | null;
  onFocused: () => void;
}) {
  const { t } = useTranslation('sparks');
  const { data, error, mutate } = useDocumentPages(sparkId, documentId, batch);
  const headings = useRef(new Map<number, HTMLHeadingElement>());

  useEffect(() => {
    if (!data || focus === null) return;
    const heading = headings.current.get(focus);
    if (!heading) return;
    // (jsdom has no scrollIntoView.)
    heading.scrollIntoView?.({ block: 'start' });
    heading.focus({ preventScroll: true });
    onFocused();
  }, [data, focus, onFocused]);

  if (error && !data) {
    return (
      <div className="document-reader__message" role="alert">
        <p>{t('document.pagesFailed')}</p>
        <button type="button" className="button button--secondary button--small" onClick={() => void mutate()}>
          {t('document.retry')}
        </button>
      </div>
    );
  }
  if (!data) {
    return (
      <p className="document-reader__loading" role="status">
        <span className="spinner" aria-hidden="true" />
        {t('document.loadingPages')}
      </p>
    );
  }
  return (
    <>
      {data.pages.map((page) => (
        <Sheet
          key={page.page}
          page={page}
          total={total}
          cited={page.page === cited}
          language={language}
          headingRef={(heading) => {
            if (heading) headings.current.set(page.page, heading);
            else headings.current.delete(page.page);
          }}
        />
      ))}
    </>
  );
}
