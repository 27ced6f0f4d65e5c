import { offsetAt } from '../../../src/domain/zoned-day.js';

/**
 * A wall-clock time typed in a <input type="datetime-local"> ("2026-12-24T18:00"), read in the
 * person's own time zone (their profile's, not the browser's), as a UTC instant for the API.
 */
export function zonedToIso(local: string, timeZone: string): string | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(local);
  if (m === null) return null;
  const [, y, mo, d, h, mi] = m.map(Number) as [number, number, number, number, number, number];
  const wall = Date.UTC(y, mo - 1, d, h, mi);
  // The zone's offset at the guess, then again at the corrected instant (a DST change may lie between).
  let instant = wall - offsetAt(wall, timeZone);
  instant = wall - offsetAt(instant, timeZone);
  return new Date(instant).toISOString();
}
