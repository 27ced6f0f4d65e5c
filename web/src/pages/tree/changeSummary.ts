import type { useT } from '../../i18n/use-t';
import type { ChangeGroup } from '../changes/changeGroups';
import { summarize, whoMade } from '../changes/changeText';
import { describeEntry, type Names } from './historyText';
import type { People } from './people';

type T = ReturnType<typeof useT>;

/** The people of a change's sentences: an agent's entries are said in the agent's name. */
export function speakerOf(change: ChangeGroup, people: People): People {
  const who = whoMade(change, people);
  return who.agent ? { ...people, label: () => who.name } : people;
}

/**
 * A change in words: a change of one entry is that entry's sentence ("Helper renamed the task
 * “Seeds” to “Heirloom seeds”"); a larger one is counted ("3 tasks created, 1 moved").
 */
export function changeSummary(t: T, change: ChangeGroup, people: People, names: Names): string {
  const only = change.entries.length === 1 ? change.entries[0] : undefined;
  return only !== undefined ? describeEntry(t, only, speakerOf(change, people), names) : summarize(t, change);
}
