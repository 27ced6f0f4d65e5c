import { sql } from 'kysely';
import type { Db } from './types.js';

/** What a tree's card needs of a project: where it hangs and where it sits among its siblings. */
export interface ShapeProjectRow {
  tree_id: string;
  id: string;
  parent_id: string | null;
  position: number;
  /** How many projects the tree has. */
  total: number;
}

/** What a tree's card needs of a task: its place, its look and its colour. No title, no text. */
export interface ShapeTaskRow {
  tree_id: string;
  id: string;
  project_id: string | null;
  status: string;
  color: string;
  position: number;
  /** Creation order, for an even trim of a sample. */
  seq: number;
}

/** The statuses a drawing shows (archived tasks are not drawn). */
const DRAWN = ['todo', 'open', 'done', 'deferred'] as const;

/**
 * The projects of these trees, at most `perTree` of each in creation order (the oldest: the
 * branches a tree grew first). One statement for the page of trees.
 */
export async function shapeProjects(
  db: Db,
  trees: readonly { id: string; ownerId: string }[],
  perTree: number,
): Promise<ShapeProjectRow[]> {
  if (trees.length === 0) return [];
  const rows = await sql<ShapeProjectRow>`
    select p.tree_id, p.id, p.parent_id, p.position, r.n as total
    from (
      select seq, row_number() over (partition by tree_id order by seq) as rn, count(*) over (partition by tree_id) as n
      from projects
      where tree_id in (${sql.join(trees.map((t) => t.id))})
    ) r
    join projects p on p.seq = r.seq
    where r.rn <= ${sql.lit(Math.trunc(perTree))} and p.owner_id in (${sql.join([...new Set(trees.map((t) => t.ownerId))])})`.execute(
    db,
  );
  return rows.rows.map((row) => ({ ...row, position: Number(row.position), total: Number(row.total) }));
}

/** Each tree's drawn tasks (not archived), counted from the (tree_id, status) index alone. */
export async function drawnTaskCounts(db: Db, treeIds: readonly string[]): Promise<Map<string, number>> {
  const counts = new Map<string, number>(treeIds.map((id) => [id, 0]));
  if (treeIds.length === 0) return counts;
  const rows = await db
    .selectFrom('tasks')
    .select((eb) => ['tree_id', eb.fn.countAll().as('n')])
    .where('tree_id', 'in', treeIds)
    .where('status', 'in', [...DRAWN])
    .groupBy('tree_id')
    .execute();
  for (const row of rows) counts.set(row.tree_id, Number(row.n));
  return counts;
}

/**
 * A tree to read drawn tasks of: all of them (`every` 1), or about one in `every`, chosen by a
 * hash of `seq` (its low 20 bits through Knuth's multiplicative hash: integer arithmetic that
 * neither database overflows), so the choice is spread evenly over the tree and stable between
 * reads. The sample is picked from the (tree_id, seq) index before any task row is read: a
 * tree of 50,000 tasks reads some 50,000 index entries and a few hundred rows.
 */
export interface ShapeTaskSource {
  id: string;
  ownerId: string;
  every: number;
}

/** The drawn tasks of these trees, as each source asks. One statement for the page. */
export async function shapeTasks(db: Db, sources: readonly ShapeTaskSource[]): Promise<ShapeTaskRow[]> {
  if (sources.length === 0) return [];
  const owners = sql.join([...new Set(sources.map((t) => t.ownerId))]);
  const drawn = sql.join([...DRAWN]);
  const whole = sources.filter((t) => t.every <= 1).map((t) => t.id);
  const parts = [];
  if (whole.length > 0)
    parts.push(sql`select t.tree_id, t.id, t.project_id, t.status, t.color, t.position, t.seq from tasks t
      where t.tree_id in (${sql.join(whole)}) and t.status in (${drawn}) and t.owner_id in (${owners})`);
  for (const tree of sources.filter((t) => t.every > 1)) {
    // An integer literal: SQLite binds a JS number as a real, and % of a real is not this.
    const every = sql.lit(Math.trunc(tree.every));
    // The sample's seqs first, each row then read by its key (a join, not `seq in`, which SQLite
    // may answer by walking the owner's tasks and testing each).
    parts.push(sql`select t.tree_id, t.id, t.project_id, t.status, t.color, t.position, t.seq
      from (
        select s.seq from tasks s
        where s.tree_id = ${tree.id} and ((((s.seq & 1048575) * 2654435761) & 4294967295) / 65536) % ${every} = 0
      ) x
      cross join tasks t
      where t.seq = x.seq and t.status in (${drawn}) and t.owner_id in (${owners})`);
  }
  const rows = await sql<ShapeTaskRow & { seq: number | string }>`${sql.join(parts, sql` union all `)}`.execute(db);
  return rows.rows.map((row) => ({ ...row, position: Number(row.position), seq: Number(row.seq) }));
}
