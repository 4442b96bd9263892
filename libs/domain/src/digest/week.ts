/**
 * When the weekly digest goes (issue 35 item 4): on Monday from 08:00 in the owner's time zone (UTC when they have
 * none), once per local week, telling the seven days from the Monday before to the Sunday just ended. Dates are local
 * calendar dates, `YYYY-MM-DD`.
 */

/** The local hour on Monday from which the digest is due. */
const DIGEST_HOUR = 8;
/** The zone of an owner who has none (the app sends the browser's at the first signed-in visit). */
const DEFAULT_ZONE = 'UTC';

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
/** Every zone's offset lies between UTC−12 and UTC+14. */
const MOST_AHEAD_HOURS = 14;
const MOST_BEHIND_HOURS = 12;
/**
 * The digest is due somewhere from Monday 08:00 where the clock is furthest ahead (Sunday 18:00 UTC) to Tuesday 00:00
 * where it is furthest behind (Tuesday 12:00 UTC). Six hours later, that span is Monday 00:00 to Tuesday 18:00 UTC.
 */
const SWEEP_SHIFT_HOURS = MOST_AHEAD_HOURS - DIGEST_HOUR;
const SWEEP_END_HOUR = MOST_BEHIND_HOURS + SWEEP_SHIFT_HOURS;

/** `YYYY-MM-DD` plus `n` days (negative: before). */
function addDays(date: string, n: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);
}

/** The ISO weekday of a date: 1 Monday … 7 Sunday. */
function weekday(date: string): number {
  return new Date(`${date}T00:00:00Z`).getUTCDay() || 7;
}

/** One formatter per zone (building one costs far more than using it, and a sweep reads many owners' clocks). */
const formats = new Map<string, Intl.DateTimeFormat>();

/** The formatter of a zone's local date and hour; throws a RangeError for a zone the platform does not know. */
function formatOf(timeZone: string): Intl.DateTimeFormat {
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      hourCycle: 'h23',
    });
    formats.set(timeZone, format);
  }
  return format;
}

/** The zone the platform knows by `name`, or UTC (none, or a zone stored before the platform's data dropped it). */
export function zoneOrDefault(name: string | null | undefined): string {
  if (!name) return DEFAULT_ZONE;
  try {
    formatOf(name);
    return name;
  } catch {
    return DEFAULT_ZONE;
  }
}

/** The local date and hour of an instant in a zone the platform knows. */
function localTime(at: Date, timeZone: string): { date: string; hour: number } {
  const parts = formatOf(timeZone).formatToParts(at);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  return { date: `${part('year')}-${part('month')}-${part('day')}`, hour: Number(part('hour')) };
}

/** A digest's week: the local Monday it goes on, and the seven days it tells (Monday to Sunday, the week before). */
export interface DigestWeek {
  monday: string;
  from: string;
  to: string;
}

/** The week a digest sent on the local date `monday` tells. */
function weekBefore(monday: string): DigestWeek {
  return { monday, from: addDays(monday, -7), to: addDays(monday, -1) };
}

/**
 * Whether the digest is due at `now` to an owner in `timeZone` (null: UTC) whose last digest handled was for the week
 * of `sentOn`: it is Monday, 08:00 or later, there, and that Monday's digest was not handled yet. Answers the week when
 * it is.
 */
export function dueDigest(v: { now: Date; timeZone: string | null; sentOn: string | null }): DigestWeek | undefined {
  const local = localTime(v.now, zoneOrDefault(v.timeZone));
  if (weekday(local.date) !== 1 || local.hour < DIGEST_HOUR) return undefined;
  if (v.sentOn !== null && v.sentOn >= local.date) return undefined;
  return weekBefore(local.date);
}

/**
 * The Monday the digest may be due on somewhere at `now`, or undefined when it is due nowhere. Monday 08:00 to midnight
 * local is, across the zones, Sunday 18:00 to Tuesday 12:00 UTC: 42 hours in which every zone's Monday is the same
 * date. A sweep outside them reads nothing; inside, only the owners whose week of that Monday was not handled yet.
 */
export function sweepMonday(now: Date): string | undefined {
  const shifted = new Date(now.getTime() + SWEEP_SHIFT_HOURS * HOUR_MS);
  const date = shifted.toISOString().slice(0, 10);
  if (weekday(date) === 1) return date;
  if (weekday(date) === 2 && shifted.getUTCHours() < SWEEP_END_HOUR) return addDays(date, -1);
  return undefined;
}
