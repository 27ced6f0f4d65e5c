import type { Selectable } from 'kysely';
import type { Actor } from '../actor.js';
import type { Deps } from '../deps.js';
import type { Trx } from '../../store/db.js';
import type { CommentTable } from '../../store/schema.js';
import { requireWrite } from '../actor.js';
import { requireTreeWrite, taskAccess, type TreeAccess } from '../access.js';
import { pageOfTask } from '../files/task-pages.js';
import type { Page, PageInput } from '../paging.js';
import { appendHistory } from './history.js';
import { lockedTaskAccess } from './move.js';
import { checkBody, postsExportSection } from './posts.js';
import { DomainError, invalid, notFound } from '../errors.js';
import { newId, nowIso } from '../ids.js';
import { inTransaction } from '../../store/db.js';

type CommentRow = Selectable<CommentTable>;

/** CONTRACT §10's Comment. */
export interface Comment {
  id: string;
  task_id: string;
  /** Null once the author deleted their account. */
  author_id: string | null;
  body: string;
  created_at: string;
  updated_at: string;
}

export function presentComment(row: CommentRow): Comment {
  return {
    id: row.id,
    task_id: row.task_id,
    author_id: row.author_id,
    body: row.body,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** A task's comments in creation order. @throws not_found, invalid_cursor */
export async function listComments(deps: Deps, actor: Actor, taskId: string, input: PageInput): Promise<Page<Comment>> {
  const { rows, next_cursor } = await pageOfTask(deps, actor, 'comments', 'comments', taskId, input);
  return { items: rows.map(presentComment), next_cursor };
}

/** @throws not_found, forbidden, validation_failed */
export async function createComment(deps: Deps, actor: Actor, taskId: string, body: string): Promise<Comment> {
  requireWrite(actor);
  checkBody(body);
  return inTransaction(deps.db, async (trx) => {
    // Locked as a move locks it: the comment lands in the tree its task is in at commit.
    const { access } = await lockedTaskAccess(trx, deps.dialect, actor, taskId);
    const now = nowIso();
    const row = {
      id: newId('cmt'),
      owner_id: access.ownerId,
      tree_id: access.tree.id,
      task_id: taskId,
      author_id: actor.user.id,
      body,
      created_at: now,
      updated_at: now,
    };
    const inserted = await trx.insertInto('comments').values(row).returningAll().executeTakeFirstOrThrow();
    // Comment bodies never go into history: "changed" says enough.
    await appendHistory(
      trx,
      actor,
      {
        ownerId: access.ownerId,
        treeId: access.tree.id,
        entity: 'comment',
        entityId: row.id,
        action: 'created',
        changes: { task_id: { from: null, to: taskId } },
      },
      now,
    );
    return presentComment(inserted);
  });
}

async function commentAccess(trx: Trx, actor: Actor, id: string): Promise<{ row: CommentRow; access: TreeAccess }> {
  if (id.length > 160) throw invalid('/id', 'must be at most 160 characters');
  const row = await trx.selectFrom('comments').selectAll().where('id', '=', id).executeTakeFirst();
  if (row === undefined) throw notFound('comment');
  const { access } = await taskAccess(trx, actor, row.task_id).catch(() => {
    throw notFound('comment');
  });
  return { row, access };
}

/** Only the author edits a comment, while they may still write in the tree. @throws not_found, forbidden, validation_failed */
export async function updateComment(deps: Deps, actor: Actor, id: string, body: string): Promise<Comment> {
  requireWrite(actor);
  checkBody(body);
  return inTransaction(deps.db, async (trx) => {
    const { row, access } = await commentAccess(trx, actor, id);
    requireTreeWrite(access);
    if (row.author_id !== actor.user.id) throw new DomainError('forbidden', 'Only the author can edit a comment.');
    if (row.body === body) return presentComment(row);
    const now = nowIso();
    const updated = await trx
      .updateTable('comments')
      .set({ body, updated_at: now })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
    await appendHistory(
      trx,
      actor,
      {
        ownerId: access.ownerId,
        treeId: access.tree.id,
        entity: 'comment',
        entityId: id,
        action: 'updated',
        changes: { body: { from: 'changed', to: 'changed' } },
      },
      now,
    );
    return presentComment(updated);
  });
}

/** The author (while they may write) or the tree owner removes a comment. @throws not_found, forbidden */
export async function deleteComment(deps: Deps, actor: Actor, id: string): Promise<void> {
  requireWrite(actor);
  await inTransaction(deps.db, async (trx) => {
    const { row, access } = await commentAccess(trx, actor, id);
    if (access.role !== 'owner') {
      requireTreeWrite(access);
      if (row.author_id !== actor.user.id)
        throw new DomainError('forbidden', 'Only the author or the tree owner can delete a comment.');
    }
    await trx.deleteFrom('comments').where('id', '=', id).execute();
    await appendHistory(trx, actor, {
      ownerId: access.ownerId,
      treeId: access.tree.id,
      entity: 'comment',
      entityId: id,
      action: 'deleted',
      changes: { task_id: { from: row.task_id, to: null } },
    });
  });
}

/** Every comment of the tree, in the export. */
export const commentsExportSection = postsExportSection('comments', presentComment);
