import type { SparkView } from '@sparks/contracts';
import { Suspense, lazy, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router-dom';

import { useNavigate } from '../../../lib/router';
import { ChevronLeftIcon, ChevronRightIcon } from '../../../ui/icons';
import { useActiveSparkId } from '../activeSpark';
import { usePinnedSparks, useSparkActions, useSparks } from '../hooks';
import { pageCount } from '../transitions';
import { useSparksPerPage } from '../useSparksPerPage';
import { SparkRow } from './SparkRow';
import '../sparks.css';

const loadDeleteDialog = () => import('./DeleteSparkDialog');
const DeleteSparkDialog = lazy(loadDeleteDialog);

/**
 * The Sparks of the sidebar (docs/product.md §2, §9): the pinned ones (all of them: the server refuses a fifth pin) and the recent ones, paginated with an
 * "N of M" pager whose page size follows the window height. Each row links to its Spark and has a dropdown to
 * pin or unpin and delete; the active Spark gets a test row when it has tests.
 */
export function SparksNav() {
  const { t } = useTranslation('sparks');
  const location = useLocation();
  const navigate = useNavigate();
  const { perPage } = useSparksPerPage();
  const [page, setPage] = useState(1);
  const recent = useSparks(page, perPage);
  const pinned = usePinnedSparks();
  const actions = useSparkActions();
  const activeId = useActiveSparkId();
  const [deleting, setDeleting] = useState<SparkView | null>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const pinnedHeadingRef = useRef<HTMLHeadingElement>(null);
  const focusAfterDelete = useRef(false);

  const total = recent.data?.total ?? 0;
  const pages = pageCount(total, perPage);

  // A smaller window, or the last Spark of the last page deleted: stay on a page that exists.
  useEffect(() => {
    if (recent.data && page > pages) setPage(pages);
  }, [recent.data, page, pages]);

  async function remove(spark: SparkView) {
    const onItsPage = location.pathname.startsWith(`/spark/${spark._id}`);
    // Leave the Spark's own pages before the caches forget it: asked again there, its 404 would show "Spark not found".
    await actions.remove(spark._id, onItsPage ? () => navigate('/') : undefined);
    focusAfterDelete.current = true;
    setDeleting(null);
  }

  // The deleted row's menu button is gone: the focus goes to the list's heading once the dialog has closed.
  useEffect(() => {
    if (deleting || !focusAfterDelete.current) return;
    focusAfterDelete.current = false;
    const frame = requestAnimationFrame(() => (headingRef.current ?? pinnedHeadingRef.current)?.focus());
    return () => cancelAnimationFrame(frame);
  }, [deleting]);

  const pinnedItems = pinned.data?.items ?? [];
  // Every Spark is pinned: no "Recent" section (its "no Sparks yet" would be wrong); the pinned strip shows them all.
  const allPinned = Boolean(recent.data) && total === 0 && pinnedItems.length > 0;
  const row = (spark: SparkView) => (
    <SparkRow
      key={spark._id}
      spark={spark}
      active={spark._id === activeId}
      onTogglePin={actions.togglePin}
      onDelete={setDeleting}
      onMenuOpen={() => void loadDeleteDialog()}
    />
  );

  return (
    <nav className="sparks-nav" aria-label={t('nav.label')}>
      {pinnedItems.length > 0 && (
        <section className="sparks-nav__section" aria-labelledby="sparks-pinned-heading">
          <h2 id="sparks-pinned-heading" ref={pinnedHeadingRef} tabIndex={-1} className="sparks-nav__heading">
            {t('nav.pinned')}
          </h2>
          <ul className="sparks-nav__list">{pinnedItems.map(row)}</ul>
        </section>
      )}
      {!allPinned && (
        <section className="sparks-nav__section" aria-labelledby="sparks-recent-heading">
          <h2 id="sparks-recent-heading" ref={headingRef} tabIndex={-1} className="sparks-nav__heading">
            {t('nav.recent')}
          </h2>
          {recent.error && !recent.data ? (
            <div className="sparks-nav__note" role="alert">
              <p>{t('nav.error')}</p>
              <button type="button" className="link-button" onClick={() => void recent.mutate()}>
                {t('nav.retry')}
              </button>
            </div>
          ) : !recent.data || (total === 0 && !pinned.data && !pinned.error) ? (
            <p className="sparks-nav__note" role="status">
              {t('nav.loading')}
            </p>
          ) : total === 0 ? (
            <p className="sparks-nav__note">{t('nav.empty')}</p>
          ) : (
            <ul className="sparks-nav__list">{recent.data.items.map(row)}</ul>
          )}
          {total > 0 && (
            <div className="pager" role="group" aria-label={t('pager.label')}>
              <button
                type="button"
                className="icon-button pager__button"
                aria-label={t('pager.previous')}
                title={t('pager.previous')}
                disabled={page <= 1}
                onClick={() => setPage((current) => Math.max(1, current - 1))}
              >
                <ChevronLeftIcon size={18} />
              </button>
              <span className="pager__position" aria-live="polite" data-testid="sparks-pager">
                {t('pager.position', { page: Math.min(page, pages), pages })}
              </span>
              <button
                type="button"
                className="icon-button pager__button"
                aria-label={t('pager.next')}
                title={t('pager.next')}
                disabled={page >= pages}
                onClick={() => setPage((current) => Math.min(pages, current + 1))}
              >
                <ChevronRightIcon size={18} />
              </button>
            </div>
          )}
        </section>
      )}
      {deleting && (
        <Suspense fallback={null}>
          <DeleteSparkDialog spark={deleting} onClose={() => setDeleting(null)} onDelete={remove} />
        </Suspense>
      )}
    </nav>
  );
}
