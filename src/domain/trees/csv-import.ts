import type { Readable } from 'node:stream';
import type { Actor } from '../actor.js';
import type { Deps } from '../deps.js';
import type { Trx } from '../../store/db.js';
import { requireWrite } from '../actor.js';
import { membershipGrants, requireTreeWrite, treeAccess, type TreeAccess } from '../access.js';
import { chargeTree } from '../limits.js';
import { checkTaskFields, newTaskRow, siblingPlaces, type TaskInput } from './tasks.js';
import { readCsv, type CsvRecord, type RowProblem } from './csv-read.js';
import { DomainError } from '../errors.js';
import { PROJECT_NAME_MAX } from '../fields.js';
import { nestingProblem } from './nesting.js';
import { DEFAULT_COLOR } from '../records.js';
import { newId } from '../ids.js';
import { write } from '../write.js';
import type { Changes, HistoryEntryInput } from './history.js';

export interface ImportResult {
  created: { projects: number; tasks: number };
  dry_run?: true;
}

interface Planned {
  row: number;
  task: Omit<TaskInput, 'tree_id' | 'project_id'>;
  deadline: string | null;
  projectPath: string[];
  assigneeEmail: string | null;
}

const CHUNK = 500;

/**
 * The file's rows as tasks to create, with every problem the file alone shows (all rows, not the
 * first). Every row is planned, bad ones too: who may be assigned is checked against the tree for
 * all of them in the same answer, and nothing is written while any problem stands.
 */
function planRows(records: CsvRecord[], problems: RowProblem[]): Planned[] {
  const planned: Planned[] = [];
  for (const { row, values } of records) {
    const check = (column: string, fn: () => void) => {
      try {
        fn();
      } catch (err) {
        if (!(err instanceof DomainError)) throw err;
        const detail = err.details?.[0] as { message?: string } | undefined;
        problems.push({ row, column, message: detail?.message ?? err.message });
      }
    };
    for (const [column, value] of Object.entries(values)) {
      if (value.includes('\u0000')) problems.push({ row, column, message: 'must not contain NUL characters' });
    }
    const task = {
      title: values.title ?? '',
      text: values.text ?? '',
      notes: values.notes ?? '',
      status: values.status === undefined || values.status === '' ? 'todo' : values.status,
      color: values.color === undefined || values.color === '' ? DEFAULT_COLOR : values.color,
    };
    let deadline: string | null = null;
    for (const column of ['title', 'text', 'notes', 'status', 'color'] as const)
      check(column, () => checkTaskFields({ [column]: task[column] }));
    check('deadline', () => {
      deadline =
        values.deadline === undefined || values.deadline === ''
          ? null
          : (checkTaskFields({ deadline: values.deadline }) ?? null);
    });
    const projectPath = (values.project ?? '')
      .split('/')
      .map((s) => s.trim())
      .filter((s) => s !== '');
    if (projectPath.some((name) => [...name].length > PROJECT_NAME_MAX))
      problems.push({
        row,
        column: 'project',
        message: `each name in the path must be at most ${PROJECT_NAME_MAX} characters`,
      });
    // Paths start at the tree's top, so a path's length is the depth of its last project.
    const tooDeep = nestingProblem(projectPath.length);
    if (tooDeep !== null) problems.push({ row, column: 'project', message: tooDeep });
    const email = (values.assignee ?? '').trim().toLowerCase();
    planned.push({ row, task, deadline, projectPath, assigneeEmail: email === '' ? null : email });
  }
  return planned;
}

/** Emails of the people who may hold tasks in this tree, mapped to their user ids. */
async function assignableByEmail(trx: Trx, access: TreeAccess, emails: string[]): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  if (emails.length === 0) return found;
  const owner = await trx
    .selectFrom('users')
    .select(['id', 'email', 'plan', 'plan_expires_at'])
    .where('id', '=', access.ownerId)
    .executeTakeFirstOrThrow();
  if (emails.includes(owner.email)) found.set(owner.email, owner.id);
  const members = await trx
    .selectFrom('members')
    .select(['email', 'user_id', 'status', 'expires_at'])
    .where('tree_id', '=', access.tree.id)
    .where('email', 'in', emails)
    .execute();
  for (const m of members) if (m.user_id !== null && membershipGrants(m, owner)) found.set(m.email, m.user_id);
  return found;
}

/** Resolves `A/B` paths to project ids, creating what is missing (by name among siblings, first created wins). */
async function resolveProjects(
  trx: Trx,
  access: TreeAccess,
  paths: string[][],
  now: string,
): Promise<{ ids: Map<string, string>; created: { id: string; parent_id: string | null; name: string }[] }> {
  const existing = await trx
    .selectFrom('projects')
    .select(['id', 'parent_id', 'name'])
    .where('tree_id', '=', access.tree.id)
    .orderBy('seq')
    .execute();
  const byParentAndName = new Map<string, string>();
  for (const p of existing) {
    const key = `${p.parent_id ?? ''}\u0000${p.name}`;
    if (!byParentAndName.has(key)) byParentAndName.set(key, p.id);
  }
  const ids = new Map<string, string>();
  const toCreate: { id: string; parent_id: string | null; name: string }[] = [];
  for (const path of paths) {
    let parent: string | null = null;
    for (const name of path) {
      const key = `${parent ?? ''}\u0000${name}`;
      let id = byParentAndName.get(key);
      if (id === undefined) {
        id = newId('prj');
        byParentAndName.set(key, id);
        toCreate.push({ id, parent_id: parent, name });
      }
      parent = id;
    }
    ids.set(path.join('/'), parent!);
  }
  if (toCreate.length > 0) await chargeTree(trx, access, { projects: toCreate.length });
  const positions = new Map<string | null, number>();
  for (const p of toCreate) {
    let position = positions.get(p.parent_id);
    if (position === undefined) {
      const { max } = await trx
        .selectFrom('projects')
        .select((eb) => eb.fn.max('position').as('max'))
        .where('tree_id', '=', access.tree.id)
        .where((eb) => (p.parent_id === null ? eb('parent_id', 'is', null) : eb('parent_id', '=', p.parent_id)))
        .executeTakeFirstOrThrow();
      position = max === null ? 0 : Number(max) + 1;
    }
    positions.set(p.parent_id, position + 1);
    await trx
      .insertInto('projects')
      .values({
        id: p.id,
        owner_id: access.ownerId,
        tree_id: access.tree.id,
        parent_id: p.parent_id,
        name: p.name,
        description: '',
        color: DEFAULT_COLOR,
        position,
        created_at: now,
        updated_at: now,
      })
      .execute();
  }
  return { ids, created: toCreate };
}

