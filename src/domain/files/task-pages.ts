import type { Selectable } from 'kysely';
import type { Deps } from '../deps.js';
import type { Actor } from '../actor.js';
import { requireRead } from '../actor.js';
import { taskAccess } from '../access.js';
import { readPage, type PageInput } from '../paging.js';
import type { Database } from '../../store/schema.js';

/** Tables whose rows hang off one task and are listed per task: attachments, speech jobs, comments. */
type PerTask = 'attachments' | 'speech_jobs' | 'comments';

/**
 * One page of a task's rows of `table`, in creation order, once the task is visible to the actor.
 * The cursor is bound to the table as its endpoint and to the task.
 * @throws not_found, invalid_cursor
 */
export async function pageOfTask<T extends PerTask>(
  deps: Deps, actor: Actor, table: T, endpoint: string, taskId: string, input: PageInput,
): Promise<{ rows: Selectable<Database[T]>[]; next_cursor: string | null }> {
  requireRead(actor);
  await taskAccess(deps.db, actor, taskId);
  const page = await readPage(
    deps.config.secret,
    { actorKey: actor.user.id, endpoint, filters: { task_id: taskId } },
    input,
    async ({ after, upTo, take }) => {
      let query = deps.db.selectFrom(table as PerTask).selectAll().where('task_id', '=', taskId).where('seq', '>', after);
      if (upTo !== null) query = query.where('seq', '<=', upTo);
      return (await query.orderBy('seq').limit(take).execute()).map((r) => ({ ...r, seq: Number(r.seq) }));
    },
    async () => Number((await deps.db.selectFrom(table as PerTask).select((eb) => eb.fn.max('seq').as('max')).executeTakeFirstOrThrow()).max ?? 0),
  );
  // The query reads the union of both tables; the rows are those of `table`.
  return page as unknown as { rows: Selectable<Database[T]>[]; next_cursor: string | null };
}
