import type { AnalyticsDay, AnalyticsTotals } from '@sparks/contracts';

import { busiestDay, busiestHour, completeDays, isEmpty, labelledDays, periodOf, shares } from './figures';

const day = (date: string, conversations = 0, answers = 0): AnalyticsDay => ({
  date,
  conversations,
  answers,
  notCovered: 0,
  ratedUp: 0,
  ratedDown: 0,
});
const totals = (t: Partial<AnalyticsTotals>): AnalyticsTotals => ({
  conversations: 0,
  questions: 0,
  answers: 0,
  notCovered: 0,
  ratedUp: 0,
  ratedDown: 0,
  ...t,
});

describe('periodOf', () => {
  it('takes 7, 30 and 90 days, and 30 for anything else', () => {
    expect(['7', '30', '90'].map(periodOf)).toEqual([7, 30, 90]);
    expect([null, '', '14', '91', 'abc', '7.0x'].map(periodOf)).toEqual([30, 30, 30, 30, 30, 30]);
  });
});

describe('completeDays', () => {
  it('fills the days the answer lacks with zeros, oldest first, across a month and a year', () => {
    const filled = completeDays([day('2026-01-01', 3, 4), day('2025-12-30', 1, 1)], '2025-12-29', '2026-01-02');
    expect(filled.map((d) => [d.date, d.conversations, d.answers])).toEqual([
      ['2025-12-29', 0, 0],
      ['2025-12-30', 1, 1],
      ['2025-12-31', 0, 0],
      ['2026-01-01', 3, 4],
      ['2026-01-02', 0, 0],
    ]);
  });

  it('keeps to the period: days outside it are left out; one day is one day', () => {
    expect(completeDays([day('2026-03-01', 9)], '2026-03-02', '2026-03-03').map((d) => d.conversations)).toEqual([
      0, 0,
    ]);
    expect(completeDays([], '2026-03-29', '2026-03-29')).toEqual([day('2026-03-29')]);
    // A daylight-saving change does not skip or double a day (dates are counted in UTC).
    expect(completeDays([], '2026-03-28', '2026-03-30').map((d) => d.date)).toEqual([
      '2026-03-28',
      '2026-03-29',
      '2026-03-30',
    ]);
  });
});

describe('shares', () => {
  it('gives each figure as a share of the answers', () => {
    expect(shares(totals({ answers: 8, notCovered: 2, ratedUp: 4, ratedDown: 1 }))).toEqual({
      answered: 0.75,
      notCovered: 0.25,
      ratedUp: 0.5,
      ratedDown: 0.125,
    });
  });

  it('is 0 without answers, and never more than the whole (ratings of older answers)', () => {
    expect(shares(totals({ ratedUp: 2 }))).toEqual({ answered: 0, notCovered: 0, ratedUp: 0, ratedDown: 0 });
    expect(shares(totals({ answers: 2, ratedDown: 5 })).ratedDown).toBe(1);
  });
});

describe('isEmpty', () => {
  it('is empty only when nothing at all happened', () => {
    expect(isEmpty(totals({}))).toBe(true);
    expect(isEmpty(totals({ ratedDown: 1 }))).toBe(false);
    expect(isEmpty(totals({ conversations: 1, questions: 1 }))).toBe(false);
  });
});

describe('busiestDay and busiestHour', () => {
  it('finds the day with most conversations (the latest of equals), none on a quiet period', () => {
    expect(busiestDay([day('2026-01-01', 2), day('2026-01-02', 5), day('2026-01-03', 5)])?.date).toBe('2026-01-03');
    expect(busiestDay([day('2026-01-01', 0, 3)])).toBeUndefined();
  });

  it('finds the hour with most questions (the earliest of equals), none without questions', () => {
    const hours = Array<number>(24).fill(0);
    hours[9] = 4;
    hours[17] = 4;
    hours[12] = 2;
    expect(busiestHour(hours)).toEqual({ hour: 9, count: 4 });
    expect(busiestHour(Array<number>(24).fill(0))).toBeUndefined();
  });
});

describe('labelledDays', () => {
  it('labels every day when they fit, else evenly spaced ones ending on the last', () => {
    expect([...labelledDays(7, 8)].sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    const ninety = [...labelledDays(90, 6)].sort((a, b) => a - b);
    expect(ninety.length).toBeLessThanOrEqual(6);
    expect(ninety.at(-1)).toBe(89);
    expect(new Set(ninety.slice(1).map((d, i) => d - ninety[i]))).toEqual(new Set([15]));
  });
});
