import { useT } from '../../i18n/use-t';
import type { FreshLeaf } from './useFreshTree';
import type { Names } from './historyText';

/**
 * What agents just did to the open tree, in words, announced politely: the drawing's rings and
 * names are an image to assistive technology. Empty (but present, so announcements are heard) when nothing is fresh.
 */
export function FreshNote({ fresh, names }: { fresh: ReadonlyMap<string, FreshLeaf>; names: Names }) {
  const t = useT();
  const byAgent = new Map<string, { added: string[]; changed: string[] }>();
  for (const [taskId, leaf] of fresh) {
    const title = names.task(taskId);
    if (title === null) continue;
    const mine = byAgent.get(leaf.agent) ?? { added: [], changed: [] };
    byAgent.set(leaf.agent, mine);
    (leaf.added ? mine.added : mine.changed).push(t('history.quoted', { text: title }));
  }
  const lines = [...byAgent].map(([agent, { added, changed }]) =>
    added.length > 0 && changed.length > 0
      ? t('fresh.both', { agent, added: added.join(', '), changed: changed.join(', ') })
      : added.length > 0
        ? t('fresh.added', { agent, names: added.join(', ') })
        : t('fresh.changed', { agent, names: changed.join(', ') }),
  );
  return (
    <p class={lines.length > 0 ? 'fresh-note' : 'visually-hidden'} role="status">
      {lines.join(' ')}
    </p>
  );
}
