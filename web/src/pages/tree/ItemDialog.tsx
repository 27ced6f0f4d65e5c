import { useRef, useState } from 'preact/hooks';
import { projects } from '../../api/endpoints';
import type { Project, Tree, TreeStyleName } from '../../api/types';
import { DESCRIPTION_MAX, PROJECT_NAME_MAX, TITLE_MAX, TREE_NAME_MAX } from '../../api/bounds';
import { useT } from '../../i18n/use-t';
import { Modal } from '../../components/Modal';
import { ErrorNote } from '../../components/ErrorNote';
import { useSubmit } from '../../components/useSubmit';
import { Field } from '../../components/Field';
import { StyleSelect } from '../trees/StyleSelect';
import { Confirm } from '../../components/Confirm';
import { ProjectSelect } from './ProjectSelect';
import { requireNotBlank } from '../../components/blank';
import { TreeSelect, useTreeProjects } from './TreeSelect';
import { save, saveEdit, type ItemConflict, type ItemDialogProps } from './itemSave';
import { ItemConflictDialog } from './ItemConflict';

export type { ItemDialogProps };

/** The words and bound of each kind's text field, and (projects and tasks) of its project picker. */
const FIELDS = {
  tree: { text: 'fields.name', max: TREE_NAME_MAX },
  project: {
    text: 'fields.name',
    max: PROJECT_NAME_MAX,
    place: 'fields.parent',
    none: 'tree.topLevel',
    title: 'tree.newProject',
  },
  task: {
    text: 'fields.title',
    max: TITLE_MAX,
    place: 'fields.project',
    none: 'tree.noProject',
    title: 'tree.newTask',
  },
} as const;

/**
 * New tree, new project, new task (and a tree's rename and restyle): one form whose fields depend on
 * the kind. The fields keep what was typed when saving fails; everything else about a task is edited
 * in the task panel.
 */
