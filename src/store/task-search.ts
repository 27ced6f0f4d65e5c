import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { Db } from './types.js';
import { isPostgres } from './compiled.js';
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

/** Tasks whose title, text or notes contain every term, in creation order, through the dialect's index. */
export async function searchTaskRows(db: Db, query: TaskSearchQuery): Promise<TaskRow[]> {
  const postgres = isPostgres(db);
  const indexed = query.terms.filter((t) => [...t].length >= TRIGRAM);
  if (!postgres && indexed.length > 0) return searchThroughFts(db, query, indexed);
  let select = db.selectFrom('tasks').selectAll().where(inVisibleTrees(query.visible)).where('seq', '>', query.after);
  if (query.upTo !== null) select = select.where('seq', '<=', query.upTo);
  if (query.treeId !== undefined) select = select.where('tree_id', '=', query.treeId);
  if (query.since !== undefined) select = select.where('updated_at', '>=', query.since);
  if (postgres) {
    for (const term of query.terms) {
      const pattern = `%${escapeLike(term)}%`;
      select = select.where(
        sql<SqlBool>`(lower(title) like ${pattern} escape '\\' or lower(text) like ${pattern} escape '\\' or lower(notes) like ${pattern} escape '\\')`,
      );
    }
  } else {
    for (const term of query.terms) select = select.where(shortTermMatches('tasks', term));
  }
  return select.orderBy('seq').limit(query.take).execute();
}

/** Terms under three characters are not in the trigram index: checked on the row, case-folded. */
function shortTermMatches(table: string, term: string): RawBuilder<SqlBool> {
  const t = sql.id(table);
  return sql<SqlBool>`(instr(casefold(${t}.title), ${term}) > 0 or instr(casefold(${t}.text), ${term}) > 0 or instr(casefold(${t}.notes), ${term}) > 0)`;
}

/**
 * SQLite: the FTS5 trigram index drives the query in rowid (= seq) order, so a page stops after
 * `take` matching rows instead of collecting every match first; a term found in most tasks then
 * costs no more than a rare one. The window and the other filters apply to each candidate.
 */
async function searchThroughFts(db: Db, query: TaskSearchQuery, indexed: string[]): Promise<TaskRow[]> {
  const conditions: RawBuilder<unknown>[] = [
    sql`tasks_fts match ${indexed.map(ftsString).join(' AND ')}`,
    sql`f.rowid > ${query.after}`,
    inVisibleTrees(query.visible, 'tree_id', 't'),
  ];
  if (query.upTo !== null) conditions.push(sql`f.rowid <= ${query.upTo}`);
  if (query.treeId !== undefined) conditions.push(sql`t.tree_id = ${query.treeId}`);
  if (query.since !== undefined) conditions.push(sql`t.updated_at >= ${query.since}`);
  for (const term of query.terms.filter((x) => [...x].length < TRIGRAM)) conditions.push(shortTermMatches('t', term));
  const result =
    await sql<TaskRow>`select t.* from tasks_fts f join tasks t on t.seq = f.rowid where ${sql.join(conditions, sql` and `)} order by f.rowid limit ${query.take}`.execute(
      db,
    );
  return result.rows;
}
