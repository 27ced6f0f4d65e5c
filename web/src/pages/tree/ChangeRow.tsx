import { useMemo, useState } from 'preact/hooks';
import { useT } from '../../i18n/use-t';
import { formatDateTime } from '../../i18n/format';
import type { ChangeGroup } from '../changes/changeGroups';
import { summarize, whoMade } from '../changes/changeText';
import { describeEntry, type Names } from './historyText';
import type { People } from './people';
import { useTaskNames } from './useTaskNames';

/**
 * One change of the History tab: its summary (a button that shows its entries), who made it (an
 * agent marked as one) and when, and `Undo` where the viewer may write and there is something to undo.
 */
export function ChangeRow({
  change,
  people,
  names,
  timezone,
  undo,
  undone,
  expanded: startExpanded = false,
}: {
  change: ChangeGroup;
  people: People;
  names: Names;
  timezone: string;
  /** Present when the viewer may undo this change. */
  undo?: () => void;
  /** A later change of the list undid this one. */
  undone: boolean;
  expanded?: boolean;
}) {
  const t = useT();
  const [expanded, setExpanded] = useState(startExpanded);
  const who = whoMade(change, people);
  const summary = useMemo(() => summarize(t, change), [t, change]);
  const id = `change-${change.key}`;
  return (
    <li class={who.agent ? 'change by-agent' : 'change'} data-change-id={change.changeId ?? undefined}>
      <div class="change-head">
        <button
          type="button"
          class="change-toggle"
          id={`${id}-summary`}
          aria-expanded={expanded}
          aria-controls={id}
          onClick={() => setExpanded((x) => !x)}
        >
          <span class="change-caret" aria-hidden="true">
            {expanded ? '▾' : '▸'}
          </span>
          <span>{summary}</span>
        </button>
        {undone ? (
          <span class="badge grey">{t('changes.undone')}</span>
        ) : undo !== undefined ? (
          <button type="button" class="btn small" aria-describedby={`${id}-summary ${id}-meta`} onClick={undo}>
            {t('changes.undo')}
          </button>
        ) : null}
      </div>
      <p class="change-meta muted small-text" id={`${id}-meta`}>
        <span class="change-who">{who.name}</span>
        {who.agent ? <span class="badge agent">{t('changes.agent')}</span> : null}
        <span aria-hidden="true"> · </span>
        <time dateTime={change.at}>{formatDateTime(change.at, timezone)}</time>
        {change.reverts !== null ? <span> · {t('changes.undoes')}</span> : null}
      </p>
      {expanded ? <Entries id={id} change={change} people={people} names={names} /> : <div id={id} hidden />}
    </li>
  );
}

/** The change's entries as sentences; an agent's are said in the agent's name. */
function Entries({ id, change, people, names }: { id: string; change: ChangeGroup; people: People; names: Names }) {
  const t = useT();
  const known = useTaskNames(change.entries, names);
  const who = whoMade(change, people);
  const speaker = useMemo<People>(
    () => (who.agent ? { ...people, label: () => who.name } : people),
    [people, who.agent, who.name],
  );
  return (
    <ol class="history change-entries" id={id}>
      {change.entries.map((entry) => (
        <li key={entry.id}>{describeEntry(t, entry, speaker, known)}</li>
      ))}
    </ol>
  );
}
