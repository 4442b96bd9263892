import { Link, useParams } from 'react-router-dom';

import { isApiError } from '../../../api/client';
import { ChevronLeftIcon } from '../../../ui/icons';
import { AnalyticsView } from '../components/AnalyticsView';
import { useAnalyticsT } from '../i18n';
import '../analytics.css';

/**
 * /spark/{sparkId}/analytics: how one Spark is used (owner only). Another's Spark, a deleted or a mistyped one is
 * "Spark not found" (the api answers 404 or 400 for it). The Spark's name comes with its figures: the page imports
 * nothing of the Spark pages, whose code stays out of its chunk (and theirs out of the first load).
 */
function SparkAnalytics({ sparkId }: { sparkId: string }) {
  const t = useAnalyticsT();
  const sparkPath = `/spark/${encodeURIComponent(sparkId)}`;
  return (
    <AnalyticsView
      key={sparkId}
      scope={sparkId}
      heading={(data) => (data && 'spark' in data ? t('sparkTitle', { name: data.spark.name }) : t('title'))}
      intro={t('sparkIntro')}
      nav={
        <>
          <Link className="analytics-header__link" to={sparkPath}>
            <ChevronLeftIcon size={18} />
            {t('backToSpark')}
          </Link>
          <Link className="analytics-header__link" to="/analytics">
            {t('allSparks')}
          </Link>
        </>
      }
      emptyText={t('empty.spark')}
      emptyAction={
        <Link className="button button--primary button--small" to={sparkPath}>
          {t('empty.openSpark')}
        </Link>
      }
      failure={(failed) =>
        isApiError(failed) && (failed.status === 404 || failed.status === 400) ? (
          <section className="page page--centered" data-testid="spark-not-found">
            <p className="page__eyebrow" aria-hidden="true">
              404
            </p>
            <h1 className="page__title">{t('notFound.title')}</h1>
            <p className="page__subtitle">{t('notFound.body')}</p>
            <Link className="button button--primary" to="/analytics">
              {t('allSparks')}
            </Link>
          </section>
        ) : undefined
      }
    />
  );
}

/** /analytics: how all the owner's Sparks are used together, and each one's totals with a link to its page. */
function SummaryAnalytics() {
  const t = useAnalyticsT();
  return (
    <AnalyticsView scope={null} heading={t('summaryTitle')} intro={t('summaryIntro')} emptyText={t('empty.summary')} />
  );
}

/**
 * The analytics pages (issue 35 item 4), one lazy chunk for both routes: with the chart library, they load only when
 * one of them is opened (bench/bundle.mjs: the signed-in first load does not carry them).
 */
export default function AnalyticsPage() {
  const { sparkId } = useParams();
  return sparkId ? <SparkAnalytics sparkId={sparkId} /> : <SummaryAnalytics />;
}
