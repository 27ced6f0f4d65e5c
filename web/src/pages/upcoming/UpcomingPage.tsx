import { useMemo, useRef, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { projects, tasks, trees } from '../../api/endpoints';
import type { Task } from '../../api/types';
import { useT } from '../../i18n/use-t';
import { useUser } from '../../session';
import { useLoad } from '../../components/useLoad';
import { ErrorNote } from '../../components/ErrorNote';
import { usePageTitle } from '../../components/usePageTitle';
import { confirmLeave } from '../../components/useLeaveGuard';
import { DUE_GROUPS, dueGroup, dueOrder, isOpen, today, type DueGroup } from '../../components/due';
import { UpcomingRow } from './UpcomingRow';
import { UpcomingPanel } from './UpcomingPanel';

/**
 * What is due (CONTRACT §18): the person's open tasks with a deadline in every tree they see,
 * grouped Overdue, Today, Next 7 days, Later by the days of their own time zone. A row opens the
 * task panel beside the list; the task is in the address (`/upcoming?task=…`), as on a tree.
 */
export function UpcomingPage() {
  const t = useT();
  const user = useUser();
  usePageTitle(t('upcoming.title'));
  const { query, route } = useLocation();
  const [mine, setMine] = useState(false);
  const list = useLoad(async () => {
    const assignee = mine ? user.id : undefined;
    const [todo, open] = await Promise.all([
      tasks.withDeadline('todo', assignee),
      tasks.withDeadline('open', assignee),
    ]);
    return [...todo, ...open];
  }, [mine, user.id]);
  // Names of trees and projects for the rows; a failure leaves the rows without them, never blocks the list.
  const names = useLoad(async () => {
    const [treeList, projectList] = await Promise.all([trees.list(), projects.list().catch(() => [])]);
    return { trees: treeList, projects: projectList, byId: new Map(projectList.map((p) => [p.id, p])) };
  }, []);
  const day = today(user.timezone);
  const groups = useMemo(() => {
    const by = new Map<DueGroup, Task[]>(DUE_GROUPS.map((g) => [g, []]));
    for (const task of list.data ?? []) {
      if (task.deadline === null || !isOpen(task)) continue;
      by.get(dueGroup(task.deadline, user.timezone, day))!.push(task);
    }
    // Soonest first, in the person's days.
    const order = dueOrder(user.timezone);
    for (const rows of by.values()) rows.sort((a, b) => order(a.deadline!, b.deadline!));
    return by;
  }, [list.data, user.timezone, day]);

  const selected = query.task ?? null;
  const opener = useRef<Element | null>(null);
  const task = list.data?.find((x) => x.id === selected) ?? null;
  const open = (id: string) => {
    if (id === selected || !confirmLeave()) return;
    opener.current = document.activeElement;
    route(`/upcoming?task=${encodeURIComponent(id)}`, true);
  };
  const close = (ask = true) => {
    if (ask && !confirmLeave()) return;
    const back = opener.current;
    route('/upcoming', true);
    requestAnimationFrame(() => (back instanceof HTMLElement && back.isConnected ? back.focus() : undefined));
  };
  const replace = (next: Task) => list.setData((old) => (old ?? []).map((x) => (x.id === next.id ? next : x)));
  const drop = (id: string) => {
    list.setData((old) => (old ?? []).filter((x) => x.id !== id));
    close(false);
  };
  const count = [...groups.values()].reduce((n, rows) => n + rows.length, 0);
  const treeOf = (id: string) => names.data?.trees.find((x) => x.id === id);

  return (
    <section class="page wide">
      <div class="page-head">
        <div>
          <h1>{t('upcoming.title')}</h1>
          <p class="lead">{t('upcoming.lead')}</p>
        </div>
        <label class="switch">
          <input type="checkbox" role="switch" checked={mine} onChange={(e) => setMine(e.currentTarget.checked)} />
          <span>{t('upcoming.assignedToMe')}</span>
        </label>
      </div>
      <ErrorNote error={list.error} onRetry={list.reload} />
      {list.loading && list.data === null ? <p class="muted">{t('common.loading')}</p> : null}
      {list.data !== null && count === 0 ? (
        <div class="card empty">
          <p>{mine ? t('upcoming.emptyMine') : t('upcoming.empty')}</p>
          <a class="btn" href="/trees">
            {t('upcoming.toTrees')}
          </a>
        </div>
      ) : null}
      <div class={task !== null ? 'tree-layout' : 'tree-layout no-panel'}>
        <div class="stack">
          {DUE_GROUPS.filter((g) => groups.get(g)!.length > 0).map((g) => (
            <section key={g} class={`card due-group due-${g}`} aria-labelledby={`due-${g}`}>
              <h2 id={`due-${g}`}>
                {t(`upcoming.groups.${g}`)} <span class="muted small-text">({groups.get(g)!.length})</span>
              </h2>
              <ul class="due-rows">
                {groups.get(g)!.map((x) => (
                  <UpcomingRow
                    key={x.id}
                    task={x}
                    overdue={g === 'overdue'}
                    treeName={treeOf(x.tree_id)?.name ?? ''}
                    projectName={x.project_id === null ? null : (names.data?.byId.get(x.project_id)?.name ?? '')}
                    selected={x.id === selected}
                    onOpen={open}
                  />
                ))}
              </ul>
            </section>
          ))}
        </div>
        {task !== null ? (
          <UpcomingPanel
            key={task.id}
            task={task}
            tree={treeOf(task.tree_id) ?? null}
            trees={names.data?.trees ?? null}
            projects={names.data?.projects ?? []}
            onSaved={replace}
            onGone={drop}
            onClose={close}
          />
        ) : null}
      </div>
    </section>
  );
}
