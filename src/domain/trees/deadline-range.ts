import { sql, type RawBuilder, type SqlBool } from 'kysely';
import { normalizeDeadline } from './deadline.js';
import { dayStart, localDay, nextDay } from '../zoned-day.js';

export interface DeadlineBounds {
  deadline_after?: string;
  deadline_before?: string;
}

/** One side of the range, in both forms a stored deadline can take. */
interface Side {
  /** Compared with date deadlines (YYYY-MM-DD). */
  day: string;
  /** Compared with timestamp deadlines in their fixed-width form (see `fixedWidth`). */
  instant: string;
}

/**
 * A stored timestamp deadline is UTC with 0 to 6 fractional digits ("…:05Z", "…:05.5Z"), which
 * do not sort as text; this 27-character form (six digits always) does.
 */
function fixedWidth(normalized: string): string {
  const fraction = normalized.length > 20 ? normalized.slice(20, -1) : '';
  return `${normalized.slice(0, 19)}.${fraction.padEnd(6, '0')}Z`;
}

const isoSeconds = (ms: number) => new Date(ms).toISOString().slice(0, 19);

/**
 * Reads a bound (CONTRACT §18). A date means that whole day in the person's zone: `after` from
 * its first instant, `before` to its last. An instant X is compared as itself with timestamp
 * deadlines, and with date deadlines through the day it falls on there: a date deadline D (the
 * whole day D) ends at or after X exactly when D is on or after X's day, and starts at or
 * before X exactly when D is on or before it.
 */
function readSide(value: string, edge: 'after' | 'before', timeZone: string): Side {
  const normalized = normalizeDeadline(value, `/deadline_${edge}`)!;
  if (normalized.length === 10) {
    if (edge === 'after') return { day: normalized, instant: `${isoSeconds(dayStart(normalized, timeZone))}.000000Z` };
    return { day: normalized, instant: `${isoSeconds(dayStart(nextDay(normalized), timeZone) - 1000)}.999999Z` };
  }
  return { day: localDay(Date.parse(normalized.slice(0, 19) + 'Z'), timeZone), instant: fixedWidth(normalized) };
}

/** The SQL twin of fixedWidth over the stored column (substr, replace and || mean the same in SQLite and PostgreSQL). */
const storedFixedWidth = sql<string>`substr(deadline, 1, 19) || '.' || substr(replace(substr(deadline, 21), 'Z', '') || '000000', 1, 6) || 'Z'`;

/**
 * The filter of `deadline_after` / `deadline_before` (inclusive), or undefined when neither is
 * given; tasks without a deadline never pass it. The outer range on the bare column is what the
 * deadline indexes serve; the exact comparisons of each form follow.
 * @throws validation_failed (a bound that is not a date or a zoned date-time)
 */
export function deadlineFilter(
  bounds: DeadlineBounds,
  timeZone: string,
): { filters: Record<string, string>; where: RawBuilder<SqlBool> } | undefined {
  const after = bounds.deadline_after === undefined ? undefined : readSide(bounds.deadline_after, 'after', timeZone);
  const before =
    bounds.deadline_before === undefined ? undefined : readSide(bounds.deadline_before, 'before', timeZone);
  if (after === undefined && before === undefined) return undefined;
  const days: RawBuilder<SqlBool>[] = [sql<SqlBool>`length(deadline) = 10`];
  const instants: RawBuilder<SqlBool>[] = [sql<SqlBool>`length(deadline) > 10`];
  const outer: RawBuilder<SqlBool>[] = [sql<SqlBool>`deadline is not null`];
  if (after !== undefined) {
    const lowest = [after.day, after.instant.slice(0, 19)].sort()[0]!;
    outer.push(sql<SqlBool>`deadline >= ${lowest}`);
    days.push(sql<SqlBool>`deadline >= ${after.day}`);
    instants.push(sql<SqlBool>`${storedFixedWidth} >= ${after.instant}`);
  }
  if (before !== undefined) {
    // A timestamp within the bound's second sorts at most at "<that second>Z".
    const highest = [before.day, `${before.instant.slice(0, 19)}Z`].sort()[1]!;
    outer.push(sql<SqlBool>`deadline <= ${highest}`);
    days.push(sql<SqlBool>`deadline <= ${before.day}`);
    instants.push(sql<SqlBool>`${storedFixedWidth} <= ${before.instant}`);
  }
  const and = (parts: RawBuilder<SqlBool>[]) => sql<SqlBool>`(${sql.join(parts, sql` and `)})`;
  return {
    // The cursor is bound to the bounds as given and to the zone they were read in.
    filters: {
      ...(bounds.deadline_after !== undefined ? { deadline_after: bounds.deadline_after } : {}),
      ...(bounds.deadline_before !== undefined ? { deadline_before: bounds.deadline_before } : {}),
      deadline_zone: timeZone,
    },
    where: sql<SqlBool>`(${and(outer)} and (${and(days)} or ${and(instants)}))`,
  };
}
