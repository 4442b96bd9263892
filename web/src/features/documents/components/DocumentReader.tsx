import type { DocumentView } from '@sparks/contracts';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router-dom';

import { isApiError } from '../../../api/client';
import { ChevronLeftIcon } from '../../../ui/icons';
import { useSpark } from '../../sparks/hooks';
import { PAGES_PER_BATCH, useDocumentPages } from '../api';
import type { DocumentLinkState } from '../paths';
import { PageBatch } from './PageBatch';

/** The run of pages (0: pages 1 to {@link PAGES_PER_BATCH}) a page is in. */
const batchOf = (page: number) => Math.floor((page - 1) / PAGES_PER_BATCH);
const firstPageOf = (batch: number) => batch * PAGES_PER_BATCH + 1;

/** Pages without text listed in the header: the first ones, then an ellipsis. */
const LISTED_EMPTY_PAGES = 12;

/** The document's status, its page count and where it came from, under its title. */
function Facts({ document }: { document: DocumentView }) {
  const { t } = useTranslation('sparks');
  return (
    <p className="document-reader__facts">
      <span className={`document-status document-status--${document.status}`}>
        {t(`document.status.${document.status}`)}
      </span>
      {document.pages !== null && <span>{t('document.pages', { count: document.pages })}</span>}
      {document.name !== document.title && <span>{t('document.file', { name: document.name })}</span>}
      {document.source && <span>{document.source.text}</span>}
    </p>
  );
}

/**
 * What the Spark read from one of its documents (issue 35 item 2): the document's title, status and page count, then
 * its pages as text, around the asked page, which is scrolled to, marked and focused; earlier and later pages are
 * added on demand. A document that is not found (another owner's, deleted, a mistyped address: the api's 404 or 400)
 * says so. Back leads to the Spark, and to its review list when the page was opened from it.
 */
export function DocumentReader({ sparkId, documentId, asked }: { sparkId: string; documentId: string; asked: number }) {
  const { t } = useTranslation('sparks');
  const location = useLocation();
  const fromReview = (location.state as Partial<DocumentLinkState> | null)?.from === 'review';
  const sparkPath = `/spark/${encodeURIComponent(sparkId)}`;
  const { data: spark } = useSpark(sparkId);
  const anchor = batchOf(asked);
  const { data, error, mutate } = useDocumentPages(sparkId, documentId, anchor);
  /** The runs shown, once the reader asked for earlier or later ones (until then, the asked page's). */
  const [range, setRange] = useState<{ first: number; last: number } | null>(null);
  /** The page whose heading takes the focus when it shows: the asked one first. */
  const [focus, setFocus] = useState<number | null>(asked);
  const focused = useCallback(() => setFocus(null), []);

  const back = (
    <Link className="document-reader__back" to={fromReview ? `${sparkPath}?review=list` : sparkPath}>
      <ChevronLeftIcon size={18} />
      {spark ? t('document.backTo', { name: spark.name }) : t('document.backToSpark')}
    </Link>
  );

  if (error && !data) {
    if (isApiError(error) && (error.status === 404 || error.status === 400)) {
      return (
        <section className="page page--centered" data-testid="document-not-found">
          <p className="page__eyebrow" aria-hidden="true">
            404
          </p>
          <h1 className="page__title">{t('document.notFound.title')}</h1>
          <p className="page__subtitle">{t('document.notFound.body')}</p>
          <Link className="button button--primary" to={sparkPath}>
            {t('document.backToSpark')}
          </Link>
        </section>
      );
    }
    return (
      <div className="document-reader">
        <nav>{back}</nav>
        <div className="document-reader__message" role="alert">
          <p>{t('document.loadFailed')}</p>
          <button type="button" className="button button--primary button--small" onClick={() => void mutate()}>
            {t('document.retry')}
          </button>
        </div>
      </div>
    );
  }
  if (!data) {
    return (
      <div className="page-loading" role="status" aria-live="polite">
        <span className="spinner" aria-hidden="true" />
        <span>{t('document.loading')}</span>
      </div>
    );
  }

  const { document, total, emptyPages } = data;
  const lastBatch = total > 0 ? batchOf(total) : 0;
  const outOfRange = total > 0 && asked > total;
  const start = Math.min(anchor, lastBatch);
  const shown = range ?? { first: start, last: start };
  const batches = total > 0 ? Array.from({ length: shown.last - shown.first + 1 }, (_, i) => shown.first + i) : [];
  const listed =
    emptyPages.slice(0, LISTED_EMPTY_PAGES).join(', ') + (emptyPages.length > LISTED_EMPTY_PAGES ? '…' : '');

  function earlier() {
    const first = shown.first - 1;
    setRange({ first, last: shown.last });
    // The page just before the ones shown: reading goes on backwards from where it was.
    setFocus(firstPageOf(first + 1) - 1);
  }

  function later() {
    const last = shown.last + 1;
    setRange({ first: shown.first, last });
    setFocus(firstPageOf(last));
  }

  return (
    <div className="document-reader">
      <header className="document-reader__header">
        <nav>{back}</nav>
        <h1 className="page__title">{document.title}</h1>
        <Facts document={document} />
        <p className="page__subtitle">{t('document.intro')}</p>
        {document.status === 'pending' || document.status === 'inProgress' ? (
          <p className="document-reader__message" role="status">
            {t('document.reading')}
          </p>
        ) : document.status === 'error' ? (
          <p className="document-reader__message document-reader__message--error">
            {document.errorMessage ?? t('document.failed')}
          </p>
        ) : (
          emptyPages.length > 0 && (
            <p className="document-reader__note">
              {t('document.noTextPages', { count: emptyPages.length, pages: listed })}
            </p>
          )
        )}
        {outOfRange && (
          <p className="document-reader__note" role="status">
            {t('document.outOfRange', { page: asked, count: total })}
          </p>
        )}
      </header>
      {shown.first > 0 && (
        <button type="button" className="button button--secondary document-reader__more" onClick={earlier}>
          {t('document.earlier', { from: firstPageOf(shown.first - 1), to: firstPageOf(shown.first) - 1 })}
        </button>
      )}
      {batches.map((batch) => (
        <PageBatch
          key={batch}
          sparkId={sparkId}
          documentId={documentId}
          batch={batch}
          total={total}
          cited={outOfRange ? null : asked}
          language={document.language}
          focus={focus !== null && batchOf(focus) === batch ? focus : null}
          onFocused={focused}
        />
      ))}
      {shown.last < lastBatch && (
        <button type="button" className="button button--secondary document-reader__more" onClick={later}>
          {t('document.later', {
            from: firstPageOf(shown.last + 1),
            to: Math.min(total, firstPageOf(shown.last + 2) - 1),
          })}
        </button>
      )}
    </div>
  );
}
