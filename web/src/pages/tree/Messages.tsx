import { messages } from '../../api/endpoints';
import { useT } from '../../i18n/use-t';
import { useUser } from '../../session';
import { formatDateTime } from '../../i18n/format';
import { useLoad } from '../../components/useLoad';
import { ErrorNote } from '../../components/ErrorNote';
import type { People } from './people';
import { PostForm } from './PostForm';

/** The tree's discussion, oldest first as a conversation reads; editors and the owner write, viewers read. */
export function Messages({ treeId, people, canWrite }: { treeId: string; people: People; canWrite: boolean }) {
  const t = useT();
  const user = useUser();
  const list = useLoad(() => messages.list(treeId), [treeId]);
  const send = async (body: string) => {
    const message = await messages.create(treeId, body);
    list.setData((old) => [...(old ?? []), message]);
  };

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
      {canWrite ? <PostForm label={t('activity.write')} action={t('activity.send')} onPost={send} /> : null}
    </div>
  );
}
