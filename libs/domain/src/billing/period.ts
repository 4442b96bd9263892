/**
 * Billing periods (plain dates in, plain dates out). The free plan counts usage by calendar month (UTC); a paid plan
 * by month-long periods from the day it was paid, or by the provider's periods when it sends them.
 */

export interface Period {
  start: Date;
  end: Date;
}

/** The first instant of the calendar month of `d` (UTC), and the one after. */
export function calendarMonth(d: Date): Period {
  const start = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1));
  const end = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1));
  return { start, end };
}

/**
 * The same instant a month later (UTC), as `Date.setUTCMonth` moves it: a day the next month lacks runs over into
 * the month after (31 January + 1 month = 3 March, or 2 March in a leap year).
 */
export function addMonth(d: Date): Date {
  const next = new Date(d);
  next.setUTCMonth(next.getUTCMonth() + 1);
  return next;
}

/** Whether a period ending at `end` is over at `now` (its end is the first instant of the next one). */
export function periodEnded(end: Date, now: Date): boolean {
  return end.getTime() <= now.getTime();
}

/**
 * The period that holds `now` after `current` ended, or undefined while `current` runs (usage starts again when
 * there is one). The free plan moves to `now`'s calendar month; a paid plan by whole months from its period's end,
 * as many as have passed.
 */
export function rolledPeriod(current: Period & { free: boolean }, now: Date): Period | undefined {
  if (!periodEnded(current.end, now)) return undefined;
  if (current.free) return calendarMonth(now);
  let { start, end } = current;
  while (periodEnded(end, now)) {
    start = end;
    end = addMonth(end);
  }
  return { start, end };
}

/**
 * What the provider's state of a subscription changes in ours: a period that starts later than ours is a renewal
 * (the new period, usage starts again); otherwise only a later end is taken (the same period, extended).
 */
export function providerPeriodChange(
  ours: Period,
  provider: Period,
): { renewed: true; period: Period } | { renewed: false; end?: Date } {
  if (provider.start.getTime() > ours.start.getTime()) return { renewed: true, period: provider };
  return provider.end.getTime() > ours.end.getTime() ? { renewed: false, end: provider.end } : { renewed: false };
}
