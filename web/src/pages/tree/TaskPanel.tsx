import { useEffect, useRef, useState } from 'preact/hooks';
import { attachments, tasks, type TaskPatch } from '../../api/endpoints';
import { useLoad } from '../../components/useLoad';
import { TASK_STATUSES, type Project, type Task, type TaskStatus, type Tree } from '../../api/types';
import { useT } from '../../i18n/use-t';
import { useUser } from '../../session';
import { formatDateTime } from '../../i18n/format';
import { ErrorNote } from '../../components/ErrorNote';
import { useSubmit } from '../../components/useSubmit';
import { DEADLINE_MAX, NOTES_MAX, TEXT_MAX, TITLE_MAX } from '../../api/bounds';
import { Confirm } from '../../components/Confirm';
import { useLeaveGuard } from '../../components/useLeaveGuard';
import { ProjectSelect } from './ProjectSelect';
import { TreeSelect, useTreeProjects } from './TreeSelect';
import { Attachments } from './Attachments';
import { Speech } from './Speech';
import { Field } from '../../components/Field';
import { Comments } from './Comments';
import { Assignees } from './Assignees';
import type { People } from './people';
import { requireNotBlank } from '../../components/blank';
import { saveOrCurrent } from '../../api/versioned';
import { TaskConflict } from './TaskConflict';
import { changes, draftOf, rebase, type Draft } from './taskDraft';

interface Props {
  task: Task;
  projects: Project[];
  people: People;
  /** The actor's role on the tree: a viewer reads, an editor writes, the owner also deletes others' comments. */
  access: 'owner' | 'editor' | 'viewer';
  /** The trees the person may write to, where the task can move (null while they load). */
  trees: Tree[] | null;
  onSaved(task: Task): void;
  /** The task went to another tree. */
  onMoved(task: Task): void;
  onDeleted(id: string): void;
  onClose(): void;
}

/**
 * The task panel. The draft lives here until the server accepts it: a failed save (a dead
 * session, a 429, the network gone) leaves every field as the person typed it.
 */
