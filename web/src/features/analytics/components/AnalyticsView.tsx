import type { AnalyticsSummary, SparkAnalytics } from '@sparks/contracts';
import { useMemo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

import { useSearchParams } from '../../../lib/router';
import { useOwnerTimeZone } from '../../account/useOwnerTimeZone';
import { useAnalytics, type AnalyticsScope } from '../api';
import { completeDays, isEmpty, periodOf, type Period } from '../figures';
import { useAnalyticsT } from '../i18n';
import { DailyChart, HoursChart, SharesChart, type Formats } from './Charts';
import { Sites, SparksTable, TopQuestions, TotalsTiles } from './Lists';
import { PeriodChooser } from './PeriodChooser';

/** Numbers, shares, dates and hours written in the reader's language (dates are days of the api: no time zone). */
function useFormats(): Formats {
  const { i18n } = useTranslation();
  const language = i18n.resolvedLanguage ?? i18n.language;
  return useMemo(() => {
    const number = new Intl.NumberFormat(language);
    const percent = new Intl.NumberFormat(language, { style: 'percent', maximumFractionDigits: 0 });
    const day = new Intl.DateTimeFormat(language, { day: 'numeric', month: 'short', timeZone: 'UTC' });
    const longDay = new Intl.DateTimeFormat(language, {
      weekday: 'long',
      day: 'numeric',
      month: 'long',
      timeZone: 'UTC',
    });
    const hour = new Intl.DateTimeFormat(language, { hour: 'numeric', timeZone: 'UTC' });
    const date = (d: string) => new Date(`${d}T00:00:00Z`);
    return {
      number: (n) => number.format(n),
      percent: (share) => percent.format(share),
      day: (d) => day.format(date(d)),
      longDay: (d) => longDay.format(date(d)),
      hour: (h) => hour.format(Date.UTC(2000, 0, 1, h)),
    };
  }, [language]);
}

export interface AnalyticsViewProps {
  /** One Spark's id, or null for all the owner's Sparks. */
  scope: AnalyticsScope;
  /** The page's heading, once the figures (which name the Spark) are there or before. */
  heading: ReactNode | ((data: SparkAnalytics | AnalyticsSummary | undefined) => ReactNode);
  intro: string;
  /** Links above the heading (back to the Spark, to all Sparks). */
  nav?: ReactNode;
  /** What the empty state says and offers. */
  emptyText: string;
  emptyAction?: ReactNode;
  /** What a failed load shows instead of the generic error (a Spark that is not found). */
  failure?: (error: Error) => ReactNode | undefined;
}

/**
 * An analytics page (issue 35 item 4): the period chooser (7, 30, 90 days, kept in `?days=`), the totals, the charts
 * (conversations and answers per day, the shares of the answers, the busiest hours) and the lists (top questions,
 * widget sites; on the summary, the Sparks), each chart with its figures as text. Days are the owner's, in the
 * profile's time zone, or the browser's when the profile has none. Loading, error and empty states.
 */
export function AnalyticsView({ scope, heading, intro, nav, emptyText, emptyAction, failure }: AnalyticsViewProps) {
  const t = useAnalyticsT();
  const f = useFormats();
  const [params, setParams] = useSearchParams();
  const period = periodOf(params.get('days'));
  const timeZone = useOwnerTimeZone();
  const { data, error, isValidating, mutate } = useAnalytics(scope, period, timeZone);
  const choose = (days: Period) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.set('days', String(days));
        return next;
      },
      { replace: true },
    );

  const special = error && !data ? failure?.(error) : undefined;
  if (special) return special;
  const stale = Boolean(data) && isValidating;
  const days = data ? completeDays(data.days, data.period.from, data.period.to) : [];

  return (
    <div className="analytics-page" aria-busy={!data || stale}>
      <header className="analytics-header">
        {nav && <nav className="analytics-header__nav">{nav}</nav>}
        <h1 className="page__title">{typeof heading === 'function' ? heading(data) : heading}</h1>
        <p className="page__subtitle">{intro}</p>
        <div className="analytics-header__bar">
          <PeriodChooser value={period} onChange={choose} t={t} />
          {data && (
            <p className="analytics-header__zone">
              {t('timeZone', {
                from: f.longDay(data.period.from),
                to: f.longDay(data.period.to),
                zone: data.period.timeZone,
              })}
            </p>
          )}
        </div>
        <p className="analytics-header__status" role="status">
          {stale ? t('refreshing') : ''}
        </p>
      </header>
      {error && !data ? (
        <div className="analytics-card analytics-message" role="alert">
          <p>{t('error.title')}</p>
          <button type="button" className="button button--primary button--small" onClick={() => void mutate()}>
            {t('error.retry')}
          </button>
        </div>
      ) : !data ? (
        <div className="page-loading" role="status" aria-live="polite">
          <span className="spinner" aria-hidden="true" />
          <span>{t('loading')}</span>
        </div>
      ) : isEmpty(data.totals) ? (
        <div className="analytics-card analytics-message" data-testid="analytics-empty">
          <h2 className="analytics-card__title">{t('empty.title', { count: period })}</h2>
          <p>{emptyText}</p>
          {emptyAction}
        </div>
      ) : (
        <div className="analytics-grid" data-testid="analytics-figures">
          <TotalsTiles totals={data.totals} t={t} f={f} />
          <div className="analytics-card--wide">
            <DailyChart days={days} conversations={data.totals.conversations} t={t} f={f} />
          </div>
          <SharesChart totals={data.totals} t={t} f={f} />
          <HoursChart hours={data.hours} t={t} f={f} />
          <TopQuestions questions={data.topQuestions} t={t} />
          <Sites sites={data.sites} t={t} />
          {'sparks' in data && <SparksTable sparks={data.sparks} days={period} t={t} f={f} />}
        </div>
      )}
    </div>
  );
}
