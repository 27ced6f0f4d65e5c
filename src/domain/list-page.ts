import { sql, type RawBuilder, type Selectable, type SqlBool } from 'kysely';
import { inVisibleTrees, type VisibleTrees } from './access.js';
import type { Deps } from './deps.js';
import type { Actor } from './actor.js';
import type { Database } from '../store/schema.js';
import { readPage, type PageInput } from './paging.js';

/** Tables listed in creation order with keyset cursors. */
export type Listed = 'trees' | 'projects' | 'tasks' | 'attachments' | 'speech_jobs' | 'comments' | 'messages';

/** One list: what it reads, whose rows, and the filters that narrow it (each one bound to the cursor). */
export interface Listing<T extends Listed> {
  table: T;
  /** The endpoint the cursor is bound to. */
  endpoint: string;
  /**
   * Tenant scope: rows of the trees the actor can see (own by owner, shared by tree; `treeColumn`
   * is `id` when listing trees). Omitted where access was resolved on a parent (a task's rows).
   */
  visible?: { trees: VisibleTrees; treeColumn?: 'tree_id' | 'id' };
  /** A filter that is not a column's equality (e.g. assignee), bound to the cursor by `filters`. */
  also?: { filters: Record<string, string>; where: RawBuilder<SqlBool> };
  /** column = value filters; an undefined value is no filter. */
  equal?: Record<string, string | undefined>;
  /** `updated_since`, inclusive, already normalized to UTC (parseUpdatedSince). */
  since?: string;
  /**
   * The filter picks few rows out of many (a window of deadlines): read them through the
   * filter's index and sort them, rather than walk the creation order until a page is full.
   * SQLite keeps no statistics to tell the two apart and takes the order's index when `seq`
   * is compared; `+seq` is the same value without that index.
   */
  selective?: boolean;
}

/** Filters that are not a column's equality, all of which must hold (each bound to the cursor). */
export function andFilters(parts: (Listing<Listed>['also'] | undefined)[]): Listing<Listed>['also'] {
  const present = parts.filter((p): p is NonNullable<Listing<Listed>['also']> => p !== undefined);
  if (present.length === 0) return undefined;
  return {
    filters: Object.assign({}, ...present.map((p) => p.filters)) as Record<string, string>,
    where: sql<SqlBool>`(${sql.join(
      present.map((p) => p.where),
      sql` and `,
    )})`,
  };
}

/** The newest seq of a table now: where a listing's later pages stop, so rows inserted after page one never appear. */
export async function highWater(deps: Deps, table: Listed): Promise<number> {
  const { max } = await deps.db
    .selectFrom(table)
    .select((eb) => eb.fn.max('seq').as('max'))
    .executeTakeFirstOrThrow();
  return Number(max ?? 0);
}

/**
 * One page of a listing in stable creation order (CONTRACT §5): rows after the cursor's last
 * seq and at most its high-water mark, with the listing's filters, `limit` + 1 read to know
 * whether another page exists. The cursor is bound to the actor, the endpoint, every filter
 * and the limit. Access to what the filters name is the caller's to check first.
 * @throws validation_failed (limit), invalid_cursor, cursor_expired
 */
export async function listPage<T extends Listed>(
  deps: Deps,
  actor: Actor,
  listing: Listing<T>,
  input: PageInput,
): Promise<{ rows: Selectable<Database[T]>[]; next_cursor: string | null }> {
  const { table, visible, since, also } = listing;
  const seq = listing.selective === true ? sql<number>`+seq` : sql<number>`seq`;
  const equal = Object.entries(listing.equal ?? {}).filter(
    (entry): entry is [string, string] => entry[1] !== undefined,
  );
  const page = await readPage(
    deps.config.secret,
    {
      actorKey: actor.user.id,
      endpoint: listing.endpoint,
      filters: { ...listing.equal, ...also?.filters, updated_since: since },
    },
    input,
    async ({ after, upTo, take }) => {
      // Every listed table has seq, owner_id and updated_at; the row type is the table's (cast below).
      let query = deps.db
        .selectFrom(table as Listed)
        .selectAll()
        .where(seq, '>', after);
      if (visible !== undefined) query = query.where(inVisibleTrees(visible.trees, visible.treeColumn));
      if (also !== undefined) query = query.where(also.where);
      if (upTo !== null) query = query.where(seq, '<=', upTo);
      for (const [column, value] of equal) query = query.where(deps.db.dynamic.ref(column), '=', value);
      if (since !== undefined) query = query.where('updated_at', '>=', since);
      return query.orderBy('seq').limit(take).execute();
    },
    () => highWater(deps, table),
  );
  return page as unknown as { rows: Selectable<Database[T]>[]; next_cursor: string | null };
}
