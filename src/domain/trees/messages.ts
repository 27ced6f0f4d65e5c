import type { Selectable } from 'kysely';
import type { Actor } from '../actor.js';
import type { Deps } from '../deps.js';
import type { MessageTable } from '../../store/schema.js';
import { requireRead, requireWrite } from '../actor.js';
import { requireTreeWrite, treeAccess } from '../access.js';
import type { Page, PageInput } from '../paging.js';
import { listPage } from '../list-page.js';
import { appendHistory } from './history.js';
import { checkBody, postsExportSection } from './posts.js';
import { newId, nowIso } from '../ids.js';
import { inTransaction } from '../../store/db.js';

type MessageRow = Selectable<MessageTable>;

/** A message in a tree's discussion (CONTRACT §10: a comment's shape with `tree_id`). */
export interface Message {
  id: string;
  tree_id: string;
  /** Null once the author deleted their account. */
  author_id: string | null;
  body: string;
  created_at: string;
  updated_at: string;
}

export function presentMessage(row: MessageRow): Message {
  return {
    id: row.id,
    tree_id: row.tree_id,
    author_id: row.author_id,
    body: row.body,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** The tree's messages in creation order. @throws not_found, invalid_cursor */
export async function listMessages(deps: Deps, actor: Actor, treeId: string, input: PageInput): Promise<Page<Message>> {
  requireRead(actor);
  await treeAccess(deps.db, actor, treeId);
  const { rows, next_cursor } = await listPage(
    deps,
    actor,
    { table: 'messages', endpoint: 'messages', equal: { tree_id: treeId } },
    input,
  );
  return { items: rows.map(presentMessage), next_cursor };
}

/** Owners and editors post; viewers read. @throws not_found, forbidden, validation_failed */
export async function createMessage(deps: Deps, actor: Actor, treeId: string, body: string): Promise<Message> {
  requireWrite(actor);
  checkBody(body);
  return inTransaction(deps.db, async (trx) => {
    const access = await treeAccess(trx, actor, treeId);
    requireTreeWrite(access);
    const now = nowIso();
    const row = {
      id: newId('msg'),
      owner_id: access.ownerId,
      tree_id: treeId,
      author_id: actor.user.id,
      body,
      created_at: now,
      updated_at: now,
    };
    const inserted = await trx.insertInto('messages').values(row).returningAll().executeTakeFirstOrThrow();
    await appendHistory(
      trx,
      actor,
      { ownerId: access.ownerId, treeId, entity: 'message', entityId: row.id, action: 'created' },
      now,
    );
    return presentMessage(inserted);
  });
}

/** Every message of the tree, in the export. */
export const messagesExportSection = postsExportSection('messages', presentMessage);
