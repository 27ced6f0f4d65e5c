import type { Selectable } from 'kysely';
import type { Deps } from '../deps.js';
import type { Actor } from '../actor.js';
import { requireRead } from '../actor.js';
import { taskAccess } from '../access.js';
import type { PageInput } from '../paging.js';
import { listPage } from '../list-page.js';
import type { Database } from '../../store/schema.js';

/** Tables whose rows hang off one task and are listed per task: attachments, speech jobs, comments. */
type PerTask = 'attachments' | 'speech_jobs' | 'comments';

/**
 * One page of a task's rows of `table`, in creation order, once the task is visible to the actor
 * (the task's access stands for its rows' tenant). The cursor is bound to the endpoint and the task.
 * @throws not_found, invalid_cursor
 */
export async function pageOfTask<T extends PerTask>(
  deps: Deps,
  actor: Actor,
  table: T,
  endpoint: string,
  taskId: string,
  input: PageInput,
): Promise<{ rows: Selectable<Database[T]>[]; next_cursor: string | null }> {
  requireRead(actor);
  await taskAccess(deps.db, actor, taskId);
  return listPage(deps, actor, { table, endpoint, equal: { task_id: taskId } }, input);
}
