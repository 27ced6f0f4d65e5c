import type { Actor } from '../actor.js';
import type { Deps } from '../deps.js';
import type { Trx } from '../../store/db.js';
import { requireRead } from '../actor.js';
import { treeAccess, type TreeAccess } from '../access.js';
import { commentsExportSection, type Comment } from './comments.js';
import { messagesExportSection, type Message } from './messages.js';
import { attachmentsExportSection } from '../files/attachments.js';
import type { ExportSection, SeqRow } from './export-section.js';
import { historyWindowStart, presentHistory, type HistoryEntry } from './history.js';
import { presentProject, presentTask, presentTree, type Project, type Task, type Tree } from '../records.js';
import { DomainError } from '../errors.js';
import { nowIso } from '../ids.js';
import { sumTextBytes } from '../../store/text-bytes.js';
import { inReadSnapshot } from '../../store/snapshot.js';
import { EXPORT_PAGE_ROWS, historyPageOfTree, projectPageOfTree, taskPageOfTree } from '../../store/export-pages.js';

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

/** The lists of an export, in the order the document holds them. */
export type ExportListKey = 'projects' | 'tasks' | 'comments' | 'messages' | 'history' | 'attachments';

export type ExportHead = Pick<TreeExport, 'schema_version' | 'exported_at' | 'tree'>;

/**
 * Where an export goes as it is read, in document order: the head, then every list page by page.
 * Each list gets at least one call (an empty page when it has no records).
 */
export interface ExportSink {
  head(head: ExportHead): void;
  records(key: ExportListKey, page: unknown[]): void;
}

/**
 * The lists each read through their own module's section (comments, messages, attachments), all
 * counted in the budget. Methods are bivariant in their parameters, so a section of any row type
 * is kept as one of SeqRow.
 */
const sections: readonly ExportSection[] = [commentsExportSection, messagesExportSection, attachmentsExportSection];

async function measure(
  trx: Trx,
  deps: Deps,
  access: TreeAccess,
  since: string,
): Promise<{ contributors: number; text_bytes: number }> {
  const treeId = access.tree.id;
  const [projects, tasks, history] = await Promise.all([
    trx
      .selectFrom('projects')
      .select((eb) => [eb.fn.countAll<number>().as('n'), sumTextBytes(trx, ['name', 'description']).as('bytes')])
      .where('tree_id', '=', treeId)
      .executeTakeFirstOrThrow(),
    trx
      .selectFrom('tasks')
      .select((eb) => [eb.fn.countAll<number>().as('n'), sumTextBytes(trx, ['title', 'text', 'notes']).as('bytes')])
      .where('tree_id', '=', treeId)
      .executeTakeFirstOrThrow(),
    trx
      .selectFrom('history')
      .select((eb) => [eb.fn.countAll<number>().as('n'), sumTextBytes(trx, ['changes']).as('bytes')])
      .where('tree_id', '=', treeId)
      .where('at', '>=', since)
      .executeTakeFirstOrThrow(),
  ]);
  let contributors = Number(projects.n) + Number(tasks.n) + Number(history.n);
  let textBytes =
    Buffer.byteLength(access.tree.name) +
    Number(projects.bytes ?? 0) +
    Number(tasks.bytes ?? 0) +
    Number(history.bytes ?? 0);
  for (const section of sections) {
    const m = await section.measure(trx, deps, treeId);
    contributors += m.count;
    textBytes += m.bytes;
  }
  return { contributors, text_bytes: textBytes };
}

const PAGE_ROWS = EXPORT_PAGE_ROWS;

/** Sends one list to the sink page by page, each page read after the last sequence of the one before. */
async function sendList<Row extends SeqRow>(
  sink: ExportSink,
  key: ExportListKey,
  readPage: (after: number) => Promise<Row[]>,
  present: (row: Row) => unknown,
): Promise<void> {
  for (let after = 0; ;) {
    const rows = await readPage(after);
    sink.records(key, rows.map(present));
    if (rows.length < PAGE_ROWS) return;
    after = rows[rows.length - 1]!.seq;
  }
}

/**
 * The full tree with every retained task, inside one read snapshot, written to `sink` in document
 * order. The budget (10,000 contributors, 8 MiB of raw text) is measured with aggregates before
 * any row is read.
 * @throws not_found, export_too_large
 */
export async function writeTreeExport(deps: Deps, actor: Actor, id: string, sink: ExportSink): Promise<void> {
  requireRead(actor);
  await inReadSnapshot(deps.db, async (trx) => {
    const access = await treeAccess(trx, actor, id);
    const now = new Date();
    const since = historyWindowStart(access.ownerPlan, now);
    const budget = await measure(trx, deps, access, since);
    if (budget.contributors > EXPORT_MAX_CONTRIBUTORS || budget.text_bytes > EXPORT_MAX_TEXT_BYTES) {
      throw new DomainError(
        'export_too_large',
        `The export is over its budget of ${EXPORT_MAX_CONTRIBUTORS} records and ${EXPORT_MAX_TEXT_BYTES} bytes of text.`,
        [{ ...budget, max_contributors: EXPORT_MAX_CONTRIBUTORS, max_text_bytes: EXPORT_MAX_TEXT_BYTES }],
      );
    }
    sink.head({ schema_version: EXPORT_SCHEMA_VERSION, exported_at: nowIso(), tree: presentTree(access.tree, access) });
    await sendList(sink, 'projects', (after) => projectPageOfTree(trx, id, after), presentProject);
    await sendList(
      sink,
      'tasks',
      (after) => taskPageOfTree(trx, id, after),
      (row) => presentTask(row),
    );
    const sendSection = (section: ExportSection) =>
      sendList(sink, section.key, (after) => section.readPage(trx, deps, id, after, PAGE_ROWS), section.present);
    await sendSection(commentsExportSection);
    await sendSection(messagesExportSection);
    await sendList(sink, 'history', (after) => historyPageOfTree(trx, id, since, after), presentHistory);
    await sendSection(attachmentsExportSection);
  });
}

/**
 * The whole export as one object (the command-line tool writes it out).
 * @throws not_found, export_too_large
 */
export async function exportTree(deps: Deps, actor: Actor, id: string): Promise<TreeExport> {
  let document: TreeExport | null = null;
  await writeTreeExport(deps, actor, id, {
    head: (head) =>
      (document = { ...head, projects: [], tasks: [], comments: [], messages: [], history: [], attachments: [] }),
    records: (key, page) => (document![key] as unknown[]).push(...page),
  });
  return document!;
}
