import type { AnalyticsSite, AnalyticsSummary, AnalyticsTopQuestion, AnalyticsTotals } from '@sparks/contracts';
import { useId } from 'react';
import { Link } from 'react-router-dom';

import type { AnalyticsT } from '../i18n';
import type { Formats } from './Charts';

const TOTAL_KEYS = ['conversations', 'questions', 'answers', 'notCovered', 'ratedUp', 'ratedDown'] as const;

/** The period's totals, one tile each. */
export function TotalsTiles({ totals, t, f }: { totals: AnalyticsTotals; t: AnalyticsT; f: Formats }) {
  return (
    <dl className="analytics-totals" aria-label={t('totals.label')}>
      {TOTAL_KEYS.map((key) => (
        <div key={key} className={`analytics-total analytics-total--${key}`}>
          <dt>{t(`totals.${key}`)}</dt>
          <dd>{f.number(totals[key])}</dd>
        </div>
      ))}
    </dl>
  );
}

/** A card holding a ranked list: the top questions, the widget's sites. */
function RankedCard({
  title,
  hint,
  empty,
  rows,
}: {
  title: string;
  hint: string;
  empty: string;
  rows: Array<{ key: string; text: string; count: number; label: string }>;
}) {
  const id = useId();
  const max = Math.max(1, ...rows.map((r) => r.count));
  return (
    <section className="analytics-card" aria-labelledby={id}>
      <h2 id={id} className="analytics-card__title">
        {title}
      </h2>
      <p className="analytics-card__hint">{hint}</p>
      {rows.length === 0 ? (
        <p className="analytics-card__empty">{empty}</p>
      ) : (
        <ol className="analytics-ranked">
          {rows.map((row) => (
            <li key={row.key} className="analytics-ranked__item">
              <span className="analytics-ranked__text">{row.text}</span>
              <span className="analytics-ranked__count">{row.label}</span>
              <span className="analytics-ranked__bar" aria-hidden="true">
                <span style={{ width: `${Math.max(2, (row.count / max) * 100)}%` }} />
              </span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

export function TopQuestions({ questions, t }: { questions: AnalyticsTopQuestion[]; t: AnalyticsT }) {
  return (
    <RankedCard
      title={t('top.title')}
      hint={t('top.hint')}
      empty={t('top.empty')}
      rows={questions.map((q, i) => ({
        key: `${i}:${q.question}`,
        text: q.question,
        count: q.count,
        label: t('top.times', { count: q.count }),
      }))}
    />
  );
}

export function Sites({ sites, t }: { sites: AnalyticsSite[]; t: AnalyticsT }) {
  return (
    <RankedCard
      title={t('sites.title')}
      hint={t('sites.hint')}
      empty={t('sites.empty')}
      rows={sites.map((s) => ({
        key: s.origin ?? '',
        text: s.origin ?? t('sites.unknown'),
        count: s.conversations,
        label: t('sites.conversations', { count: s.conversations }),
      }))}
    />
  );
}

const SPARK_COLUMNS = ['conversations', 'answers', 'notCovered', 'ratedUp', 'ratedDown'] as const;

/** The owner's Sparks with their totals, each a link to its own analytics (the summary page). */
export function SparksTable({
  sparks,
  days,
  t,
  f,
}: {
  sparks: AnalyticsSummary['sparks'];
  days: number;
  t: AnalyticsT;
  f: Formats;
}) {
  const id = useId();
  return (
    <section className="analytics-card analytics-card--wide" aria-labelledby={id}>
      <h2 id={id} className="analytics-card__title">
        {t('sparks.title')}
      </h2>
      <div className="analytics-scroll" role="region" aria-label={t('sparks.scroll')} tabIndex={0}>
        <table className="analytics-table">
          <caption className="visually-hidden">{t('sparks.title')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('sparks.name')}</th>
              {SPARK_COLUMNS.map((key) => (
                <th key={key} scope="col">
                  {t(`totals.${key}`)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {sparks.map((s) => (
              <tr key={s.sparkId}>
                <th scope="row">
                  <Link
                    to={`/spark/${encodeURIComponent(s.sparkId)}/analytics?days=${days}`}
                    aria-label={t('sparks.open', { name: s.name })}
                  >
                    {s.name}
                  </Link>
                </th>
                {SPARK_COLUMNS.map((key) => (
                  // data-label: the column's name beside the figure when a phone shows each Spark as a card.
                  <td key={key} data-label={t(`totals.${key}`)}>
                    {f.number(s.totals[key])}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