export function TaskPanel({ task, projects, people, access, trees, onSaved, onMoved, onDeleted, onClose }: Props) {
  const t = useT();
  const user = useUser();
  const [draft, setDraft] = useState<Draft>(() => draftOf(task));
  const [base, setBase] = useState(task);
  if (base !== task) {
    setBase(task);
    setDraft((d) => rebase(d, base, task));
  }
  const dirty = Object.keys(changes(task, draft)).length > 0;
  useLeaveGuard(dirty, t('task.unsaved'));
  // Escape closes the panel, unless a dialog over it takes the key.
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && !event.defaultPrevented && document.querySelector('dialog[open]') === null)
        onClose();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [onClose]);
  // Moving to another tree: the project is chosen among that tree's projects.
  const targetProjects = useTreeProjects(draft.tree_id, task.tree_id, projects);
  const [saved, setSaved] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const canWrite = access !== 'viewer';
  const files = useLoad(() => attachments.list(task.id), [task.id]);
  const set =
    <K extends keyof Draft>(key: K) =>
    (value: Draft[K]) => {
      setDraft((d) => ({ ...d, [key]: value }));
      setSaved(false);
    };
  const deadlineIsDate = draft.deadline === '' || /^\d{4}-\d{2}-\d{2}$/.test(draft.deadline);

  /** A save's answer (or, on Keep theirs, the task as another save left it) becomes what the panel shows. */
  const show = (next: Task) => {
    if (next.tree_id !== task.tree_id) return onMoved(next);
    onSaved(next);
    setDraft(draftOf(next));
  };
  // Saved by someone else since the panel showed the task (412): their task, and the edits that were refused.
  const [conflict, setConflict] = useState<{ current: Task; patch: TaskPatch } | null>(null);
  const saveButton = useRef<HTMLButtonElement>(null);
  const saveOrConflict = async (shown: Task, patch: TaskPatch) => {
    const outcome = await saveOrCurrent(
      () => tasks.update(shown, patch),
      () => tasks.get(task.id),
    );
    if (outcome.current !== undefined) return setConflict({ current: outcome.current, patch });
    setConflict(null);
    show(outcome.saved);
    setSaved(true);
  };
  const {
    busy,
    error,
    submit: save,
  } = useSubmit(async () => {
    requireNotBlank(draft.title, t('fields.title'));
    const patch = changes(task, draft);
    if (Object.keys(patch).length > 0) return saveOrConflict(task, patch);
    show(task);
    setSaved(true);
  });
  // Overwrite: the refused edits again, sent against their version (If-Match of the task just read).
  const resolve = useSubmit(async (keep: 'theirs' | 'mine') => {
    if (conflict === null) return;
    if (keep === 'mine') return saveOrConflict(conflict.current, conflict.patch);
    setConflict(null);
    show(conflict.current);
  });

  return (
    <aside class="card panel" aria-labelledby="panel-title">
      <div class="spread">
        <h2 id="panel-title">{t('task.panel')}</h2>
        <button type="button" class="btn ghost icon" onClick={onClose} aria-label={t('common.close')}>
          ×
        </button>
      </div>
      <form class="stack" onSubmit={save}>
        {canWrite ? null : (
          <p class="note info" role="note">
            {t('task.readOnly')}
          </p>
        )}
        {/* A viewer sees the fields as read-only text boxes: a disabled fieldset, and no Save or Delete. */}
        <fieldset class="plain-fieldset stack" disabled={!canWrite}>
          <Field label={t('fields.title')}>
            {(id) => (
              <input
                id={id}
                value={draft.title}
                onInput={(e) => set('title')(e.currentTarget.value)}
                required
                maxLength={TITLE_MAX}
              />
            )}
          </Field>
          <div class="grid-2">
            <Field label={t('fields.status')}>
              {(id) => (
                <select
                  id={id}
                  value={draft.status}
                  onChange={(e) => set('status')(e.currentTarget.value as TaskStatus)}
                >
                  {TASK_STATUSES.map((s) => (
                    <option key={s} value={s}>
                      {t(`status.${s}`)}
                    </option>
                  ))}
                </select>
              )}
            </Field>
            <Field label={t('fields.deadline')}>
              {(id) => (
                <>
                  {deadlineIsDate ? (
                    <input
                      id={id}
                      type="date"
                      value={draft.deadline}
                      onInput={(e) => set('deadline')(e.currentTarget.value)}
                    />
                  ) : (
                    <input
                      id={id}
                      value={draft.deadline}
                      onInput={(e) => set('deadline')(e.currentTarget.value)}
                      maxLength={DEADLINE_MAX}
                    />
                  )}
                </>
              )}
            </Field>
          </div>
          <div class="grid-2">
            <ProjectSelect
              label={t('fields.project')}
              projects={targetProjects}
              value={draft.project_id}
              onChange={set('project_id')}
              noneLabel={t('tree.noProject')}
            />
            <Field label={t('fields.color')}>
              {(id) => (
                <input id={id} type="color" value={draft.color} onInput={(e) => set('color')(e.currentTarget.value)} />
              )}
            </Field>
          </div>
          {canWrite && trees !== null && trees.length > 1 ? (
            <TreeSelect
              trees={trees}
              value={draft.tree_id}
              onChange={(treeId) => {
                setDraft((d) => ({
                  ...d,
                  tree_id: treeId,
                  project_id: treeId === task.tree_id ? task.project_id : null,
                }));
                setSaved(false);
              }}
            />
          ) : null}
          <Field label={t('fields.text')}>
            {(id) => (
              <textarea
                id={id}
                value={draft.text}
                onInput={(e) => set('text')(e.currentTarget.value)}
                maxLength={TEXT_MAX}
              />
            )}
          </Field>
          <Field label={t('fields.notes')}>
            {(id) => (
              <textarea
                id={id}
                value={draft.notes}
                onInput={(e) => set('notes')(e.currentTarget.value)}
                maxLength={NOTES_MAX}
              />
            )}
          </Field>
        </fieldset>
        <ErrorNote error={error} />
        {saved ? (
          <p class="note ok" role="status">
            {t('common.saved')}
          </p>
        ) : null}
        {canWrite ? (
          <div class="actions">
            <button type="button" class="btn danger" onClick={() => setConfirming(true)}>
              {t('common.delete')}
            </button>
            <button class="btn primary" disabled={busy} ref={saveButton}>
              {t('common.save')}
            </button>
          </div>
        ) : null}
        <p class="muted small-text">
          {t('task.created', { date: formatDateTime(task.created_at, user.timezone) })}
          {task.completed_at !== null
            ? ` · ${t('task.completed', { date: formatDateTime(task.completed_at, user.timezone) })}`
            : ''}
        </p>
      </form>
      <Assignees task={task} people={people} canWrite={canWrite} onSaved={onSaved} />
      <Comments taskId={task.id} people={people} canWrite={canWrite} isOwner={access === 'owner'} />
      <Attachments taskId={task.id} list={files} canWrite={canWrite} />
      <Speech taskId={task.id} files={files.data ?? []} canWrite={canWrite} />
      {conflict !== null ? (
        <TaskConflict
          base={task}
          current={conflict.current}
          patch={conflict.patch}
          projects={projects}
          trees={trees}
          busy={resolve.busy}
          error={resolve.error}
          onKeepTheirs={() => void resolve.run('theirs')}
          onOverwrite={() => void resolve.run('mine')}
          onClose={() => setConflict(null)}
          returnFocus={saveButton}
        />
      ) : null}
      {confirming ? (
        <Confirm
          title={t('task.deleteTitle')}
          text={t('task.deleteText', { title: task.title })}
          confirmLabel={t('common.delete')}
          onConfirm={async () => {
            await tasks.remove(task.id);
            onDeleted(task.id);
          }}
          onClose={() => setConfirming(false)}
        />
      ) : null}
    </aside>
  );
}
