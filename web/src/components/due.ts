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
