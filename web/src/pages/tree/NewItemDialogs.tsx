import { useState } from 'preact/hooks';
import { projects, tasks } from '../../api/endpoints';
import type { Project, Task } from '../../api/types';
import { useT } from '../../i18n/use-t';
import { Modal } from '../../components/Modal';
import { ErrorNote } from '../../components/ErrorNote';
import { useSubmit } from '../../components/useSubmit';
import { ProjectSelect } from './ProjectSelect';
import { Field } from '../../components/Field';

/** "New project": a name and where it grows (the trunk or inside another project). */
export function NewProjectDialog({ treeId, all, onCreated, onClose }: { treeId: string; all: Project[]; onCreated(p: Project): void; onClose(): void }) {
  const t = useT();
  const [name, setName] = useState('');
  const [parent, setParent] = useState<string | null>(null);
  const { busy, error, submit } = useSubmit(async () => {
    onCreated(await projects.create({ tree_id: treeId, name: name.trim(), parent_id: parent }));
    onClose();
  });
  return (
    <Modal title={t('tree.newProject')} onClose={onClose}>
      <form class="stack" onSubmit={submit}>
        <Field label={t('fields.name')}>{(id) => (
          <input id={id} value={name} onInput={(e) => setName(e.currentTarget.value)} required maxLength={160} />
        )}</Field>
        <ProjectSelect label={t('fields.parent')} projects={all} value={parent} onChange={setParent} noneLabel={t('tree.topLevel')} />
        <ErrorNote error={error} />
        <div class="actions">
          <button type="button" class="btn ghost" onClick={onClose}>{t('common.cancel')}</button>
          <button class="btn primary" disabled={busy}>{t('common.save')}</button>
        </div>
      </form>
    </Modal>
  );
}

/** "New task": a title and its project; everything else is edited in the task panel. */
export function NewTaskDialog({ treeId, all, initialProject, onCreated, onClose }: { treeId: string; all: Project[]; initialProject: string | null; onCreated(task: Task): void; onClose(): void }) {
  const t = useT();
  const [title, setTitle] = useState('');
  const [project, setProject] = useState<string | null>(initialProject);
  const { busy, error, submit } = useSubmit(async () => {
    onCreated(await tasks.create({ tree_id: treeId, title: title.trim(), project_id: project }));
    onClose();
  });
  return (
    <Modal title={t('tree.newTask')} onClose={onClose}>
      <form class="stack" onSubmit={submit}>
        <Field label={t('fields.title')}>{(id) => (
          <input id={id} value={title} onInput={(e) => setTitle(e.currentTarget.value)} required maxLength={500} />
        )}</Field>
        <ProjectSelect label={t('fields.project')} projects={all} value={project} onChange={setProject} noneLabel={t('tree.noProject')} />
        <ErrorNote error={error} />
        <div class="actions">
          <button type="button" class="btn ghost" onClick={onClose}>{t('common.cancel')}</button>
          <button class="btn primary" disabled={busy}>{t('common.save')}</button>
        </div>
      </form>
    </Modal>
  );
}
