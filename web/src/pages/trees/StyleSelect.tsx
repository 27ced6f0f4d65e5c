import { TREE_STYLES, type TreeStyleName } from '../../api/types';
import { useT } from '../../i18n/use-t';
import { Field } from '../../components/Field';

/** The drawing style of a tree, in the tree dialog and on the tree page. */
export function StyleSelect({ value, onChange }: { value: TreeStyleName; onChange(style: TreeStyleName): void }) {
  const t = useT();
  return (
    <Field label={t('fields.style')}>
      {(id) => (
        <select id={id} value={value} onChange={(e) => onChange(e.currentTarget.value as TreeStyleName)}>
          {TREE_STYLES.map((s) => (
            <option key={s} value={s}>
              {t(`trees.styles.${s}`)}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}
