import { useMemo, useState } from 'preact/hooks';
import { useT } from '../../i18n/use-t';
import { formatDateTime } from '../../i18n/format';
import type { ChangeGroup } from '../changes/changeGroups';
import { whoMade } from '../changes/changeText';
import { describeEntry, type Names } from './historyText';
import type { People } from './people';
import { useTaskNames } from './useTaskNames';
import { changeSummary, speakerOf } from './changeSummary';

const DOORS = ['token', 'oauth', 'mcp', 'cli'] as const;
type Door = (typeof DOORS)[number];
const isDoor = (via: string): via is Door => (DOORS as readonly string[]).includes(via);

/**
 * One change of the History tab: what it did (one entry's sentence, or a count that opens its
 * entries), who made it (an agent marked as one), when and through which door, and `Undo` where
 * the viewer may write and there is something to undo.
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
  const known = useTaskNames(change.entries, names);
  const who = whoMade(change, people);
  const summary = useMemo(() => changeSummary(t, change, people, known), [t, change, people, known]);
  const single = change.entries.length === 1;
  const id = `change-${change.key}`;
  return (
    <li class={who.agent ? 'change by-agent' : 'change'} data-change-id={change.changeId ?? undefined}>
      <div class="change-head">
        {single ? (
          <span class="change-summary" id={`${id}-summary`}>
            {summary}
          </span>
        ) : (
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
        )}
        {undone ? (
          <span class="badge grey">{t('changes.undone')}</span>
        ) : undo !== undefined ? (
          <button type="button" class="btn small" aria-describedby={`${id}-summary ${id}-meta`} onClick={undo}>
            {t('changes.undo')}
          </button>
        ) : null}
      </div>
      <p class={single ? 'change-meta flush muted small-text' : 'change-meta muted small-text'} id={`${id}-meta`}>
        <span class="change-who">{who.name}</span>
        {who.agent ? <span class="badge agent">{t('changes.agent')}</span> : null}
        <span aria-hidden="true"> · </span>
        <time dateTime={change.at}>{formatDateTime(change.at, timezone)}</time>
        {isDoor(change.via) ? <span> · {t(`activity.viaDoor.${change.via}`)}</span> : null}
        {change.reverts !== null ? <span> · {t('changes.undoes')}</span> : null}
      </p>
      {single ? null : expanded ? (
        <ol class="history change-entries" id={id}>
          {change.entries.map((entry) => (
            <li key={entry.id}>{describeEntry(t, entry, speakerOf(change, people), known)}</li>
          ))}
        </ol>
      ) : (
        <div id={id} hidden />
      )}
    </li>
  );
}
