import type { Selectable } from 'kysely';
import type { HistoryTable, PersonalTokenTable, ProjectTable, TaskTable, TreeTable, UserTable } from './schema.js';

// Rows as read, for records that many modules pass around. A leaf (it imports only the schema), so
// the modules that use a row never need to import the module that writes it.

export type UserRow = Selectable<UserTable>;
export type TokenRow = Selectable<PersonalTokenTable>;
export type TreeRow = Selectable<TreeTable>;
export type ProjectRow = Selectable<ProjectTable>;
export type TaskRow = Selectable<TaskTable>;
export type HistoryRow = Selectable<HistoryTable>;
/** A history entry as written: every column but the sequence the database gives it. */
export type NewHistoryRow = Omit<HistoryRow, 'seq'>;
/** A task as created: every column but the sequence; the version starts at its default. */
export type NewTaskRow = Omit<TaskRow, 'seq' | 'version'>;

/**
 * What decides an actor's access to a row of a tree they do not own: their membership (null
 * columns when they have none) and the owner's plan (read only with a membership).
 */
export interface GrantColumns {
  m_role: string | null;
  m_status: string | null;
  m_expires_at: string | null;
  o_plan: string | null;
  o_plan_expires_at: string | null;
}
