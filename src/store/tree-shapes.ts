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
  /** How many tasks the tree has that are not archived. */
  total: number;
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

/**
 * The drawn tasks of these trees: all of a tree's when it has at most `perTree`, else an even
 * sample of exactly `perTree` of them. The sample is taken in (status, seq) order, so it keeps the
 * tree's share of each status, and it is chosen from the (tree_id, status) index before any task
 * row is read: a tree of 50,000 tasks reads `perTree` rows, not 50,000. One statement per page.
 */
export async function shapeTasks(
  db: Db,
  trees: readonly { id: string; ownerId: string }[],
  perTree: number,
): Promise<ShapeTaskRow[]> {
  if (trees.length === 0) return [];
  // Keep the rn-th of n when it starts a new one of perTree equal slices: exactly perTree rows.
  // An integer literal, so both databases divide whole numbers (SQLite binds a JS number as real).
  const cap = sql.lit(Math.trunc(perTree));
  const rows = await sql<ShapeTaskRow>`
    select t.tree_id, t.id, t.project_id, t.status, t.color, t.position, r.n as total
    from (
      select seq,
        row_number() over (partition by tree_id order by status, seq) as rn,
        count(*) over (partition by tree_id) as n
      from tasks
      where tree_id in (${sql.join(trees.map((t) => t.id))}) and status in (${sql.join([...DRAWN])})
    ) r
    join tasks t on t.seq = r.seq
    where (r.n <= ${cap} or (r.rn * ${cap}) / r.n > ((r.rn - 1) * ${cap}) / r.n)
      and t.owner_id in (${sql.join([...new Set(trees.map((t) => t.ownerId))])})`.execute(db);
  return rows.rows.map((row) => ({ ...row, position: Number(row.position), total: Number(row.total) }));
}
