import { sql, type Compilable, type RawBuilder, type SqlBool } from 'kysely';
import type { Db } from './types.js';
import { isPostgres, runShaped } from './compiled.js';
import { inVisibleTrees, type TaskRow, type VisibleTrees } from '../domain/access.js';

export interface TaskSearchQuery {
  /** The trees the actor can see (own by owner, shared by id). */
  visible: VisibleTrees;
  /** Lower-cased literal terms; every one must occur in title, text or notes. */
  terms: string[];
  treeId?: string;
  since?: string;
  after: number;
  upTo: number | null;
  take: number;
}

/** The trigram index needs three characters; shorter terms are checked row by row. */
const TRIGRAM = 3;

function escapeLike(term: string): string {
  return term.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** A quoted FTS5 string: inside double quotes nothing is an operator; a quote is doubled. */
function ftsString(term: string): string {
  return `"${term.replaceAll('"', '""')}"`;
}

/** What decides a search query's text: everything but the values. */
interface Shape {
  fts: boolean;
  postgres: boolean;
  /** Terms checked row by row (all on PostgreSQL and without an indexed term; the short ones with FTS). */
  rowTerms: number;
  /** The credential's trees, or null for all. */
  scope: number | null;
  shared: number;
  upTo: boolean;
  tree: boolean;
  since: boolean;
  /** Written into the text: SQLite prepares a statement with a bound LIMIT again at every run (inline-limits.ts). */
  take: number;
}

/**
 * Tasks whose title, text or notes contain every term, in creation order, through the dialect's
 * index. The statement is compiled once per shape (store/compiled.ts runShaped): the number of
 * terms and of trees, and which filters are present; its values are the arguments.
 */
export async function searchTaskRows(db: Db, query: TaskSearchQuery): Promise<TaskRow[]> {
  const { shape, args } = planOf(db, query);
  return runShaped<TaskRow>(db, `search ${JSON.stringify(shape)}`, (db, a) => build(db, shape, a), args);
}

/** The statement searchTaskRows runs for `query`, values in place: what a bench's floor runs with nothing around it. */
export function searchStatement(db: Db, query: TaskSearchQuery): { sql: string; parameters: readonly unknown[] } {
  const { shape, args } = planOf(db, query);
  return build(db, shape, args).compile();
}

function planOf(db: Db, query: TaskSearchQuery): { shape: Shape; args: unknown[] } {
  const postgres = isPostgres(db);
  const indexed = query.terms.filter((t) => [...t].length >= TRIGRAM);
  const fts = !postgres && indexed.length > 0;
  const rowTerms = fts ? query.terms.filter((t) => [...t].length < TRIGRAM) : query.terms;
  const scope = query.visible.scope === null ? null : [...query.visible.scope];
  const shared = query.visible.shared.map((s) => s.treeId);
  const shape: Shape = {
    fts,
    postgres,
    rowTerms: rowTerms.length,
    scope: scope === null ? null : scope.length,
    shared: shared.length,
    upTo: query.upTo !== null,
    tree: query.treeId !== undefined,
    since: query.since !== undefined,
    take: query.take,
  };
  // In the order `build` takes them.
  const args: unknown[] = [
    ...(fts ? [indexed.map(ftsString).join(' AND ')] : []),
    query.after,
    query.visible.ownerId,
    ...(scope ?? []),
    ...shared,
    ...(query.upTo !== null ? [query.upTo] : []),
    ...(query.treeId !== undefined ? [query.treeId] : []),
    ...(query.since !== undefined ? [query.since] : []),
    ...(postgres ? rowTerms.map((term) => `%${escapeLike(term)}%`) : rowTerms),
  ];
  return { shape, args };
}

/** The search statement of a shape, from its arguments in the order searchTaskRows lists them. */
function build(db: Db, shape: Shape, args: unknown[]): Compilable<TaskRow> {
  let at = 0;
  const next = () => args[at++];
  const many = (n: number) => args.slice(at, (at += n)) as string[];
  const match = shape.fts ? next() : undefined;
  const after = next() as number;
  const visible: VisibleTrees = {
    ownerId: next() as string,
    scope: shape.scope === null ? null : new Set(many(shape.scope)),
    shared: many(shape.shared).map((treeId) => ({ treeId, role: 'viewer' as const })),
  };
  const upTo = shape.upTo ? (next() as number) : undefined;
  const treeId = shape.tree ? (next() as string) : undefined;
  const since = shape.since ? (next() as string) : undefined;
  const terms = many(shape.rowTerms);
  if (shape.fts) {
    const conditions: RawBuilder<unknown>[] = [
      sql`tasks_fts match ${match}`,
      sql`f.rowid > ${after}`,
      inVisibleTrees(visible, 'tree_id', 't'),
    ];
    if (upTo !== undefined) conditions.push(sql`f.rowid <= ${upTo}`);
    if (treeId !== undefined) conditions.push(sql`t.tree_id = ${treeId}`);
    if (since !== undefined) conditions.push(sql`t.updated_at >= ${since}`);
    for (const term of terms) conditions.push(shortTermMatches('t', term));
    const raw = sql<TaskRow>`select t.* from tasks_fts f join tasks t on t.seq = f.rowid where ${sql.join(conditions, sql` and `)} order by f.rowid limit ${sql.lit(shape.take)}`;
    return { compile: () => raw.compile(db) };
  }
  let select = db.selectFrom('tasks').selectAll().where(inVisibleTrees(visible)).where('seq', '>', after);
  if (upTo !== undefined) select = select.where('seq', '<=', upTo);
  if (treeId !== undefined) select = select.where('tree_id', '=', treeId);
  if (since !== undefined) select = select.where('updated_at', '>=', since);
  for (const term of terms)
    select = select.where(
      shape.postgres
        ? sql<SqlBool>`(lower(title) like ${term} escape '\\' or lower(text) like ${term} escape '\\' or lower(notes) like ${term} escape '\\')`
        : shortTermMatches('tasks', term),
    );
  return select.orderBy('seq').limit(shape.take);
}

/** Terms under three characters are not in the trigram index: checked on the row, case-folded. */
function shortTermMatches(table: string, term: unknown): RawBuilder<SqlBool> {
  const t = sql.id(table);
  return sql<SqlBool>`(instr(casefold(${t}.title), ${term}) > 0 or instr(casefold(${t}.text), ${term}) > 0 or instr(casefold(${t}.notes), ${term}) > 0)`;
}
