import { useState } from 'preact/hooks';
import { ApiError } from '../../api/client';
import type { LaterChange, RevertResult } from '../../api/types';
import { useT } from '../../i18n/use-t';
import { Modal } from '../../components/Modal';
import { ErrorNote, messageOf } from '../../components/ErrorNote';
import { useSubmit } from '../../components/useSubmit';

/**
 * Undo, asked first (CONTRACT §16.4): the confirming button is named `Undo`. When later changes
 * touched the same records (409 `revert_conflict`) the dialog lists them and offers `Undo anyway`,
 * which sends the revert again with force=true.
 */
export function UndoDialog({
  title,
  text,
  children,
  ready = true,
  run,
  describeLater,
  onDone,
  onClose,
}: {
  title: string;
  text: string;
  /** Fields the undo needs (Agent settings: the tree and the moment). */
  children?: preact.ComponentChildren;
  /** False while those fields are not filled in: the button waits. */
  ready?: boolean;
  run(force: boolean): Promise<RevertResult>;
  /** The later changes, in words, one line each. */
  describeLater(details: LaterChange[]): Promise<string[]>;
  onDone(result: RevertResult): void;
  onClose(): void;
}) {
  const t = useT();
  const [later, setLater] = useState<string[] | null>(null);
  const {
    busy,
    error,
    run: undo,
  } = useSubmit(
    async (force: boolean) => {
      let result: RevertResult;
      try {
        result = await run(force);
      } catch (e) {
        if (e instanceof ApiError && e.code === 'revert_conflict' && !force) {
          setLater(await describeLater(e.details as LaterChange[]));
          return;
        }
        throw e;
      }
      onDone(result);
      onClose();
    },
    {
      errorText: (e) =>
        e instanceof ApiError && e.code === 'conflict'
          ? t('changes.alreadyUndone')
          : e instanceof ApiError && e.code === 'not_found'
            ? t('changes.notFound')
            : messageOf(e),
    },
  );
  return (
    <Modal title={later === null ? title : t('changes.conflictTitle')} onClose={onClose}>
      {later === null ? (
        <>
          <p>{text}</p>
          {children}
          <p class="muted small-text">{t('changes.undoSkipped')}</p>
        </>
      ) : (
        <>
          <p>{t('changes.conflictText')}</p>
          <ul class="later-changes">
            {later.map((line, i) => (
              <li key={i}>{line}</li>
            ))}
          </ul>
        </>
      )}
      <ErrorNote error={error} />
      <div class="actions">
        <button type="button" class="btn ghost" onClick={onClose}>
          {t('common.cancel')}
        </button>
        <button
          type="button"
          class="btn danger solid"
          onClick={() => void undo(later !== null)}
          disabled={busy || !ready}
        >
          {later === null ? t('changes.undo') : t('changes.undoAnyway')}
        </button>
      </div>
    </Modal>
  );
}
