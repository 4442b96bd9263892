import { addMonth, calendarMonth, periodEnded, providerPeriodChange, rolledPeriod } from './period';

const d = (iso: string) => new Date(iso);

describe('calendarMonth', () => {
  it('is the UTC month holding the instant, its first instant to the next month’s', () => {
    expect(calendarMonth(d('2026-11-28T21:00:00Z'))).toEqual({
      start: d('2026-11-01T00:00:00Z'),
      end: d('2026-12-01T00:00:00Z'),
    });
  });

  it('rolls December into January of the next year', () => {
    expect(calendarMonth(d('2026-12-31T23:59:59.999Z'))).toEqual({
      start: d('2026-12-01T00:00:00Z'),
      end: d('2027-01-01T00:00:00Z'),
    });
  });

  it('takes the first instant of a month as that month, not the one before', () => {
    expect(calendarMonth(d('2027-03-01T00:00:00Z')).start).toEqual(d('2027-03-01T00:00:00Z'));
  });

  it('counts in UTC whatever the local time zone says', () => {
    // 23:30 on 31 January in UTC-2 is already February in UTC.
    expect(calendarMonth(d('2027-01-31T23:30:00-02:00')).start).toEqual(d('2027-02-01T00:00:00Z'));
  });
});

describe('addMonth', () => {
  it('keeps the day and the time of day', () => {
    expect(addMonth(d('2026-11-15T10:20:30Z'))).toEqual(d('2026-12-15T10:20:30Z'));
    expect(addMonth(d('2026-12-15T10:20:30Z'))).toEqual(d('2027-01-15T10:20:30Z'));
  });

  it('runs a day the next month lacks over into the month after (Date.setUTCMonth)', () => {
    expect(addMonth(d('2027-01-31T12:00:00Z'))).toEqual(d('2027-03-03T12:00:00Z'));
    expect(addMonth(d('2026-03-31T00:00:00Z'))).toEqual(d('2026-05-01T00:00:00Z'));
  });

  it('gives 29 February in a leap year, and runs 29–31 January past it by one day less', () => {
    expect(addMonth(d('2028-01-29T00:00:00Z'))).toEqual(d('2028-02-29T00:00:00Z'));
    expect(addMonth(d('2028-01-31T00:00:00Z'))).toEqual(d('2028-03-02T00:00:00Z'));
    expect(addMonth(d('2027-01-29T00:00:00Z'))).toEqual(d('2027-03-01T00:00:00Z'));
  });

  it('does not change the date it was given', () => {
    const start = d('2026-11-15T00:00:00Z');
    addMonth(start);
    expect(start).toEqual(d('2026-11-15T00:00:00Z'));
  });
});

describe('periodEnded', () => {
  const end = d('2026-12-01T00:00:00Z');
  it('is over from its end’s instant on, not a millisecond before', () => {
    expect(periodEnded(end, d('2026-11-30T23:59:59.999Z'))).toBe(false);
    expect(periodEnded(end, end)).toBe(true);
    expect(periodEnded(end, d('2026-12-01T00:00:00.001Z'))).toBe(true);
  });
});

describe('rolledPeriod', () => {
  const paid = { start: d('2026-10-15T09:00:00Z'), end: d('2026-11-15T09:00:00Z'), free: false };
  const free = { start: d('2026-10-01T00:00:00Z'), end: d('2026-11-01T00:00:00Z'), free: true };

  it('is undefined while the period runs', () => {
    expect(rolledPeriod(paid, d('2026-11-15T08:59:59.999Z'))).toBeUndefined();
    expect(rolledPeriod(free, d('2026-10-31T23:59:59Z'))).toBeUndefined();
  });

  it('moves a paid plan one month on from its end, at its end’s instant', () => {
    expect(rolledPeriod(paid, d('2026-11-15T09:00:00Z'))).toEqual({
      start: d('2026-11-15T09:00:00Z'),
      end: d('2026-12-15T09:00:00Z'),
    });
  });

  it('moves a paid plan as many whole months as have passed, keeping its anniversary', () => {
    expect(rolledPeriod(paid, d('2027-02-20T00:00:00Z'))).toEqual({
      start: d('2027-02-15T09:00:00Z'),
      end: d('2027-03-15T09:00:00Z'),
    });
  });

  it('moves the free plan to the calendar month of now, however long it was idle', () => {
    expect(rolledPeriod(free, d('2027-03-10T12:00:00Z'))).toEqual(calendarMonth(d('2027-03-10T12:00:00Z')));
    expect(rolledPeriod(free, d('2026-11-01T00:00:00Z'))).toEqual({
      start: d('2026-11-01T00:00:00Z'),
      end: d('2026-12-01T00:00:00Z'),
    });
  });

  it('moves a paid plan paid on 31 January through February in a leap year as addMonth does', () => {
    const jan31 = { start: d('2027-12-31T00:00:00Z'), end: d('2028-01-31T00:00:00Z'), free: false };
    expect(rolledPeriod(jan31, d('2028-02-10T00:00:00Z'))).toEqual({
      start: d('2028-01-31T00:00:00Z'),
      end: d('2028-03-02T00:00:00Z'),
    });
  });
});

describe('providerPeriodChange', () => {
  const ours = { start: d('2026-11-15T00:00:00Z'), end: d('2026-12-15T00:00:00Z') };

  it('is a renewal when the provider’s period starts later than ours', () => {
    const next = { start: d('2026-12-15T00:00:00Z'), end: d('2027-01-15T00:00:00Z') };
    expect(providerPeriodChange(ours, next)).toEqual({ renewed: true, period: next });
  });

  it('takes only a later end for the same start (the same period, extended)', () => {
    const longer = { start: ours.start, end: d('2026-12-20T00:00:00Z') };
    expect(providerPeriodChange(ours, longer)).toEqual({ renewed: false, end: longer.end });
  });

  it('changes nothing for the same period, an earlier end, or an older period (a late event)', () => {
    expect(providerPeriodChange(ours, ours)).toEqual({ renewed: false });
    expect(providerPeriodChange(ours, { start: ours.start, end: d('2026-12-10T00:00:00Z') })).toEqual({
      renewed: false,
    });
    expect(providerPeriodChange(ours, { start: d('2026-10-15T00:00:00Z'), end: d('2026-11-15T00:00:00Z') })).toEqual({
      renewed: false,
    });
  });
});
