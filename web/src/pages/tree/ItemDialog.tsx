import { useState } from 'preact/hooks';
import { projects, tasks, trees, type ProjectPatch } from '../../api/endpoints';
import type { Project, Task, Tree, TreeStyleName } from '../../api/types';
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

/** The dialog of each kind of item: a tree is a name and a style; a project a name and where it grows; a task a title and its project. */
export type ItemDialogProps =
  | {
      kind: 'tree';
      /** Rename and restyle this tree instead of planting a new one. */ tree?: Tree;
      onSaved(tree: Tree): void;
      onClose(): void;
    }
  | {
      kind: 'project';
      treeId: string;
      projects: Project[];
      /** Edit this project (name, description, colour, place, tree, delete) instead of making one. */
      project?: Project;
      /** Where it can move (the trees the person may write to); edit only. */
      trees?: Tree[];
      /** What deleting it removes with it: sub-projects and tasks; edit only. */
      contents?: { projects: number; tasks: number };
      onSaved(project: Project): void;
      onDeleted?(): void;
      onClose(): void;
    }
  | { kind: 'task'; treeId: string; projects: Project[]; onSaved(task: Task): void; onClose(): void };

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
  const { busy, error, submit } = useSubmit(
    async () => {
      requireNotBlank(text, t(FIELDS[props.kind].text));
      await save(props, text.trim(), style, place, details);
      props.onClose();
    },
    { leaves: true },
  );
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
          <button class="btn primary" disabled={busy}>
            {t('common.save')}
          </button>
        </div>
      </form>
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

/** Only what changed is sent: a move to another tree carries the project's whole subtree (CONTRACT §6). */
function projectChanges(
  project: Project,
  name: string,
  place: string | null,
  details: { description: string; color: string; tree_id: string },
): ProjectPatch {
  const patch: ProjectPatch = {};
  if (name !== project.name) patch.name = name;
  if (details.description !== project.description) patch.description = details.description;
  if (details.color.toLowerCase() !== project.color.toLowerCase()) patch.color = details.color;
  if (details.tree_id !== project.tree_id) patch.tree_id = details.tree_id;
  if (place !== project.parent_id || patch.tree_id !== undefined) patch.parent_id = place;
  return patch;
}

async function save(
  props: ItemDialogProps,
  text: string,
  style: TreeStyleName,
  place: string | null,
  details: { description: string; color: string; tree_id: string },
): Promise<void> {
  switch (props.kind) {
    case 'tree':
      return props.onSaved(
        props.tree === undefined
          ? await trees.create(text, style)
          : await trees.update(props.tree.id, { name: text, style }),
      );
    case 'project': {
      const project = props.project;
      if (project === undefined)
        return props.onSaved(await projects.create({ tree_id: props.treeId, name: text, parent_id: place }));
      const patch = projectChanges(project, text, place, details);
      return props.onSaved(Object.keys(patch).length > 0 ? await projects.update(project.id, patch) : project);
    }
    case 'task':
      return props.onSaved(await tasks.create({ tree_id: props.treeId, title: text, project_id: place }));
  }
}
