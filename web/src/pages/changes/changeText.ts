import type { useT } from '../../i18n/use-t';
import type { People } from '../tree/people';
import { countActions, isAgent, type ChangeGroup } from './changeGroups';

type T = ReturnType<typeof useT>;

const NOUNS = ['task', 'project', 'tree', 'comment', 'message', 'attachment', 'member', 'import'] as const;
const ACTIONS = ['created', 'updated', 'moved', 'completed', 'deleted', 'imported', 'assigned'] as const;
type Noun = (typeof NOUNS)[number];
type Action = (typeof ACTIONS)[number];
const isNoun = (x: string): x is Noun => (NOUNS as readonly string[]).includes(x);
const isAction = (x: string): x is Action => (ACTIONS as readonly string[]).includes(x);

/**
 * A change in a few words, counted: "3 tasks created, 1 moved" (the noun once per kind of
 * record), "задачи: создано 3, перемещено 1" in Russian.
 */
export function summarize(t: T, change: Pick<ChangeGroup, 'entries'>): string {
  const text = countActions(change.entries)
    .map(({ entity, actions }) =>
      actions
        .map(([action, count], i) => {
          const word = isAction(action) ? t(`changes.actions.${action}`) : action;
          if (i > 0) return t('changes.nextItem', { count, action: word });
          const noun = isNoun(entity) ? t(`changes.nouns.${entity}`, { count }) : entity;
          return t('changes.firstItem', { count, noun, action: word });
        })
        .join(t('changes.itemSeparator')),
    )
    .join(t('changes.groupSeparator'));
  // A sentence's first letter: "Задачи: создано 3" (English starts with the count).
  return text.charAt(0).toLocaleUpperCase() + text.slice(1);
}

/** Who made a change: the person's name, or the token's or OAuth client's name (an agent). */
export function whoMade(change: Pick<ChangeGroup, 'actorId' | 'client' | 'credentialId' | 'via'>, people: People) {
  const agent = isAgent(change);
  return { name: agent && change.client !== null ? change.client : people.label(change.actorId), agent };
}

/** The same, as one phrase for a sentence: "Helper, an agent". */
export function whoText(
  t: T,
  change: Pick<ChangeGroup, 'actorId' | 'client' | 'credentialId' | 'via'>,
  people: People,
) {
  const who = whoMade(change, people);
  return who.agent ? t('changes.agentLabel', { name: who.name }) : who.name;
}
