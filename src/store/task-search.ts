import { sql, type Expression, type SqlBool } from 'kysely';
import type { Db, DialectName } from './db.js';
import type { TaskRow } from '../domain/access.js';

export interface TaskSearchQuery {
  owners: string[];
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
export async function searchTaskRows(db: Db, dialect: DialectName, query: TaskSearchQuery): Promise<TaskRow[]> {
  let select = db.selectFrom('tasks').selectAll().where('owner_id', 'in', query.owners).where('seq', '>', query.after);
  if (query.upTo !== null) select = select.where('seq', '<=', query.upTo);
  if (query.treeId !== undefined) select = select.where('tree_id', '=', query.treeId);
  if (query.since !== undefined) select = select.where('updated_at', '>=', query.since);
  if (dialect === 'postgres') {
    for (const term of query.terms) {
      const pattern = `%${escapeLike(term)}%`;
      select = select.where(sql<SqlBool>`(lower(title) like ${pattern} escape '\\' or lower(text) like ${pattern} escape '\\' or lower(notes) like ${pattern} escape '\\')`);
    }
  } else {
    const indexed = query.terms.filter((t) => [...t].length >= TRIGRAM);
    if (indexed.length > 0) {
      const match = indexed.map(ftsString).join(' AND ');
      select = select.where('seq', 'in', sql<number>`(select rowid from tasks_fts where tasks_fts match ${match})` as Expression<number>);
    }
    for (const term of query.terms.filter((t) => [...t].length < TRIGRAM)) {
      select = select.where(sql<SqlBool>`(instr(casefold(title), ${term}) > 0 or instr(casefold(text), ${term}) > 0 or instr(casefold(notes), ${term}) > 0)`);
    }
  }
  return select.orderBy('seq').limit(query.take).execute();
}
