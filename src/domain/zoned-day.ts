/**
 * Calendar days in a person's time zone (their profile's `timezone`), for rules that read a
 * date as "that whole day where the person lives" (CONTRACT §18: deadline bounds, the Upcoming
 * groups). A leaf module with no imports: the web app reads days by the same rule as the API.
 */

const formatters = new Map<string, Intl.DateTimeFormat>();

/** One formatter per zone: building an Intl.DateTimeFormat costs far more than using one. */
function formatter(timeZone: string): Intl.DateTimeFormat {
  let found = formatters.get(timeZone);
  if (found === undefined) {
    found = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, found);
  }
  return found;
}

function wallClock(instant: number, timeZone: string): { day: string; asUtc: number } {
  const parts = formatter(timeZone).formatToParts(new Date(instant));
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '00';
  const day = `${get('year').padStart(4, '0')}-${get('month')}-${get('day')}`;
  const asUtc = Date.UTC(
    Number(get('year')),
    Number(get('month')) - 1,
    Number(get('day')),
    Number(get('hour')),
    Number(get('minute')),
    Number(get('second')),
  );
  return { day, asUtc };
}

/** The calendar day (YYYY-MM-DD) an instant (ms) falls on in the zone. */
export function localDay(instant: number, timeZone: string): string {
  return wallClock(instant, timeZone).day;
}

/** Milliseconds the zone is ahead of UTC at an instant. */
export function offsetAt(instant: number, timeZone: string): number {
  return wallClock(instant, timeZone).asUtc - Math.floor(instant / 1000) * 1000;
}

/** Midnight UTC of a day; unlike Date.UTC, years below 100 stay as given. */
function utcDay(y: number, m: number, d: number): number {
  const date = new Date(0);
  date.setUTCFullYear(y, m - 1, d);
  return date.getTime();
}

/** The day after a YYYY-MM-DD day. */
export function nextDay(day: string): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(utcDay(y, m, d + 1)).toISOString().slice(0, 10);
}

/** The first instant (ms) of a YYYY-MM-DD day in the zone (where midnight is skipped, the first hour that exists). */
export function dayStart(day: string, timeZone: string): number {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const wall = utcDay(y, m, d);
  // The zone's offset at a guess, then again at the corrected instant (a DST change may lie between).
  let instant = wall - offsetAt(wall, timeZone);
  instant = wall - offsetAt(instant, timeZone);
  while (localDay(instant, timeZone) < day) instant += 15 * 60_000;
  return instant;
}
