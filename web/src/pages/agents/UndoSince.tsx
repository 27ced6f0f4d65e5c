import { useState } from 'preact/hooks';
import { changes } from '../../api/endpoints';
import type { RevertResult, TreeListItem } from '../../api/types';
import { useT } from '../../i18n/use-t';
import { useUser } from '../../session';
import { isoToZoned, zonedToIso } from '../../i18n/zoned';
import { Field } from '../../components/Field';
import { UndoDialog } from '../changes/UndoDialog';
import { describeLaterChanges } from '../changes/laterText';

/** The moment offered first: an hour ago (a runaway agent is noticed within the afternoon). */
const DEFAULT_BACK_MS = 60 * 60 * 1000;

/**
 * "Undo its changes in a tree since…" for one token or OAuth connection (CONTRACT §16.4): a tree
 * the credential may touch and the person may write, a moment in the person's own time zone, then
 * `POST /trees/{id}/revert {credential_id, since}`, with `Undo anyway` after a 409.
 */
export function UndoSince({
  credentialId,
  name,
  treeIds,
  trees,
  onDone,
  onClose,
}: {
  credentialId: string;
  name: string;
  /** The credential's trees; null: every tree. */
  treeIds: readonly string[] | null;
  trees: readonly TreeListItem[] | null;
  onDone(result: RevertResult): void;
  onClose(): void;
}) {
  const t = useT();
  const user = useUser();
  const choices = (trees ?? []).filter((x) => x.access !== 'viewer' && (treeIds === null || treeIds.includes(x.id)));
  const [treeId, setTreeId] = useState(choices[0]?.id ?? '');
  const [since, setSince] = useState(() => isoToZoned(Date.now() - DEFAULT_BACK_MS, user.timezone));
  const sinceIso = zonedToIso(since, user.timezone);
  return (
    <UndoDialog
      title={t('changes.since.title', { name })}
      text={t('changes.since.lead')}
      ready={treeId !== '' && sinceIso !== null}
      run={(force) => changes.revertSince(treeId, credentialId, sinceIso!, force)}
      describeLater={(details) => describeLaterChanges(t, details)}
      onDone={onDone}
      onClose={onClose}
    >
      <div class="stack">
        <Field label={t('changes.since.tree')}>
          {(id) => (
            <select id={id} value={treeId} onChange={(e) => setTreeId(e.currentTarget.value)}>
              {choices.map((x) => (
                <option key={x.id} value={x.id}>
                  {x.name}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label={t('changes.since.time')}>
          {(id) => (
            <input
              id={id}
              type="datetime-local"
              required
              value={since}
              onInput={(e) => setSince(e.currentTarget.value)}
            />
          )}
        </Field>
      </div>
      {choices.length === 0 ? <p class="muted">{t('agents.noTrees')}</p> : null}
      {sinceIso === null ? <p class="inline-error">{t('changes.since.badTime')}</p> : null}
    </UndoDialog>
  );
}
