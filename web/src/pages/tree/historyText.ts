import type { useT } from '../../i18n/use-t';
import type { HistoryEntry } from '../../api/types';
import type { People } from './people';

/** What a history entry may name besides people: tasks and projects still in the tree. */
export interface Names {
  task(id: string): string | null;
  project(id: string): string | null;
}

/**
 * One history entry as a sentence ("Ada renamed the task “Seeds” to “Heirloom seeds”"). Text and
 * notes are never in `changes` (CONTRACT §10 says "changed"), so only their field names are shown.
 */
export function describeEntry(t: ReturnType<typeof useT>, entry: HistoryEntry, people: People, names: Names): string {
  // Quotation marks as the language writes them: “Seeds” in English, «Семена» in Russian.
  const quote = (value: unknown) => t('history.quoted', { text: String(value) });
  const actor = people.label(entry.actor_id);
  const c = entry.changes;
  const fields = Object.keys(c)
    .map((f) => t(`history.fieldNames.${f}`, { defaultValue: f }) as string)
    .join(', ');
  const rename = c.title ?? c.name;
  const taskName = (id: unknown) =>
    typeof id === 'string' && names.task(id) !== null ? quote(names.task(id)) : t('history.aTask');
  switch (entry.entity) {
    case 'task': {
      const name =
        rename?.from != null && entry.action === 'deleted'
          ? quote(rename.from)
          : rename?.to != null && (entry.action === 'created' || entry.action === 'imported')
            ? quote(rename.to)
            : taskName(entry.entity_id);
      if (entry.action === 'created') return t('history.taskCreated', { actor, name });
      if (entry.action === 'deleted') return t('history.taskDeleted', { actor, name });
      if (entry.action === 'moved') {
        // Between trees the entry holds only {tree_id: {from, to}} (CONTRACT §19).
        const to = c.tree_id?.to;
        if (typeof to === 'string')
          return to === entry.tree_id
            ? t('history.taskMovedIn', { actor, name })
            : t('history.taskMovedOut', { actor, name });
        return t('history.taskMoved', { actor, name });
      }
      if (entry.action === 'completed') return t('history.taskCompleted', { actor, name });
      // One entry per imported record (CONTRACT §16.3); entries written before that counted the tasks.
      if (entry.action === 'imported')
        return c.tasks !== undefined
          ? t('history.imported', { actor, count: Number(c.tasks.to ?? 0) })
          : t('history.taskImported', { actor, name });
      if (c.title !== undefined && Object.keys(c).length === 1)
        return t('history.taskRenamed', { actor, from: quote(c.title.from), to: quote(c.title.to) });
      if (c.status !== undefined && Object.keys(c).length === 1)
        return t('history.taskStatus', {
          actor,
          name,
          status: t(`status.${String(c.status.to)}` as 'status.todo', { defaultValue: String(c.status.to) }),
        });
      if (c.assignee_ids !== undefined) return t('history.taskAssigned', { actor, name });
      return t('history.taskChanged', { actor, name, fields });
    }
    case 'project': {
      const known = names.project(entry.entity_id);
      const name =
        rename?.to != null && (entry.action === 'created' || entry.action === 'imported')
          ? quote(rename.to)
          : rename?.from != null && entry.action === 'deleted'
            ? quote(rename.from)
            : known !== null
              ? quote(known)
              : t('history.aProject');
      if (entry.action === 'created') return t('history.projectCreated', { actor, name });
      if (entry.action === 'imported') return t('history.projectImported', { actor, name });
      if (entry.action === 'deleted') return t('history.projectDeleted', { actor, name });
      if (entry.action === 'moved') return t('history.projectMoved', { actor, name });
      if (c.name !== undefined && Object.keys(c).length === 1)
        return t('history.projectRenamed', { actor, from: quote(c.name.from), to: quote(c.name.to) });
      return t('history.projectChanged', { actor, name, fields });
    }
    case 'tree':
      if (entry.action === 'created') return t('history.treeCreated', { actor });
      if (c.name !== undefined && Object.keys(c).length === 1)
        return t('history.treeRenamed', { actor, from: quote(c.name.from), to: quote(c.name.to) });
      return t('history.treeChanged', { actor, fields });
    case 'import':
      return t('history.imported', { actor, count: Number(c.tasks?.to ?? 0) });
    case 'comment':
      if (entry.action === 'created') return t('history.commentCreated', { actor, name: taskName(c.task_id?.to) });
      return entry.action === 'deleted'
        ? t('history.commentDeleted', { actor })
        : t('history.commentUpdated', { actor });
    case 'message':
      return t('history.messageCreated', { actor });
    case 'attachment': {
      const file = c.filename !== undefined ? quote(c.filename.to ?? c.filename.from) : t('history.aFile');
      if (entry.action === 'deleted') return t('history.attachmentDeleted', { actor, file });
      return t('history.attachmentCreated', { actor, file, name: taskName(c.task_id?.to) });
    }
    case 'member': {
      const email =
        people.memberLabel(entry.entity_id) ?? (typeof c.email?.to === 'string' ? c.email.to : t('people.someone'));
      if (entry.action === 'created')
        return t('history.memberInvited', {
          actor,
          email,
          role: t(`sharing.roles.${c.role?.to === 'editor' ? 'editor' : 'viewer'}`),
        });
      if (entry.action === 'deleted' || c.status?.to === 'revoked') return t('history.memberRevoked', { actor, email });
      if (c.status?.to === 'active') return t('history.memberJoined', { actor });
      return t('history.memberChanged', { actor, email });
    }
  }
  return t('history.other', { actor, entity: entry.entity, action: entry.action });
}
