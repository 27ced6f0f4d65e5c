import { useEffect } from 'preact/hooks';
import type { RefObject } from 'preact';
import { useT } from '../i18n/use-t';
import { Modal } from './Modal';
import { ErrorNote } from './ErrorNote';

/** One field of a record: how the conflict dialog names it and writes its value. */
export interface FieldView<R> {
  key: keyof R & string;
  label: string;
  show(record: R): string;
}

/** A field that changed meanwhile or that the person edited: their value now, and the person's (null: left as it was). */
export interface ConflictRow {
  key: string;
  label: string;
  theirs: string;
  mine: string | null;
}

/**
 * The rows of a conflict: every field that another save changed since `base` (what the person
 * started from), and every field the person changed in `mine` (a draft written as a record).
 */
export function conflictRows<R>(
  fields: readonly FieldView<R>[],
  base: R,
  current: R,
  mine: R,
  edited: readonly string[],
): ConflictRow[] {
  return fields
    .filter((f) => edited.includes(f.key) || f.show(base) !== f.show(current))
    .map((f) => ({
      key: f.key,
      label: f.label,
      theirs: f.show(current),
      mine: edited.includes(f.key) ? f.show(mine) : null,
    }));
}

/** Long texts (notes) shown whole would push the buttons off a phone's screen. */
const SHOWN_MAX = 280;
const clip = (text: string) => (text.length > SHOWN_MAX ? `${text.slice(0, SHOWN_MAX)}…` : text);

/**
 * A record the person was editing was saved by someone else (a person or an agent) meanwhile
 * (412, CONTRACT §16.2 and §16.4): each field that differs, their value beside the person's, and
 * the choice between keeping theirs and overwriting with the person's values. Escape or × decides
 * nothing: the person's edits stay in the form.
 */
export function ConflictDialog({
  rows,
  busy,
  error,
  onKeepTheirs,
  onOverwrite,
  onClose,
  returnFocus,
}: {
  /**
   * Where focus goes when the dialog goes: the Save that opened it was disabled while it saved, so
   * the browser had already moved focus off it and the dialog cannot give it back by itself.
   */
  returnFocus: RefObject<HTMLElement | null>;
  rows: ConflictRow[];
  busy: boolean;
  error: string | null;
  onKeepTheirs(): void;
  onOverwrite(): void;
  onClose(): void;
}) {
  const t = useT();
  useEffect(
    () => () => {
      const target = returnFocus.current;
      requestAnimationFrame(() => {
        if (target?.isConnected === true) target.focus();
      });
    },
    [],
  );
  const empty = (text: string) => (text === '' ? <span class="muted">{t('conflict.empty')}</span> : clip(text));
  return (
    <Modal title={t('conflict.title')} onClose={onClose} wide>
      <div class="stack">
        <p class="conflict-lead">{t('conflict.lead')}</p>
        <dl class="conflict">
          {rows.map((row) => (
            <div key={row.key} class="conflict-row" data-field={row.key}>
              <dt>{row.label}</dt>
              <dd class="conflict-theirs">
                <span class="conflict-who">{t('conflict.theirs')}</span>
                <span class="conflict-value">{empty(row.theirs)}</span>
              </dd>
              <dd class="conflict-mine">
                <span class="conflict-who">{t('conflict.mine')}</span>
                {row.mine === null ? (
                  <span class="conflict-value muted">{t('conflict.notEdited')}</span>
                ) : (
                  <span class="conflict-value edited">{empty(row.mine)}</span>
                )}
              </dd>
            </div>
          ))}
        </dl>
        <ErrorNote error={error} />
        <div class="actions">
          <button type="button" class="btn" onClick={onKeepTheirs} disabled={busy}>
            {t('conflict.keepTheirs')}
          </button>
          <button type="button" class="btn primary" onClick={onOverwrite} disabled={busy}>
            {t('conflict.overwrite')}
          </button>
        </div>
      </div>
    </Modal>
  );
}
