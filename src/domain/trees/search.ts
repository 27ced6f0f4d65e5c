import type { Actor } from '../actor.js';
import type { Deps } from '../deps.js';
import { requireRead } from '../actor.js';
import { treeAccess, visibleTrees } from '../access.js';
import { presentTask, type Task } from '../records.js';
import { readPage, parseUpdatedSince, type Page, type PageInput } from '../paging.js';
import { highWater } from '../list-page.js';
import { checkLength } from '../validate.js';
import { QUERY_MAX } from '../fields.js';
import { invalid } from '../errors.js';
import { searchTaskRows } from '../../store/task-search.js';

export interface SearchInput extends PageInput {
  q: string;
  tree_id?: string;
  updated_since?: string;
}

/**
 * The terms of a query (CONTRACT §6): split on white space, a double-quoted run is one term,
 * an unmatched quote is an ordinary character. Terms are literal and compared lower-cased.
 */
export function parseTerms(q: string): string[] {
  const terms: string[] = [];
  for (const match of q.matchAll(/"([^"]*)"|(\S+)/g)) {
    const term = match[1] ?? match[2] ?? '';
    if (term.trim() !== '') terms.push(term.toLowerCase());
  }
  return [...new Set(terms)];
}

/** Tasks containing every term in title, text or notes, in creation order. @throws validation_failed, not_found */
export async function searchTasks(deps: Deps, actor: Actor, input: SearchInput): Promise<Page<Task>> {
  requireRead(actor);
  checkLength('/q', input.q, 1, QUERY_MAX);
  const terms = parseTerms(input.q);
  if (terms.length === 0) throw invalid('/q', 'must contain at least one term');
  const since = parseUpdatedSince(input.updated_since);
  if (input.tree_id !== undefined) await treeAccess(deps.db, actor, input.tree_id);
  const visible = await visibleTrees(deps.db, actor);
  const { rows, next_cursor } = await readPage(
    deps.config.secret,
    {
      actorKey: actor.user.id,
      endpoint: 'search',
      filters: { q: input.q, tree_id: input.tree_id, updated_since: since },
    },
    input,
    (window) => searchTaskRows(deps.db, { visible, terms, treeId: input.tree_id, since, ...window }),
    () => highWater(deps, 'tasks'),
  );
  return { items: rows.map(presentTask), next_cursor };
}
