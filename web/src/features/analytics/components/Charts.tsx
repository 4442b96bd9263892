import type { AnalyticsDay, AnalyticsTotals } from '@sparks/contracts';
import { Group } from '@visx/group';
import { scaleBand, scaleLinear } from '@visx/scale';
import { Bar } from '@visx/shape';
import { useId, type ReactNode } from 'react';

import { busiestDay, busiestHour, labelledDays, shares } from '../figures';
import type { AnalyticsT } from '../i18n';
import { useWidth } from './useWidth';

/** How a chart writes numbers, dates and hours in the reader's language. */
export interface Formats {
  number: (n: number) => string;
  percent: (share: number) => string;
  /** A `YYYY-MM-DD` date, short ("3 Nov"). */
  day: (date: string) => string;
  /** A `YYYY-MM-DD` date in full, for the tables and the summaries. */
  longDay: (date: string) => string;
  /** An hour of the day, 0–23 ("9 AM", "9"). */
  hour: (hour: number) => string;
}

const AXIS = { top: 8, right: 8, bottom: 26, left: 36 };

/**
 * A chart's card: its heading, the drawing (an image whose name is the heading and whose description is the
 * summary under it), and the figures as a table for screen readers.
 */
function ChartCard({
  title,
  hint,
  summary,
  table,
  children,
}: {
  title: string;
  hint?: string;
  summary: string;
  table: ReactNode;
  children: (label: { 'aria-labelledby': string; 'aria-describedby': string }) => ReactNode;
}) {
  const id = useId();
  return (
    <section className="analytics-card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="analytics-card__title">
        {title}
      </h2>
      {hint && <p className="analytics-card__hint">{hint}</p>}
      {children({ 'aria-labelledby': `${id}-title`, 'aria-describedby': `${id}-summary` })}
      <p id={`${id}-summary`} className="analytics-card__summary">
        {summary}
      </p>
      {table}
    </section>
  );
}

/** Horizontal grid lines and their values on the left. */
function ValueAxis({
  ticks,
  y,
  width,
  format,
}: {
  ticks: number[];
  y: (v: number) => number;
  width: number;
  format: (n: number) => string;
}) {
  return (
    <g className="analytics-axis">
      {ticks.map((tick) => (
        <g key={tick} transform={`translate(0, ${y(tick)})`}>
          <line x1={0} x2={width} className="analytics-axis__grid" />
          <text x={-6} dy="0.32em" textAnchor="end">
            {format(tick)}
          </text>
        </g>
      ))}
    </g>
  );
}

/** Whole numbers on a value axis from 0 to the largest figure (at least 1). */
function countScale(max: number, height: number) {
  const y = scaleLinear<number>({ domain: [0, Math.max(1, max)], range: [height, 0], nice: true });
  return { y, ticks: y.ticks(4).filter((tick) => Number.isInteger(tick)) };
}

/**
 * Conversations and answers per day, side by side, every day of the period. `conversations`: the period's (one that
 * went on over two days is one).
 */