class DryRun extends Error {
  constructor(readonly result: ImportResult) {
    super('dry run');
  }
}

/**
 * Imports a CSV file into a tree as the current actor, in one transaction: every row or none.
 * Every bad row is reported (`details: [{row, column, message}]`); plan limits are counted for
 * the whole file before anything is written; each project and task created is an `imported`
 * history entry, all of one change. A dry run does
 * all of it and rolls back.
 * @throws insufficient_scope, plan_read_only, not_found, forbidden, validation_failed, payload_too_large, plan_limit_reached
 */
export async function importCsv(
  deps: Deps,
  actor: Actor,
  treeId: string,
  open: () => Promise<Readable>,
  options: { dryRun: boolean },
): Promise<ImportResult> {
  requireWrite(actor);
  requireTreeWrite(await treeAccess(deps.db, actor, treeId));
  const { records, problems } = await readCsv(await open());
  const planned = planRows(records, problems);
  if (problems.length === 0 && planned.length === 0)
    problems.push({ row: 2, column: null, message: 'the file has no rows to import' });
  try {
    return await write(deps, actor, async (w) => {
      const { trx } = w;
      const access = await treeAccess(trx, actor, treeId);
      requireTreeWrite(access);
      const emails = [...new Set(planned.map((p) => p.assigneeEmail).filter((e): e is string => e !== null))];
      const assignees = await assignableByEmail(trx, access, emails);
      for (const p of planned) {
        if (p.assigneeEmail !== null && !assignees.has(p.assigneeEmail))
          problems.push({
            row: p.row,
            column: 'assignee',
            message: 'must be the email of the tree owner or an active member',
          });
      }
      // One answer with every problem, in row order (a row's own in the order of its checks).
      if (problems.length > 0) {
        throw new DomainError(
          'validation_failed',
          `The file has ${problems.length} problem(s); nothing was imported.`,
          problems.sort((a, b) => a.row - b.row),
        );
      }
      // Limits for the whole file first: projects (in resolveProjects) and tasks, before any task row.
      await chargeTree(trx, access, { tasks: planned.length });
      const { now } = w;
      const paths = [
        ...new Map(
          planned.filter((p) => p.projectPath.length > 0).map((p) => [p.projectPath.join('/'), p.projectPath]),
        ).values(),
      ];
      const projects = await resolveProjects(trx, access, paths, now);
      const place = siblingPlaces(trx, treeId);
      const rows = [];
      const assigned: { task_id: string; user_id: string; owner_id: string; tree_id: string; created_at: string }[] =
        [];
      for (const p of planned) {
        const projectId = p.projectPath.length > 0 ? projects.ids.get(p.projectPath.join('/'))! : null;
        const position = await place(projectId);
        const row = newTaskRow(
          access,
          actor,
          { ...p.task, tree_id: treeId, project_id: projectId },
          p.deadline,
          position,
          now,
        );
        const assignee = p.assigneeEmail === null ? undefined : assignees.get(p.assigneeEmail);
        if (assignee !== undefined) {
          row.assignee_ids = JSON.stringify([assignee]);
          assigned.push({
            task_id: row.id,
            user_id: assignee,
            owner_id: access.ownerId,
            tree_id: treeId,
            created_at: now,
          });
        }
        rows.push(row);
      }
      for (let start = 0; start < rows.length; start += CHUNK)
        await trx
          .insertInto('tasks')
          .values(rows.slice(start, start + CHUNK))
          .execute();
      for (let start = 0; start < assigned.length; start += CHUNK)
        await trx
          .insertInto('task_assignees')
          .values(assigned.slice(start, start + CHUNK))
          .execute();
      const created = { projects: projects.created.length, tasks: rows.length };
      // One entry per record the import created (CONTRACT §16.3), projects first.
      const imported = (entity: 'project' | 'task', entityId: string, changes: Changes): HistoryEntryInput => ({
        ownerId: access.ownerId,
        treeId,
        entity,
        entityId,
        action: 'imported',
        changes,
      });
      await w.recordAll([
        ...projects.created.map((p) => imported('project', p.id, { name: { from: null, to: p.name } })),
        ...rows.map((t) =>
          imported('task', t.id, { title: { from: null, to: t.title }, status: { from: null, to: t.status } }),
        ),
      ]);
      if (options.dryRun) throw new DryRun({ created, dry_run: true });
      return { created };
    });
  } catch (err) {
    if (err instanceof DryRun) return err.result;
    throw err;
  }
}
