import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { Db } from './types.js';
import { isPostgres } from './compiled.js';

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

/** A tree as the shapes read it before any task row: its drawn count and its span of `seq`. */
export interface ShapeTreeRow {
  id: string;
  ownerId: string;
  /** Its tasks that are not archived. */
  drawn: number;
  /** The first and last `seq` of its tasks (null when it has none). */
  first: number | null;
  last: number | null;
}

/**
 * These trees, those of them that `visible` lets through (a condition on `trees r`), each with
 * its drawn tasks and the span of its `seq`, without a walk over its tasks: the drawn are the
 * tree's `task_count` (every task, kept by each write that adds or removes one) less its archived
 * ones, counted from the (tree_id, status) index; the span is two probes of (tree_id, seq). One
 * statement for the page. The probes say `between` and order by both columns: with `tree_id =`
 * PostgreSQL takes min(seq) from the primary key, walking every task older than the tree's first
 * (some 50,000 rows in the bench) in search of one of its own.
 */
export async function shapeTrees(
  db: Db,
  treeIds: readonly string[],
  visible: RawBuilder<SqlBool>,
): Promise<ShapeTreeRow[]> {
  if (treeIds.length === 0) return [];
  const rows = await sql<{
    id: string;
    owner_id: string;
    task_count: number | string;
    archived: number | string;
    first: number | string | null;
    last: number | string | null;
  }>`select r.id, r.owner_id, r.task_count,
      (select count(*) from tasks a where a.tree_id = r.id and a.status = 'archived') as archived,
      (select f.seq from tasks f where f.tree_id between r.id and r.id order by f.tree_id, f.seq limit 1) as first,
      (select l.seq from tasks l where l.tree_id between r.id and r.id order by l.tree_id desc, l.seq desc limit 1) as last
    from trees r where r.id in (${sql.join(treeIds)}) and ${visible}`.execute(db);
  return rows.rows.map((row) => ({
    id: row.id,
    ownerId: row.owner_id,
    drawn: Math.max(0, Number(row.task_count) - Number(row.archived)),
    first: row.first === null ? null : Number(row.first),
    last: row.last === null ? null : Number(row.last),
  }));
}

/**
 * A tree to read drawn tasks of: all of them (`every` 1), or about one in `every`, a sample of
 * its `seq` line (creation order) read from the (tree_id, seq) index range by range, so a tree
 * of 50,000 tasks reads a few hundred index entries and rows, not 50,000. The line from `first`
 * to `last` is cut into periods of `every × width` seqs, and each period gives the tasks of one
 * window of `width` seqs at an offset hashed from the period's number (Knuth's multiplicative
 * hash of its low 20 bits: integer arithmetic that neither database overflows). A tree's tasks
 * in a window are as many as it made in that stretch, so the sample holds each stretch's share
 * of the tree, dense or sparse; the hashed offset keeps it from following a regular pattern of
 * seqs (two trees filled turn by turn), and the periods, counted from seq 0, keep the same
 * windows between reads and as the tree grows. `width` is 1 for a tree that made its tasks
 * together, and grows with the seqs other trees took in between, so no tree reads more than
 * SHAPE_WINDOWS_MAX windows.
 */
export interface ShapeTaskSource {
  id: string;
  ownerId: string;
  every: number;
  /** The tree's span of `seq` (shapeTrees), for a sampled tree. */
  first?: number | null;
  last?: number | null;
}

/** The most index ranges one tree's sample reads. */
export const SHAPE_WINDOWS_MAX = 512;

/** The windows of a sampled tree: `count` periods of `period` seqs from period `from`, each a window of `width`. */
export function shapeWindows(
  every: number,
  first: number,
  last: number,
): { from: number; count: number; period: number; width: number } {
  const span = last - first + 1;
  const width = Math.max(1, Math.ceil(span / (SHAPE_WINDOWS_MAX * every)));
  const period = every * width;
  const from = Math.floor(first / period);
  return { from, count: Math.floor(last / period) - from + 1, period, width };
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
  let most = 0;
  for (const tree of sources) {
    if (tree.every <= 1 || tree.first == null || tree.last == null) continue;
    const w = shapeWindows(Math.trunc(tree.every), tree.first, tree.last);
    most = Math.max(most, w.count);
    // Integer literals, as bigint: SQLite binds a JS number as a real (and % of a real is not
    // this), and PostgreSQL would do int4 arithmetic on int4 literals.
    const big = (n: number) => sql`cast(${sql.lit(n)} as bigint)`;
    const k = sql`(${big(w.from)} + n.i)`;
    const start = sql`(${k} * ${big(w.period)} + ((((${k} & 1048575) * 2654435761) & 4294967295) / 65536) % ${big(w.period - w.width + 1)})`;
    const lo = sql`(select ${start} as lo from n where n.i < ${sql.lit(w.count)}) x`;
    const task = sql`t.tree_id = ${tree.id} and t.seq >= x.lo and t.seq < x.lo + ${big(w.width)}`;
    // Each window's start, then its tasks by the (tree_id, seq) index, each row read by its key.
    // PostgreSQL: a lateral subquery in seq order with a limit (no more tasks than seqs in a
    // window), which keeps the windows the outer side and takes an index in seq order; a tree
    // added since the table's statistics is thought empty, and a plain join walks it from (tree_id,
    // status) once per window. SQLite joins a CROSS JOIN in the order written, and is told the
    // index (it would take (owner_id, seq), which reads the owner's other trees' tasks too).
    parts.push(
      isPostgres(db)
        ? sql`select t.tree_id, t.id, t.project_id, t.status, t.color, t.position, t.seq from ${lo}
          cross join lateral (select t.* from tasks t where ${task} order by t.seq limit ${sql.lit(w.width)}) t
          where t.status in (${drawn}) and t.owner_id in (${owners})`
        : sql`select t.tree_id, t.id, t.project_id, t.status, t.color, t.position, t.seq from ${lo}
          cross join tasks t indexed by tasks_tree_seq
          where ${task} and t.status in (${drawn}) and t.owner_id in (${owners})`,
    );
  }
  if (parts.length === 0) return [];
  // The window numbers 0 … most − 1, shared by the sampled trees.
  const numbers =
    most > 0
      ? sql`with recursive n(i) as (select 0 union all select i + 1 from n where i < ${sql.lit(most - 1)}) `
      : sql``;
  const rows = await sql<
    ShapeTaskRow & { seq: number | string }
  >`${numbers}${sql.join(parts, sql` union all `)}`.execute(db);
  return rows.rows.map((row) => ({ ...row, position: Number(row.position), seq: Number(row.seq) }));
}
