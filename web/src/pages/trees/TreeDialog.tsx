import { useState } from 'preact/hooks';
import { trees } from '../../api/endpoints';
import { TREE_STYLES, type Tree, type TreeStyleName } from '../../api/types';
import { useT } from '../../i18n/use-t';
import { Modal } from '../../components/Modal';
import { ErrorNote } from '../../components/ErrorNote';
import { useSubmit } from '../../components/useSubmit';
import { Field } from '../../components/Field';

/** Create a tree, or rename and restyle one; the fields keep what was typed when saving fails. */
export function TreeDialog({ tree, onSaved, onClose }: { tree: Tree | null; onSaved(tree: Tree): void; onClose(): void }) {
  const t = useT();
  const [name, setName] = useState(tree?.name ?? '');
  const [style, setStyle] = useState<TreeStyleName>(tree?.style ?? 'tidy-fan');
  const { busy, error, submit } = useSubmit(async () => {
    onSaved(tree === null ? await trees.create(name.trim(), style) : await trees.update(tree.id, { name: name.trim(), style }));
    onClose();
  });
  return (
    <Modal title={tree === null ? t('trees.newTree') : t('trees.editTitle')} onClose={onClose}>
      <form class="stack" onSubmit={submit}>
        <Field label={t('fields.name')}>{(id) => (
          <input id={id} value={name} onInput={(e) => setName(e.currentTarget.value)} required maxLength={120} />
        )}</Field>
        <StyleSelect value={style} onChange={setStyle} />
        <ErrorNote error={error} />
        <div class="actions">
          <button type="button" class="btn ghost" onClick={onClose}>{t('common.cancel')}</button>
          <button class="btn primary" disabled={busy}>{t('common.save')}</button>
        </div>
      </form>
    </Modal>
  );
}

export function StyleSelect({ value, onChange }: { value: TreeStyleName; onChange(style: TreeStyleName): void }) {
  const t = useT();
  return (
    <Field label={t('fields.style')}>{(id) => (
      <select id={id} value={value} onChange={(e) => onChange(e.currentTarget.value as TreeStyleName)}>
        {TREE_STYLES.map((s) => <option key={s} value={s}>{t(`trees.styles.${s}`)}</option>)}
      </select>
    )}</Field>
  );
}