/** A chart's figures as a table for screen readers (visually hidden): a caption, column headers, one row each. */
function FiguresTable({
  caption,
  columns,
  rows,
}: {
  caption: string;
  columns: string[];
  rows: Array<{ key: string; label: string; cells: string[] }>;
}) {
  return (
    <table className="visually-hidden">
      <caption>{caption}</caption>
      <thead>
        <tr>
          {columns.map((column) => (
            <th key={column} scope="col">
              {column}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.key}>
            <th scope="row">{row.label}</th>
            {row.cells.map((cell, i) => (
              <td key={i}>{cell}</td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function DailyChart({
  days,
  conversations,
  t,
  f,
}: {
  days: AnalyticsDay[];
  conversations: number;
  t: AnalyticsT;
  f: Formats;
}) {
  const [ref, width] = useWidth<HTMLDivElement>(640);
  const height = 220;
  const innerWidth = Math.max(0, width - AXIS.left - AXIS.right);
  const innerHeight = height - AXIS.top - AXIS.bottom;
  const x = scaleBand<string>({
    domain: days.map((d) => d.date),
    range: [0, innerWidth],
    paddingInner: days.length > 45 ? 0.15 : 0.3,
    paddingOuter: 0.1,
  });
  const series = scaleBand<'conversations' | 'answers'>({
    domain: ['conversations', 'answers'],
    range: [0, x.bandwidth()],
    padding: 0.1,
  });
  const { y, ticks } = countScale(Math.max(...days.map((d) => Math.max(d.conversations, d.answers))), innerHeight);
  const labelled = labelledDays(days.length, Math.floor(innerWidth / 56));
  const busiest = busiestDay(days);
  const summary = [
    t('daily.summary', {
      days: days.length,
      conversations: t('daily.conversationCount', { count: conversations }),
      answers: t('daily.answerCount', { count: days.reduce((n, d) => n + d.answers, 0) }),
    }),
    busiest
      ? t('daily.busiest', {
          day: f.longDay(busiest.date),
          conversations: t('daily.conversationCount', { count: busiest.conversations }),
        })
      : '',
  ]
    .join(' ')
    .trim();
  return (
    <ChartCard
      title={t('daily.title')}
      summary={summary}
      table={
        <FiguresTable
          caption={t('daily.title')}
          columns={[t('daily.date'), t('daily.conversations'), t('daily.answers')]}
          rows={days.map((d) => ({
            key: d.date,
            label: f.longDay(d.date),
            cells: [f.number(d.conversations), f.number(d.answers)],
          }))}
        />
      }
    >
      {(label) => (
        <>
          <ul className="analytics-legend" aria-hidden="true">
            <li>
              <span className="analytics-swatch analytics-swatch--conversations" />
              {t('daily.conversations')}
            </li>
            <li>
              <span className="analytics-swatch analytics-swatch--answers" />
              {t('daily.answers')}
            </li>
          </ul>
          <div ref={ref} className="analytics-chart">
            <svg width={width} height={height} role="img" {...label} data-testid="daily-chart">
              <Group left={AXIS.left} top={AXIS.top}>
                <ValueAxis ticks={ticks} y={y} width={innerWidth} format={f.number} />
                {days.map((d, i) => {
                  const left = x(d.date) ?? 0;
                  return (
                    <g key={d.date}>
                      <title>{`${f.longDay(d.date)}: ${t('daily.conversations')} ${f.number(d.conversations)}, ${t('daily.answers')} ${f.number(d.answers)}`}</title>
                      {(['conversations', 'answers'] as const).map((key) => (
                        <Bar
                          key={key}
                          className={`analytics-bar analytics-bar--${key}`}
                          x={left + (series(key) ?? 0)}
                          y={y(d[key])}
                          width={series.bandwidth()}
                          height={innerHeight - y(d[key])}
                        />
                      ))}
                      {labelled.has(i) && (
                        <text
                          className="analytics-axis analytics-axis__label"
                          // The last day's date ends under its bars, inside the chart (a phone has no room beyond).
                          x={i === days.length - 1 ? left + x.bandwidth() : left + x.bandwidth() / 2}
                          y={innerHeight + 18}
                          textAnchor={i === days.length - 1 ? 'end' : 'middle'}
                        >
                          {f.day(d.date)}
                        </text>
                      )}
                    </g>
                  );
                })}
                <line className="analytics-axis__base" x1={0} x2={innerWidth} y1={innerHeight} y2={innerHeight} />
              </Group>
            </svg>
          </div>
        </>
      )}
    </ChartCard>
  );
}

/** Questions by hour of the day (in the owner's time zone); the busiest hour stands out. */
export function HoursChart({ hours, t, f }: { hours: number[]; t: AnalyticsT; f: Formats }) {
  const [ref, width] = useWidth<HTMLDivElement>(640);
  const height = 180;
  const innerWidth = Math.max(0, width - AXIS.left - AXIS.right);
  const innerHeight = height - AXIS.top - AXIS.bottom;
  const x = scaleBand<number>({ domain: hours.map((_, h) => h), range: [0, innerWidth], padding: 0.2 });
  const { y, ticks } = countScale(Math.max(...hours), innerHeight);
  const busiest = busiestHour(hours);
  const total = hours.reduce((n, c) => n + c, 0);
  const every = innerWidth < 360 ? 6 : 3;
  return (
    <ChartCard
      title={t('hours.title')}
      summary={
        busiest
          ? t('hours.summary', {
              from: f.hour(busiest.hour),
              to: f.hour((busiest.hour + 1) % 24),
              count: f.number(busiest.count),
              total: f.number(total),
            })
          : t('hours.summaryNone')
      }
      table={
        <FiguresTable
          caption={t('hours.title')}
          columns={[t('hours.hour'), t('hours.questions')]}
          rows={hours.map((count, hour) => ({
            key: String(hour),
            label: `${f.hour(hour)}–${f.hour((hour + 1) % 24)}`,
            cells: [f.number(count)],
          }))}
        />
      }
    >
      {(label) => (
        <div ref={ref} className="analytics-chart">
          <svg width={width} height={height} role="img" {...label} data-testid="hours-chart">
            <Group left={AXIS.left} top={AXIS.top}>
              <ValueAxis ticks={ticks} y={y} width={innerWidth} format={f.number} />
              {hours.map((count, hour) => (
                <g key={hour}>
                  <title>{`${f.hour(hour)}–${f.hour((hour + 1) % 24)}: ${f.number(count)}`}</title>
                  <Bar
                    className={
                      busiest?.hour === hour
                        ? 'analytics-bar analytics-bar--busiest'
                        : 'analytics-bar analytics-bar--hours'
                    }
                    x={x(hour) ?? 0}
                    y={y(count)}
                    width={x.bandwidth()}
                    height={innerHeight - y(count)}
                  />
                  {hour % every === 0 && (
                    <text
                      className="analytics-axis analytics-axis__label"
                      x={(x(hour) ?? 0) + x.bandwidth() / 2}
                      y={innerHeight + 18}
                      textAnchor="middle"
                    >
                      {f.hour(hour)}
                    </text>
                  )}
                </g>
              ))}
              <line className="analytics-axis__base" x1={0} x2={innerWidth} y1={innerHeight} y2={innerHeight} />
            </Group>
          </svg>
        </div>
      )}
    </ChartCard>
  );
}

const SHARE_KEYS = ['answered', 'notCovered', 'ratedUp', 'ratedDown'] as const;

/** What share of the answers came from the documents, were not covered, were rated up and rated down. */
export function SharesChart({ totals, t, f }: { totals: AnalyticsTotals; t: AnalyticsT; f: Formats }) {
  const [ref, width] = useWidth<HTMLDivElement>(480);
  const share = shares(totals);
  const counts = {
    answered: totals.answers - totals.notCovered,
    notCovered: totals.notCovered,
    ratedUp: totals.ratedUp,
    ratedDown: totals.ratedDown,
  };
  const x = scaleLinear<number>({ domain: [0, 1], range: [0, Math.max(0, width)] });
  const percent = (key: (typeof SHARE_KEYS)[number]) => f.percent(share[key]);
  return (
    <ChartCard
      title={t('shares.title')}
      hint={t('shares.hint', { count: totals.answers })}
      summary={t('shares.summary', {
        count: f.number(totals.answers),
        answered: percent('answered'),
        notCovered: percent('notCovered'),
        ratedUp: percent('ratedUp'),
        ratedDown: percent('ratedDown'),
      })}
      table={
        <FiguresTable
          caption={t('shares.title')}
          columns={[t('shares.what'), t('shares.share'), t('shares.count')]}
          rows={SHARE_KEYS.map((key) => ({
            key,
            label: t(`shares.${key}`),
            cells: [percent(key), f.number(counts[key])],
          }))}
        />
      }
    >
      {(label) => (
        <div ref={ref} className="analytics-shares" role="img" {...label} data-testid="shares-chart">
          {SHARE_KEYS.map((key) => (
            <div key={key} className="analytics-share">
              <span className="analytics-share__label">{t(`shares.${key}`)}</span>
              <span className="analytics-share__value">
                {t('shares.value', { percent: percent(key), count: f.number(counts[key]) })}
              </span>
              <svg className="analytics-share__bar" width={width} height={10} aria-hidden="true">
                <rect className="analytics-share__track" x={0} y={0} width={width} height={10} rx={5} />
                {share[key] > 0 && (
                  <Bar
                    className={`analytics-bar analytics-bar--${key}`}
                    x={0}
                    y={0}
                    width={Math.max(4, x(share[key]))}
                    height={10}
                    rx={5}
                  />
                )}
              </svg>
            </div>
          ))}
        </div>
      )}
    </ChartCard>
  );
}
