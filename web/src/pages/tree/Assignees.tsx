import { useState } from 'preact/hooks';
import { assignees, tasks } from '../../api/endpoints';
import { isChangedMeanwhile } from '../../api/client';
import type { Task } from '../../api/types';
import { useT } from '../../i18n/use-t';
import { ErrorNote } from '../../components/ErrorNote';
import { useSubmit } from '../../components/useSubmit';
import type { People } from './people';

/**
 * Who works on a task: a checkbox per person who may be assigned (the owner and active members).
 * Each change is saved at once with PUT, so there is no second Save to forget.
 */
export function Assignees({
  task,
  people,
  canWrite,
  onSaved,
}: {
  task: Task;
  people: People;
  canWrite: boolean;
  onSaved(task: Task): void;
}) {
  const t = useT();
  // The boxes show the choice at once; a refused change puts them back as the server has them.
  const [chosen, setChosen] = useState<readonly string[]>(task.assignee_ids);
  // Someone assigned earlier who has since left still shows, so the list never hides an assignment.
  const choices = [
    ...people.assignable,
    ...chosen
      .filter((id) => !people.assignable.some((p) => p.id === id))
      .map((id) => ({ id, label: people.label(id) })),
  ];

  const {
    busy,
    error,
    run: toggle,
  } = useSubmit(async (userId: string, on: boolean) => {
    const next = on ? [...chosen, userId] : chosen.filter((id) => id !== userId);
    setChosen(next);
    try {
      const saved = await assignees.set(task, next);
      setChosen(saved.assignee_ids);
      onSaved(saved);
    } catch (e) {
      setChosen(task.assignee_ids);
      // Changed elsewhere since the panel showed it (412): the panel follows, the person chooses again.
      if (isChangedMeanwhile(e)) {
        const current = await tasks.get(task.id);
        setChosen(current.assignee_ids);
        onSaved(current);
      }
      throw e;
    }
  });

  return (
    <section class="panel-section" aria-labelledby="assignees-title">
      <h3 id="assignees-title">{t('assignees.title')}</h3>
      {canWrite ? (
        <fieldset class="checks">
          <legend class="visually-hidden">{t('assignees.choose')}</legend>
          {choices.map((p) => (
            <label key={p.id} class="check">
              <input
                type="checkbox"
                checked={chosen.includes(p.id)}
                disabled={busy}
                onChange={(e) => void toggle(p.id, e.currentTarget.checked)}
              />
              <span>{p.label}</span>
            </label>
          ))}
        </fieldset>
      ) : task.assignee_ids.length === 0 ? (
        <p class="muted small-text">{t('assignees.none')}</p>
      ) : (
        <ul class="plain">
          {task.assignee_ids.map((id) => (
            <li key={id}>{people.label(id)}</li>
          ))}
        </ul>
      )}
      <ErrorNote error={error} />
    </section>
  );
}
