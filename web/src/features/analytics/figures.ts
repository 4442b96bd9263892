import type { AnalyticsDay, AnalyticsTotals } from '@sparks/contracts';

/**
 * The analytics pages' arithmetic, without React: the periods offered, the days of a period, the shares of the
 * answers, the busiest day and hour, and which days get a label under the chart.
 */

/** The periods the owner chooses from (days); the api takes 1 to 90. */
export const PERIODS = [7, 30, 90] as const;
export type Period = (typeof PERIODS)[number];
const DEFAULT_PERIOD: Period = 30;

/** The period a `?days=` value names; anything else, the default (30 days). */
export function periodOf(value: string | null): Period {
  const days = Number(value);
  return (PERIODS as readonly number[]).includes(days) ? (days as Period) : DEFAULT_PERIOD;
}

/** Nothing happened in the period: no conversation, no answer, no rating. */
export function isEmpty(t: AnalyticsTotals): boolean {
  return t.conversations + t.questions + t.answers + t.ratedUp + t.ratedDown === 0;
}

/** `YYYY-MM-DD` plus `n` days. */
function addDays(date: string, n: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
}

/**
 * Every day from `from` to `to`, oldest first: the day's figures where `days` has them, zeros elsewhere (the api sends
 * them all; a chart must never draw a missing day as no gap).
 */
export function completeDays(days: readonly AnalyticsDay[], from: string, to: string): AnalyticsDay[] {
  const byDate = new Map(days.map((d) => [d.date, d]));
  const out: AnalyticsDay[] = [];
  for (let date = from; date <= to && out.length <= 366; date = addDays(date, 1)) {
    out.push(byDate.get(date) ?? { date, conversations: 0, answers: 0, notCovered: 0, ratedUp: 0, ratedDown: 0 });
  }
  return out;
}

export interface Shares {
  /** Answers from the documents (answers that were not "not covered"). */
  answered: number;
  notCovered: number;
  ratedUp: number;
  ratedDown: number;
}

/**
 * Each figure as a share (0–1) of the period's answers, all 0 without answers. Ratings are counted on the day they
 * were given, so a short period may hold ratings of older answers: a share never goes past 1.
 */
export function shares(t: AnalyticsTotals): Shares {
  const of = (n: number) => (t.answers > 0 ? Math.min(1, Math.max(0, n / t.answers)) : 0);
  return {
    answered: of(t.answers - t.notCovered),
    notCovered: of(t.notCovered),
    ratedUp: of(t.ratedUp),
    ratedDown: of(t.ratedDown),
  };
}

/** The day with the most conversations (the latest of equals); none when no day has any. */
export function busiestDay(days: readonly AnalyticsDay[]): AnalyticsDay | undefined {
  let best: AnalyticsDay | undefined;
  for (const d of days) if (d.conversations > 0 && (!best || d.conversations >= best.conversations)) best = d;
  return best;
}

/** The hour (0–23) with the most questions (the earliest of equals), and how many; none without questions. */
export function busiestHour(hours: readonly number[]): { hour: number; count: number } | undefined {
  let best: { hour: number; count: number } | undefined;
  hours.forEach((count, hour) => {
    if (count > 0 && (!best || count > best.count)) best = { hour, count };
  });
  return best;
}

/**
 * Which of `count` days get a date under the chart so that at most `max` labels fit: evenly spaced, counted back
 * from the last day (today always has its label).
 */
export function labelledDays(count: number, max: number): Set<number> {
  const step = Math.max(1, Math.ceil(count / Math.max(1, max)));
  const out = new Set<number>();
  for (let i = count - 1; i >= 0; i -= step) out.add(i);
  return out;
}
