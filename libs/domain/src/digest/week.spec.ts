import { dueDigest, sweepMonday, zoneOrDefault } from './week';

/** 2026-11-30 is a Monday. */
const MONDAY = '2026-11-30';
const WEEK = { monday: MONDAY, from: '2026-11-23', to: '2026-11-29' };
const at = (iso: string) => new Date(iso);

describe('dueDigest', () => {
  it('is due on Monday from 08:00 in the owner’s zone, for the Monday-to-Sunday week before', () => {
    expect(dueDigest({ now: at('2026-11-30T07:59:59Z'), timeZone: 'UTC', sentOn: null })).toBeUndefined();
    expect(dueDigest({ now: at('2026-11-30T08:00:00Z'), timeZone: 'UTC', sentOn: null })).toEqual(WEEK);
    expect(dueDigest({ now: at('2026-11-30T23:59:59Z'), timeZone: 'UTC', sentOn: null })).toEqual(WEEK);
    // Tuesday, Sunday: not a Monday, even when the Monday was missed.
    expect(dueDigest({ now: at('2026-12-01T00:00:00Z'), timeZone: 'UTC', sentOn: null })).toBeUndefined();
    expect(dueDigest({ now: at('2026-11-29T12:00:00Z'), timeZone: 'UTC', sentOn: null })).toBeUndefined();
  });

  it('reads the day and the hour in the zone: Tokyo’s Monday 08:00 is Sunday 23:00 UTC, Los Angeles’ is 16:00 UTC', () => {
    expect(dueDigest({ now: at('2026-11-29T22:59:00Z'), timeZone: 'Asia/Tokyo', sentOn: null })).toBeUndefined();
    expect(dueDigest({ now: at('2026-11-29T23:00:00Z'), timeZone: 'Asia/Tokyo', sentOn: null })).toEqual(WEEK);
    // Monday 09:00 UTC is still 01:00 in Los Angeles (PST, UTC−8); Monday 16:00 UTC is 08:00 there.
    expect(
      dueDigest({ now: at('2026-11-30T09:00:00Z'), timeZone: 'America/Los_Angeles', sentOn: null }),
    ).toBeUndefined();
    expect(dueDigest({ now: at('2026-11-30T16:00:00Z'), timeZone: 'America/Los_Angeles', sentOn: null })).toEqual(WEEK);
    // Tuesday 07:00 UTC is Monday 23:00 in Los Angeles: still due.
    expect(dueDigest({ now: at('2026-12-01T07:00:00Z'), timeZone: 'America/Los_Angeles', sentOn: null })).toEqual(WEEK);
    // Half-hour zones: India is UTC+5:30, so 08:00 there is 02:30 UTC.
    expect(dueDigest({ now: at('2026-11-30T02:29:00Z'), timeZone: 'Asia/Kolkata', sentOn: null })).toBeUndefined();
    expect(dueDigest({ now: at('2026-11-30T02:30:00Z'), timeZone: 'Asia/Kolkata', sentOn: null })).toEqual(WEEK);
  });

  it('goes by the summer time in force: Madrid’s Monday 08:00 is 06:00 UTC in summer and 07:00 in winter', () => {
    expect(dueDigest({ now: at('2026-03-30T05:59:00Z'), timeZone: 'Europe/Madrid', sentOn: null })).toBeUndefined();
    expect(dueDigest({ now: at('2026-03-30T06:00:00Z'), timeZone: 'Europe/Madrid', sentOn: null })).toMatchObject({
      monday: '2026-03-30',
      from: '2026-03-23',
      to: '2026-03-29',
    });
    expect(dueDigest({ now: at('2026-11-30T06:59:00Z'), timeZone: 'Europe/Madrid', sentOn: null })).toBeUndefined();
    expect(dueDigest({ now: at('2026-11-30T07:00:00Z'), timeZone: 'Europe/Madrid', sentOn: null })).toEqual(WEEK);
  });

  it('is due once per week: not again once that Monday was handled, again the next Monday', () => {
    const now = at('2026-11-30T10:00:00Z');
    expect(dueDigest({ now, timeZone: 'UTC', sentOn: '2026-11-23' })).toEqual(WEEK);
    expect(dueDigest({ now, timeZone: 'UTC', sentOn: MONDAY })).toBeUndefined();
    // A week handled in a zone further ahead (the owner moved since) is not sent again.
    expect(dueDigest({ now, timeZone: 'UTC', sentOn: '2026-12-07' })).toBeUndefined();
    expect(dueDigest({ now: at('2026-12-07T10:00:00Z'), timeZone: 'UTC', sentOn: MONDAY })).toEqual({
      monday: '2026-12-07',
      from: MONDAY,
      to: '2026-12-06',
    });
  });

  it('takes UTC for an owner with no zone, or with one the platform does not know', () => {
    expect(dueDigest({ now: at('2026-11-30T08:00:00Z'), timeZone: null, sentOn: null })).toEqual(WEEK);
    expect(dueDigest({ now: at('2026-11-30T08:00:00Z'), timeZone: 'Mars/Olympus_Mons', sentOn: null })).toEqual(WEEK);
    expect(zoneOrDefault(null)).toBe('UTC');
    expect(zoneOrDefault('Mars/Olympus_Mons')).toBe('UTC');
    expect(zoneOrDefault('Europe/Madrid')).toBe('Europe/Madrid');
  });

  it('crosses months and years', () => {
    // 2029-01-01 is a Monday: the week before is the last of 2028.
    expect(dueDigest({ now: at('2029-01-01T09:00:00Z'), timeZone: 'UTC', sentOn: null })).toEqual({
      monday: '2029-01-01',
      from: '2028-12-25',
      to: '2028-12-31',
    });
  });
});

