import type { RevertResult } from '../../api/types';
import type { useT } from '../../i18n/use-t';

/** What an undo did, in words: how many records came back, or that there was nothing to undo. */
export function undoneText(t: ReturnType<typeof useT>, result: RevertResult): string {
  if (result.reverted === 0) return t('changes.nothingUndone');
  return t('changes.doneText', { count: result.reverted });
}

/** What "Undo its changes in a tree since…" did. */
export function undoneSinceText(t: ReturnType<typeof useT>, result: RevertResult): string {
  if (result.reverted === 0) return t('changes.since.nothing');
  return t('changes.since.done', { count: result.reverted, changes: result.changes?.length ?? 0 });
}
