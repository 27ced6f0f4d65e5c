import { useState } from 'preact/hooks';
import { messages } from '../../api/endpoints';
import { useT } from '../../i18n/use-t';
import { useUser } from '../../session';
import { formatDateTime } from '../../i18n/format';
import { useLoad } from '../../components/useLoad';
import { ErrorNote } from '../../components/ErrorNote';
import { useSubmit } from '../../components/useSubmit';
import { POST_BODY_MAX } from '../../api/bounds';
import { Field } from '../../components/Field';
import type { People } from './people';
import { requireNotBlank } from '../../components/blank';

/** The tree's discussion, oldest first as a conversation reads; editors and the owner write, viewers read. */
export function Messages({ treeId, people, canWrite }: { treeId: string; people: People; canWrite: boolean }) {
  const t = useT();
  const user = useUser();
  const list = useLoad(() => messages.list(treeId), [treeId]);
  const [body, setBody] = useState('');
  const {
    busy,
    error,
    submit: send,
  } = useSubmit(async () => {
    requireNotBlank(body, t('activity.write'));
    const message = await messages.create(treeId, body.trim());
    list.setData((old) => [...(old ?? []), message]);
    setBody('');
  });

  return (
    <div class="stack">
      <ErrorNote error={list.error} onRetry={list.reload} />
      {list.data !== null && list.data.length === 0 ? <p class="muted">{t('activity.noMessages')}</p> : null}
      <ul class="posts">
        {(list.data ?? []).map((m) => (
          <li key={m.id} class="post">
            <p class="post-head small-text">
              <strong>{people.label(m.author_id)}</strong> ·{' '}
              <span class="muted">{formatDateTime(m.created_at, user.timezone)}</span>
            </p>
            <p class="post-body">{m.body}</p>
          </li>
        ))}
      </ul>
      {canWrite ? (
        <form class="stack" onSubmit={send}>
          <Field label={t('activity.write')}>
            {(id) => (
              <textarea
                id={id}
                value={body}
                onInput={(e) => setBody(e.currentTarget.value)}
                required
                maxLength={POST_BODY_MAX}
                rows={2}
              />
            )}
          </Field>
          <ErrorNote error={error} />
          <div class="actions">
            <button class="btn" disabled={busy || body.trim() === ''}>
              {t('activity.send')}
            </button>
          </div>
        </form>
      ) : null}
    </div>
  );
}