export function ItemDialog(props: ItemDialogProps) {
  const t = useT();
  const tree = props.kind === 'tree' ? props.tree : undefined;
  const [style, setStyle] = useState<TreeStyleName>(tree?.style ?? 'tidy-fan');
  const project = props.kind === 'project' ? props.project : undefined;
  const [text, setText] = useState(tree?.name ?? project?.name ?? '');
  const [place, setPlace] = useState<string | null>(project?.parent_id ?? null);
  const [details, setDetails] = useState({
    description: project?.description ?? '',
    color: project?.color ?? '#6b8e23',
    tree_id: project?.tree_id ?? '',
  });
  const [deleting, setDeleting] = useState(false);
  // Saved by someone else since the dialog opened (412): their record, and the edits that were refused.
  const [conflict, setConflict] = useState<ItemConflict | null>(null);
  const saveButton = useRef<HTMLButtonElement>(null);
  /** Keep theirs: the form shows their values, and the page too. */
  const showTheirs = (current: Tree | Project) => {
    setText(current.name);
    if ('style' in current) setStyle(current.style);
    if ('parent_id' in current) {
      setPlace(current.parent_id);
      setDetails({ description: current.description, color: current.color, tree_id: current.tree_id });
    }
  };
  // Not `leaves`: a conflict keeps the dialog open, and a success closes it in the same render.
  const { busy, error, submit } = useSubmit(async () => {
    requireNotBlank(text, t(FIELDS[props.kind].text));
    const refused = await save(props, text.trim(), style, place, details);
    if (refused !== null) return setConflict(refused);
    props.onClose();
  });
  const resolve = useSubmit(async (keep: 'theirs' | 'mine') => {
    if (conflict === null) return;
    if (keep === 'theirs') {
      setConflict(null);
      showTheirs(conflict.current);
      if (props.kind === 'tree' && conflict.kind === 'tree') props.onSaved(conflict.current);
      if (props.kind === 'project' && conflict.kind === 'project') props.onSaved(conflict.current);
      return;
    }
    const again = await saveEdit(props, conflict);
    setConflict(again);
    if (again === null) props.onClose();
  });
  const fields = FIELDS[props.kind];
  const title =
    props.kind === 'tree'
      ? t(tree === undefined ? 'trees.newTree' : 'trees.editTitle')
      : project !== undefined
        ? t('project.editTitle')
        : t(FIELDS[props.kind].title);
  // A project moves among the projects of the tree it goes to, never under itself.
  const here = props.kind === 'tree' ? '' : props.treeId;
  const chosenTree = project !== undefined ? details.tree_id : here;
  const places = useTreeProjects(chosenTree, here, props.kind === 'tree' ? [] : props.projects).filter(
    (p) => project === undefined || !insideOf(p, project.id, props.kind === 'tree' ? [] : props.projects),
  );
  return (
    <Modal title={title} onClose={props.onClose}>
      <form class="stack" onSubmit={submit}>
        <Field label={t(fields.text)}>
          {(id) => (
            <input
              id={id}
              value={text}
              onInput={(e) => setText(e.currentTarget.value)}
              required
              maxLength={fields.max}
            />
          )}
        </Field>
        {project !== undefined ? (
          <>
            <Field label={t('fields.description')}>
              {(id) => (
                <textarea
                  id={id}
                  value={details.description}
                  onInput={(e) => setDetails((d) => ({ ...d, description: e.currentTarget.value }))}
                  maxLength={DESCRIPTION_MAX}
                />
              )}
            </Field>
            <Field label={t('fields.color')}>
              {(id) => (
                <input
                  id={id}
                  type="color"
                  value={details.color}
                  onInput={(e) => setDetails((d) => ({ ...d, color: e.currentTarget.value }))}
                />
              )}
            </Field>
            {props.kind === 'project' && props.trees !== undefined && props.trees.length > 1 ? (
              <TreeSelect
                trees={props.trees}
                value={details.tree_id}
                onChange={(treeId) => {
                  setDetails((d) => ({ ...d, tree_id: treeId }));
                  setPlace(treeId === project.tree_id ? project.parent_id : null);
                }}
              />
            ) : null}
          </>
        ) : null}
        {props.kind === 'tree' ? (
          <StyleSelect value={style} onChange={setStyle} />
        ) : (
          <ProjectSelect
            label={t(FIELDS[props.kind].place)}
            projects={places}
            value={place}
            onChange={setPlace}
            noneLabel={t(FIELDS[props.kind].none)}
          />
        )}
        <ErrorNote error={error} />
        <div class="actions">
          {project !== undefined ? (
            <button type="button" class="btn danger push-start" onClick={() => setDeleting(true)}>
              {t('common.delete')}
            </button>
          ) : null}
          <button type="button" class="btn ghost" onClick={props.onClose}>
            {t('common.cancel')}
          </button>
          <button class="btn primary" disabled={busy} ref={saveButton}>
            {t('common.save')}
          </button>
        </div>
      </form>
      {conflict !== null ? (
        <ItemConflictDialog
          conflict={conflict}
          base={conflict.kind === 'tree' ? (tree ?? conflict.current) : (project ?? conflict.current)}
          projects={props.kind === 'project' ? props.projects : []}
          trees={props.kind === 'project' ? (props.trees ?? []) : []}
          busy={resolve.busy}
          error={resolve.error}
          onKeepTheirs={() => void resolve.run('theirs')}
          onOverwrite={() => void resolve.run('mine')}
          onClose={() => setConflict(null)}
          returnFocus={saveButton}
        />
      ) : null}
      {deleting && props.kind === 'project' && project !== undefined ? (
        <Confirm
          title={t('project.deleteTitle')}
          text={t('project.deleteText', {
            name: project.name,
            projects: props.contents?.projects ?? 0,
            tasks: props.contents?.tasks ?? 0,
          })}
          confirmLabel={t('common.delete')}
          onConfirm={async () => {
            await projects.remove(project.id);
            props.onDeleted?.();
            props.onClose();
          }}
          onClose={() => setDeleting(false)}
        />
      ) : null}
    </Modal>
  );
}

/** True when `p` is the project `id` or grows under it. */
function insideOf(p: Project, id: string, all: Project[]): boolean {
  const byId = new Map(all.map((x) => [x.id, x]));
  for (
    let at: Project | undefined = p;
    at !== undefined;
    at = at.parent_id !== null ? byId.get(at.parent_id) : undefined
  )
    if (at.id === id) return true;
  return false;
}
