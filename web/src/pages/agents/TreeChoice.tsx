import { useId } from 'preact/hooks';
import type { TreeListItem } from '../../api/types';
import { useT } from '../../i18n/use-t';

/** At most this many trees per credential (CONTRACT §16.1). */
export const TREES_MAX = 50;

/** `null`: every tree the person can see; else the ids chosen. */
export type TreeScope = string[] | null;

/**
 * Which trees a token may touch (CONTRACT §16.1 and §16.4): the fieldset `Trees` with `All trees`
 * (the default) and `Chosen trees`, which shows a checkbox per tree the person can see, own and
 * shared, labelled with the tree's name.
 */
export function TreeChoice({
  trees,
  value,
  onChange,
}: {
  /** null while the trees load. */
  trees: TreeListItem[] | null;
  value: TreeScope;
  onChange(value: TreeScope): void;
}) {
  const t = useT();
  const name = useId();
  const chosen = value ?? [];
  const toggle = (id: string, on: boolean) => onChange(on ? [...chosen, id] : chosen.filter((x) => x !== id));
  return (
    <fieldset class="tree-scope">
      <legend>{t('agents.trees')}</legend>
      <p class="muted small-text tree-scope-lead">{t('agents.treesLead')}</p>
      <label class="check">
        <input type="radio" name={name} checked={value === null} onChange={() => onChange(null)} />
        <span>{t('agents.allTrees')}</span>
      </label>
      <label class="check">
        <input type="radio" name={name} checked={value !== null} onChange={() => onChange(chosen)} />
        <span>{t('agents.chosenTrees')}</span>
      </label>
      {value !== null ? (
        <div class="tree-choices">
          {trees === null ? <p class="muted">{t('common.loading')}</p> : null}
          {trees !== null && trees.length === 0 ? <p class="muted">{t('agents.noTrees')}</p> : null}
          {(trees ?? []).map((tree) => (
            <label key={tree.id} class="check">
              <input
                type="checkbox"
                checked={chosen.includes(tree.id)}
                onChange={(e) => toggle(tree.id, e.currentTarget.checked)}
                aria-describedby={tree.access !== 'owner' ? `${name}-shared` : undefined}
              />
              <span>{tree.name}</span>
              {tree.access !== 'owner' ? (
                <span class="badge" aria-hidden="true">
                  {t('agents.shared')}
                </span>
              ) : null}
            </label>
          ))}
          {/* One description for every shared tree, so a screen reader hears it beside the tree's name. */}
          <span id={`${name}-shared`} hidden>
            {t('agents.shared')}
          </span>
          {chosen.length === 0 ? <p class="inline-error">{t('agents.noTreeChosen')}</p> : null}
          {chosen.length > TREES_MAX ? (
            <p class="inline-error">{t('agents.tooManyTrees', { max: TREES_MAX })}</p>
          ) : null}
        </div>
      ) : null}
    </fieldset>
  );
}

/** A credential's trees in words: "All trees", or the names (a tree no longer seen said so). */
export function treesText(
  treeIds: string[] | null | undefined,
  trees: TreeListItem[] | null,
  t: ReturnType<typeof useT>,
): string {
  if (treeIds === null || treeIds === undefined) return t('agents.allTrees');
  if (trees === null) return t('common.loading');
  return treeIds.map((id) => trees?.find((tree) => tree.id === id)?.name ?? t('agents.goneTree')).join(', ');
}
