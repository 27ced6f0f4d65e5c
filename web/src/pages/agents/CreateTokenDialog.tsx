import { useState } from 'preact/hooks';
import { tokens } from '../../api/endpoints';
import { SCOPES, type Scope, type Token, type TreeListItem } from '../../api/types';
import { useT } from '../../i18n/use-t';
import { useUser } from '../../session';
import { Modal } from '../../components/Modal';
import { ErrorNote } from '../../components/ErrorNote';
import { useSubmit } from '../../components/useSubmit';
import { TOKEN_NAME_MAX } from '../../api/bounds';
import { Field } from '../../components/Field';
import { TreeChoice, TREES_MAX, type TreeScope } from './TreeChoice';

const LIFETIMES = [1, 7, 30, 90, 365] as const;

/**
 * Name, scopes, trees and lifetime; Seed accounts start without `write`, which their plan refuses
 * to agents. `tree_ids` is sent only for chosen trees: left out, the token sees every tree.
 */
export function CreateTokenDialog({
  trees,
  onCreated,
  onClose,
}: {
  /** The trees the person can see (own and shared), to choose from; null while they load. */
  trees: TreeListItem[] | null;
  onCreated(answer: { token: Token; value: string }): void;
  onClose(): void;
}) {
  const t = useT();
  const user = useUser();
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<Scope[]>(user.effective_plan === 'seed' ? ['read', 'attachments'] : [...SCOPES]);
  const [days, setDays] = useState<number>(90);
  const [scope, setScope] = useState<TreeScope>(null);
  const scopeOk = scope === null || (scope.length > 0 && scope.length <= TREES_MAX);
  const toggle = (scope: Scope, on: boolean) => setScopes((s) => (on ? [...s, scope] : s.filter((x) => x !== scope)));
  const { busy, error, submit } = useSubmit(
    async () => {
      const chosen = scope !== null ? { tree_ids: scope } : {};
      onCreated(await tokens.create({ name: name.trim(), scopes, expires_in_days: days, ...chosen }));
      onClose();
    },
    { leaves: true },
  );

  return (
    <Modal title={t('agents.createToken')} onClose={onClose}>
      <form class="stack" onSubmit={submit}>
        <Field label={t('fields.name')}>
          {(id) => (
            <input
              id={id}
              value={name}
              onInput={(e) => setName(e.currentTarget.value)}
              required
              maxLength={TOKEN_NAME_MAX}
              placeholder="Claude Desktop"
            />
          )}
        </Field>
        <fieldset>
          <legend>{t('fields.scopes')}</legend>
          {SCOPES.map((scope) => (
            <label key={scope} class="check">
              <input
                type="checkbox"
                checked={scopes.includes(scope)}
                onChange={(e) => toggle(scope, e.currentTarget.checked)}
              />
              <span>
                <code>{scope}</code> — {t(`agents.scope.${scope}`)}
              </span>
            </label>
          ))}
        </fieldset>
        <TreeChoice trees={trees} value={scope} onChange={setScope} />
        <Field label={t('fields.lifetime')}>
          {(id) => (
            <select id={id} value={String(days)} onChange={(e) => setDays(Number(e.currentTarget.value))}>
              {LIFETIMES.map((d) => (
                <option key={d} value={String(d)}>
                  {t('agents.days', { count: d })}
                </option>
              ))}
            </select>
          )}
        </Field>
        <ErrorNote error={error} />
        <div class="actions">
          <button type="button" class="btn ghost" onClick={onClose}>
            {t('common.cancel')}
          </button>
          <button class="btn primary" disabled={busy || scopes.length === 0 || !scopeOk}>
            {t('agents.createToken')}
          </button>
        </div>
      </form>
    </Modal>
  );
}
