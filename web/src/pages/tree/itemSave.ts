import { projects, tasks, trees, type ProjectPatch } from '../../api/endpoints';
import type { Project, Task, Tree, TreeStyleName } from '../../api/types';
import { saveOrCurrent } from '../../api/versioned';

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

/** What the project editor's fields hold besides its name and place. */
export interface ProjectDetails {
  description: string;
  color: string;
  tree_id: string;
}

/** Only what changed is sent: a move to another tree carries the project's whole subtree (CONTRACT §6). */
function projectChanges(project: Project, name: string, place: string | null, details: ProjectDetails): ProjectPatch {
  const patch: ProjectPatch = {};
  if (name !== project.name) patch.name = name;
  if (details.description !== project.description) patch.description = details.description;
  if (details.color.toLowerCase() !== project.color.toLowerCase()) patch.color = details.color;
  if (details.tree_id !== project.tree_id) patch.tree_id = details.tree_id;
  if (place !== project.parent_id || patch.tree_id !== undefined) patch.parent_id = place;
  return patch;
}

/** A tree's rename or restyle, or a project's edit, refused because another save came first (412). */
export type ItemConflict =
  { kind: 'tree'; current: Tree; patch: TreePatch } | { kind: 'project'; current: Project; patch: ProjectPatch };
type TreePatch = { name?: string; style?: TreeStyleName };

function treeChanges(tree: Tree, name: string, style: TreeStyleName): TreePatch {
  const patch: TreePatch = {};
  if (name !== tree.name) patch.name = name;
  if (style !== tree.style) patch.style = style;
  return patch;
}

/** Saves the dialog; an edit whose record changed meanwhile answers with that record for the conflict dialog. */
export async function save(
  props: ItemDialogProps,
  text: string,
  style: TreeStyleName,
  place: string | null,
  details: ProjectDetails,
): Promise<ItemConflict | null> {
  switch (props.kind) {
    case 'tree': {
      const tree = props.tree;
      if (tree !== undefined)
        return saveEdit(props, { kind: 'tree', current: tree, patch: treeChanges(tree, text, style) });
      props.onSaved(await trees.create(text, style));
      return null;
    }
    case 'project': {
      const project = props.project;
      if (project !== undefined)
        return saveEdit(props, {
          kind: 'project',
          current: project,
          patch: projectChanges(project, text, place, details),
        });
      props.onSaved(await projects.create({ tree_id: props.treeId, name: text, parent_id: place }));
      return null;
    }
    case 'task':
      props.onSaved(await tasks.create({ tree_id: props.treeId, title: text, project_id: place }));
      return null;
  }
}

/**
 * Sends an edit against the record as shown (If-Match): null when saved, else the refused edit with
 * the record as it is now. Overwrite calls it again with that record.
 */
export async function saveEdit(props: ItemDialogProps, edit: ItemConflict): Promise<ItemConflict | null> {
  if (Object.keys(edit.patch).length === 0) {
    if (props.kind === 'tree' && edit.kind === 'tree') props.onSaved(edit.current);
    if (props.kind === 'project' && edit.kind === 'project') props.onSaved(edit.current);
    return null;
  }
  if (props.kind === 'tree' && edit.kind === 'tree') {
    const outcome = await saveOrCurrent(
      () => trees.update(edit.current, edit.patch),
      async () => (await trees.get(edit.current.id)).tree,
    );
    if (outcome.current !== undefined) return { ...edit, current: outcome.current };
    props.onSaved(outcome.saved);
    return null;
  }
  if (props.kind === 'project' && edit.kind === 'project') {
    const outcome = await saveOrCurrent(
      () => projects.update(edit.current, edit.patch),
      () => projects.get(edit.current.id),
    );
    if (outcome.current !== undefined) return { ...edit, current: outcome.current };
    props.onSaved(outcome.saved);
    return null;
  }
  return null;
}
