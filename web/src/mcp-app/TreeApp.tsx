// The App's page: the tree's name and counts, the drawing in the tree's style (the web app's
// TreeDrawing, so the same seeded picture), and under it what was chosen: a task's title and
// status, or a project's name. The chosen line is a polite live region, so a screen reader says it.
import { useMemo, useState } from 'preact/hooks';
import { TREE_STYLES, TreeDrawing, type LayoutInput, type LayoutTask } from '../tree/index';
import type { TreeSnapshot } from '../api/types';
import { isOverdue, today } from '../components/due';
import type { Shown } from './shown';
import { fill, type Words } from './words';

interface Props {
  shown: Shown;
  words: Words;
  timeZone: string;
}

export function TreeApp({ shown, words, timeZone }: Props) {
  if (shown.kind === 'tree') return <Tree snapshot={shown.snapshot} words={words} timeZone={timeZone} />;
  const message =
    shown.kind === 'waiting'
      ? words.mcpApp.waiting
      : shown.kind === 'cancelled'
        ? words.mcpApp.cancelled
        : fill(words.mcpApp.failed, { message: shown.message });
  return (
    <main class="app">
      <p class={shown.kind === 'failed' ? 'app-note failed' : 'app-note'} role="status">
        {message}
      </p>
    </main>
  );
}

function Tree({ snapshot, words, timeZone }: { snapshot: TreeSnapshot; words: Words; timeZone: string }) {
  const [chosen, setChosen] = useState<string | null>(null);
  const { tree, projects, tasks } = snapshot;
  const input = useMemo<LayoutInput>(
    () => ({ treeId: tree.id, name: tree.name, projects, tasks }),
    [tree.id, tree.name, projects, tasks],
  );
  const overdue = useMemo<ReadonlySet<string>>(() => {
    const day = today(timeZone);
    return new Set(tasks.filter((x) => isOverdue(x, timeZone, day)).map((x) => x.id));
  }, [tasks, timeZone]);
  // Stable, so the drawing builds its nodes once (web/src/tree/README.md).
  const labels = useMemo(() => {
    const task = (x: LayoutTask) => {
      const label = fill(words.tree.taskLabel, { title: x.title, status: words.status[x.status] });
      return overdue.has(x.id) ? fill(words.due.overdueLabel, { label }) : label;
    };
    return {
      drawing: fill(words.tree.drawing, { name: tree.name }),
      task,
      project: (p: { name: string }) => fill(words.tree.projectLabel, { name: p.name }),
    };
  }, [words, tree.name, overdue]);
  const open = tasks.filter((x) => x.status === 'todo' || x.status === 'open').length;
  const done = tasks.filter((x) => x.status === 'done').length;
  const task = tasks.find((x) => x.id === chosen);
  const project = task === undefined ? projects.find((p) => p.id === chosen) : undefined;

  return (
    <main class="app">
      <header class="app-head">
        <h1>{tree.name}</h1>
        <p class="app-counts">{fill(words.treeCard.counts, { open, done })}</p>
      </header>
      {tasks.length === 0 && projects.length === 0 ? <p class="app-note">{words.tree.emptyTree}</p> : null}
      <div class="app-drawing">
        <TreeDrawing
          input={input}
          style={TREE_STYLES.includes(tree.style) ? tree.style : 'tidy-fan'}
          selectedId={chosen}
          overdue={overdue}
          onOpenTask={setChosen}
          onOpenProject={setChosen}
          labels={labels}
        />
      </div>
      <section class="app-chosen" aria-live="polite">
        {task !== undefined ? (
          <>
            <p class="app-chosen-title" data-chosen-task-id={task.id}>
              {task.title}
            </p>
            <p class={`app-chosen-status status-${task.status}`}>
              {fill(words.mcpApp.status, { status: words.status[task.status] })}
              {overdue.has(task.id) ? ` · ${words.due.overdue}` : ''}
            </p>
          </>
        ) : project !== undefined ? (
          <p class="app-chosen-title">{fill(words.tree.projectLabel, { name: project.name })}</p>
        ) : (
          <p class="app-hint">{words.mcpApp.hint}</p>
        )}
      </section>
    </main>
  );
}
