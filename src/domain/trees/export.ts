import type { Actor } from '../actor.js';
import type { Deps } from '../deps.js';
import type { Trx } from '../../store/db.js';
import { requireRead } from '../actor.js';
import { treeAccess, type TreeAccess } from '../access.js';
import type { Comment } from './comments.js';
import type { Message } from './messages.js';
import { historyWindowStart, presentHistory, type HistoryEntry } from './history.js';
import { presentProject, presentTask, presentTree, type Project, type Task, type Tree } from '../records.js';
import { DomainError } from '../errors.js';
import { nowIso } from '../ids.js';
import { sumTextBytes } from '../../store/text-bytes.js';
import { inReadSnapshot } from '../../store/snapshot.js';

export const EXPORT_MAX_CONTRIBUTORS = 10_000;
export const EXPORT_MAX_TEXT_BYTES = 8 * 1024 * 1024;
export const EXPORT_SCHEMA_VERSION = 1 as const;

export interface TreeExport {
  schema_version: typeof EXPORT_SCHEMA_VERSION;
  exported_at: string;
  tree: Tree;
  projects: Project[];
  tasks: Task[];
  comments: Comment[];
  messages: Message[];
  history: HistoryEntry[];
  attachments: unknown[];
}

/** One part of the export beyond projects and tasks: how to count it and how to read it. */
export interface ExportSection {
  key: 'attachments' | 'comments' | 'messages';
  measure(trx: Trx, deps: Deps, treeId: string): Promise<{ count: number; bytes: number }>;
  read(trx: Trx, deps: Deps, treeId: string): Promise<unknown[]>;
}

const sections: ExportSection[] = [];

/** Attachments (and later comments and messages) join the export through here. */
export function addExportSection(section: ExportSection): void {
  if (!sections.some((s) => s.key === section.key)) sections.push(section);
}

async function measure(trx: Trx, deps: Deps, access: TreeAccess, since: string): Promise<{ contributors: number; text_bytes: number }> {
  const treeId = access.tree.id;
  const [projects, tasks, history] = await Promise.all([
    trx.selectFrom('projects').select((eb) => [eb.fn.countAll<number>().as('n'), sumTextBytes(deps.dialect, ['name', 'description']).as('bytes')]).where('tree_id', '=', treeId).executeTakeFirstOrThrow(),
    trx.selectFrom('tasks').select((eb) => [eb.fn.countAll<number>().as('n'), sumTextBytes(deps.dialect, ['title', 'text', 'notes']).as('bytes')]).where('tree_id', '=', treeId).executeTakeFirstOrThrow(),
    trx.selectFrom('history').select((eb) => [eb.fn.countAll<number>().as('n'), sumTextBytes(deps.dialect, ['changes']).as('bytes')]).where('tree_id', '=', treeId).where('at', '>=', since).executeTakeFirstOrThrow(),
  ]);
  let contributors = Number(projects.n) + Number(tasks.n) + Number(history.n);
  let textBytes = Buffer.byteLength(access.tree.name) + Number(projects.bytes ?? 0) + Number(tasks.bytes ?? 0) + Number(history.bytes ?? 0);
  for (const section of sections) {
    const m = await section.measure(trx, deps, treeId);
    contributors += m.count;
    textBytes += m.bytes;
  }
  return { contributors, text_bytes: textBytes };
}

/**
 * The full tree with every retained task, inside one read snapshot. The budget (10,000
 * contributors, 8 MiB of raw text) is measured with aggregates before any row is read.
 * @throws not_found, export_too_large
 */
export async function exportTree(deps: Deps, actor: Actor, id: string): Promise<TreeExport> {
  requireRead(actor);
  return inReadSnapshot(deps.db, deps.dialect, async (trx) => {
    const access = await treeAccess(trx, actor, id);
    const now = new Date();
    const since = historyWindowStart(access.ownerPlan, now);
    const budget = await measure(trx, deps, access, since);
    if (budget.contributors > EXPORT_MAX_CONTRIBUTORS || budget.text_bytes > EXPORT_MAX_TEXT_BYTES) {
      throw new DomainError('export_too_large', `The export is over its budget of ${EXPORT_MAX_CONTRIBUTORS} records and ${EXPORT_MAX_TEXT_BYTES} bytes of text.`, [
        { ...budget, max_contributors: EXPORT_MAX_CONTRIBUTORS, max_text_bytes: EXPORT_MAX_TEXT_BYTES },
      ]);
    }
    const [projects, tasks, history] = await Promise.all([
      trx.selectFrom('projects').selectAll().where('tree_id', '=', id).orderBy('seq').execute(),
      trx.selectFrom('tasks').selectAll().where('tree_id', '=', id).orderBy('seq').execute(),
      trx.selectFrom('history').selectAll().where('tree_id', '=', id).where('at', '>=', since).orderBy('seq').execute(),
    ]);
    const result: TreeExport = {
      schema_version: EXPORT_SCHEMA_VERSION,
      exported_at: nowIso(),
      tree: presentTree(access.tree, access),
      projects: projects.map(presentProject),
      tasks: tasks.map(presentTask),
      comments: [],
      messages: [],
      history: history.map(presentHistory),
      attachments: [],
    };
    // Each section reads the records of its own key (attachments, comments, messages).
    for (const section of sections) (result as unknown as Record<string, unknown[]>)[section.key] = await section.read(trx, deps, id);
    return result;
  });
}
