/**
 * The owner's time zone (issue 35 item 4): the weekly digest goes on Monday morning there. The app sends the browser's
 * once, when the account has none (`useAccountTimeZone`); the profile's weekly e-mail dialog changes it.
 */

/** The browser's time zone (IANA, e.g. `Europe/Madrid`), or undefined when it does not say. */
export function browserTimeZone(): string | undefined {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || undefined;
  } catch {
    return undefined;
  }
}

/** The zones to choose from: the platform's, with UTC and `current` (a name it may list otherwise), sorted. */
export function timeZoneChoices(current: string | undefined): string[] {
  let zones: string[] = [];
  try {
    zones = Intl.supportedValuesOf('timeZone');
  } catch {
    // An old browser: only the current zone and UTC.
  }
  return [...new Set([...zones, 'UTC', ...(current ? [current] : [])])].sort((a, b) => a.localeCompare(b, 'en'));
}

/** A zone's name as people read it: `America/Argentina/Buenos_Aires` → `America / Argentina / Buenos Aires`. */
export function timeZoneLabel(zone: string): string {
  return zone.replace(/_/g, ' ').replace(/\//g, ' / ');
}
