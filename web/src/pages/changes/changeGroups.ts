import type { HistoryEntry } from '../../api/types';

/**
 * One change (CONTRACT §16.3): the entries one request, tool call, import, batch or revert wrote,
 * which share `change_id` and `at`. Entries from before changes existed have no id and stand alone.
 */
export interface ChangeGroup {
  /** A key for the list: the change id, or the lone entry's id. */
  key: string;
  changeId: string | null;
  at: string;
  actorId: string;
  via: string;
  credentialId: string | null;
  /** The token's or OAuth client's name: the change was an agent's. */
  client: string | null;
  /** The change this one undid, when it is a revert. */
  reverts: string | null;
  entries: HistoryEntry[];
}

/** Records a revert puts back; the others are listed as skipped and left as they are. */
const REVERTIBLE = new Set(['tree', 'project', 'task']);

/** History (newest first) as changes, newest first: consecutive entries of one change form one group. */
export function groupChanges(entries: readonly HistoryEntry[]): ChangeGroup[] {
  const groups: ChangeGroup[] = [];
  for (const entry of entries) {
    const changeId = entry.change_id ?? null;
    const last = groups.at(-1);
    if (changeId !== null && last?.changeId === changeId) {
      last.entries.push(entry);
      continue;
    }
    groups.push({
      key: changeId ?? entry.id,
      changeId,
      at: entry.at,
      actorId: entry.actor_id,
      via: entry.via,
      credentialId: entry.credential_id ?? null,
      client: entry.client ?? null,
      reverts: entry.reverts ?? null,
      entries: [entry],
    });
  }
  return groups;
}

/** A change that a revert can act on: it has an id and touched a tree, project or task (but did not plant the tree). */
export function canUndo(change: ChangeGroup): boolean {
  // A tree's own creation is not offered: undoing it would take the whole tree away (delete it instead).
  const plantsTree = change.entries.some((e) => e.entity === 'tree' && e.action === 'created');
  return change.changeId !== null && !plantsTree && change.entries.some((e) => REVERTIBLE.has(e.entity));
}

/** Changes that a later change of the list has undone (a revert names them in `reverts`). */
export function undoneChanges(changes: readonly ChangeGroup[]): ReadonlySet<string> {
  return new Set(changes.flatMap((c) => (c.reverts !== null ? [c.reverts] : [])));
}

/** Doors only an API credential uses (a browser session and the CLI are the person themselves). */
const AGENT_DOORS = new Set(['token', 'oauth', 'mcp']);

/** An agent's change: made with a personal token or an OAuth grant. */
export function isAgent(change: Pick<ChangeGroup, 'credentialId' | 'client' | 'via'>): boolean {
  return change.credentialId !== null || change.client !== null || AGENT_DOORS.has(change.via);
}

/** What a change did, counted: per entity in the order first met, each action with its count. */
export function countActions(entries: readonly HistoryEntry[]): { entity: string; actions: [string, number][] }[] {
  const byEntity = new Map<string, Map<string, number>>();
  for (const entry of entries) {
    const action = actionOf(entry);
    const actions = byEntity.get(entry.entity) ?? new Map<string, number>();
    byEntity.set(entry.entity, actions);
    actions.set(action, (actions.get(action) ?? 0) + 1);
  }
  return [...byEntity].map(([entity, actions]) => ({ entity, actions: [...actions] }));
}

/** An assignment is an `updated` task whose changes hold only `assignee_ids`: counted as "assigned". */
function actionOf(entry: HistoryEntry): string {
  const fields = Object.keys(entry.changes);
  if (entry.action === 'updated' && fields.length === 1 && fields[0] === 'assignee_ids') return 'assigned';
  return entry.action;
}
