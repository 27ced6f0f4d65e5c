import { useState } from 'preact/hooks';
import { projects, tasks, trees } from '../../api/endpoints';
import type { Project, Task, Tree, TreeStyleName } from '../../api/types';
import { PROJECT_NAME_MAX, TITLE_MAX, TREE_NAME_MAX } from '../../api/bounds';
import { useT } from '../../i18n/use-t';
import { Modal } from '../../components/Modal';
import { ErrorNote } from '../../components/ErrorNote';
import { useSubmit } from '../../components/useSubmit';
import { Field } from '../../components/Field';
import { StyleSelect } from '../trees/StyleSelect';
import { ProjectSelect } from './ProjectSelect';
import { requireNotBlank } from '../../components/blank';

/** The dialog of each kind of item: a tree is a name and a style; a project a name and where it grows; a task a title and its project. */
export type ItemDialogProps =
  | {
      kind: 'tree';
      /** Rename and restyle this tree instead of planting a new one. */ tree?: Tree;
      onSaved(tree: Tree): void;
      onClose(): void;
    }
  | { kind: 'project'; treeId: string; projects: Project[]; onSaved(project: Project): void; onClose(): void }
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
  const [text, setText] = useState(tree?.name ?? '');
  const [style, setStyle] = useState<TreeStyleName>(tree?.style ?? 'tidy-fan');
  const [place, setPlace] = useState<string | null>(null);
  const { busy, error, submit } = useSubmit(
    async () => {
      requireNotBlank(text, t(FIELDS[props.kind].text));
      await save(props, text.trim(), style, place);
      props.onClose();
    },
    { leaves: true },
  );
  const fields = FIELDS[props.kind];
  const title =
    props.kind === 'tree' ? t(tree === undefined ? 'trees.newTree' : 'trees.editTitle') : t(FIELDS[props.kind].title);
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
        {props.kind === 'tree' ? (
          <StyleSelect value={style} onChange={setStyle} />
        ) : (
          <ProjectSelect
            label={t(FIELDS[props.kind].place)}
            projects={props.projects}
            value={place}
            onChange={setPlace}
            noneLabel={t(FIELDS[props.kind].none)}
          />
        )}
        <ErrorNote error={error} />
        <div class="actions">
          <button type="button" class="btn ghost" onClick={props.onClose}>
            {t('common.cancel')}
          </button>
          <button class="btn primary" disabled={busy}>
            {t('common.save')}
          </button>
        </div>
      </form>
    </Modal>
  );
}

async function save(props: ItemDialogProps, text: string, style: TreeStyleName, place: string | null): Promise<void> {
  switch (props.kind) {
    case 'tree':
      return props.onSaved(
        props.tree === undefined
          ? await trees.create(text, style)
          : await trees.update(props.tree.id, { name: text, style }),
      );
    case 'project':
      return props.onSaved(await projects.create({ tree_id: props.treeId, name: text, parent_id: place }));
    case 'task':
      return props.onSaved(await tasks.create({ tree_id: props.treeId, title: text, project_id: place }));
  }
}
