import { localDay, nextDay } from '../../../src/domain/zoned-day';
import type { Task } from '../api/types';

/** The groups of the Upcoming page, in the order it shows them (CONTRACT §18). */
export const DUE_GROUPS = ['overdue', 'today', 'week', 'later'] as const;
export type DueGroup = (typeof DUE_GROUPS)[number];

/** Today in the person's zone (YYYY-MM-DD). */
export function today(timeZone: string, now = Date.now()): string {
  return localDay(now, timeZone);
}

/** The day a deadline falls on for the person: a date is that day; a timestamp, its day in their zone. */
export function dueDay(deadline: string, timeZone: string): string {
  return deadline.length === 10 ? deadline : localDay(Date.parse(deadline), timeZone);
}

/**
 * Soonest first as the person sees them: by their day, a date (the whole day) before the timed
 * deadlines of that day, timed ones by their instant. Comparing the stored text would put a
 * date before every timestamp of the day before it in the person's zone.
 */
export function dueOrder(timeZone: string): (a: string, b: string) => number {
  const key = (deadline: string) =>
    deadline.length === 10 ? `${deadline} 0` : `${dueDay(deadline, timeZone)} 1 ${Date.parse(deadline) + 1e15}`;
  return (a, b) => {
    const ka = key(a);
    const kb = key(b);
    return ka < kb ? -1 : ka > kb ? 1 : 0;
  };
}

function plusDays(day: string, n: number): string {
  let out = day;
  for (let i = 0; i < n; i++) out = nextDay(out);
  return out;
}

/** Overdue before today, Today, Next 7 days (tomorrow to today + 7), Later. */
export function dueGroup(deadline: string, timeZone: string, todayDay: string): DueGroup {
  const day = dueDay(deadline, timeZone);
  if (day < todayDay) return 'overdue';
  if (day === todayDay) return 'today';
  return day <= plusDays(todayDay, 7) ? 'week' : 'later';
}

/** Still to do: the statuses Upcoming shows and an overdue mark applies to (not done, deferred or archived). */
export function isOpen(task: Pick<Task, 'status'>): boolean {
  return task.status === 'todo' || task.status === 'open';
}

/** An open task whose deadline's day is before today in the person's zone. */
export function isOverdue(task: Pick<Task, 'status' | 'deadline'>, timeZone: string, todayDay: string): boolean {
  return isOpen(task) && task.deadline !== null && dueDay(task.deadline, timeZone) < todayDay;
}