describe('sweepMonday', () => {
  it('is the Monday from Sunday 18:00 UTC (Monday 08:00 at UTC+14) to Tuesday 12:00 UTC (midnight at UTC−12)', () => {
    expect(sweepMonday(at('2026-11-29T17:59:59Z'))).toBeUndefined();
    expect(sweepMonday(at('2026-11-29T18:00:00Z'))).toBe(MONDAY);
    expect(sweepMonday(at('2026-11-30T00:00:00Z'))).toBe(MONDAY);
    expect(sweepMonday(at('2026-11-30T23:00:00Z'))).toBe(MONDAY);
    expect(sweepMonday(at('2026-12-01T11:59:59Z'))).toBe(MONDAY);
    expect(sweepMonday(at('2026-12-01T12:00:00Z'))).toBeUndefined();
    expect(sweepMonday(at('2026-12-03T12:00:00Z'))).toBeUndefined();
  });

  it('covers every instant some zone is due at', () => {
    const zones = ['Pacific/Kiritimati', 'Asia/Tokyo', 'Asia/Kolkata', 'UTC', 'America/Los_Angeles', 'Etc/GMT+12'];
    for (let t = Date.parse('2026-11-28T00:00:00Z'); t < Date.parse('2026-12-03T00:00:00Z'); t += 30 * 60_000) {
      const now = new Date(t);
      for (const timeZone of zones) {
        const due = dueDigest({ now, timeZone, sentOn: null });
        if (due) expect({ now, timeZone, monday: sweepMonday(now) }).toEqual({ now, timeZone, monday: due.monday });
      }
    }
    // The zones furthest ahead and behind are due at the two ends of the span.
    expect(dueDigest({ now: at('2026-11-29T18:00:00Z'), timeZone: 'Pacific/Kiritimati', sentOn: null })).toEqual(WEEK);
    expect(dueDigest({ now: at('2026-12-01T11:59:00Z'), timeZone: 'Etc/GMT+12', sentOn: null })).toEqual(WEEK);
  });
});
