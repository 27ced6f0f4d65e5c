import { useState } from 'preact/hooks';
import { comments } from '../../api/endpoints';
import type { Comment } from '../../api/types';
import { useT } from '../../i18n/use-t';
import { useUser } from '../../session';
import { formatDateTime } from '../../i18n/format';
import { useLoad } from '../../components/useLoad';
import { ErrorNote } from '../../components/ErrorNote';
import { useSubmit } from '../../components/useSubmit';
import { POST_BODY_MAX } from '../../api/bounds';
import { Confirm } from '../../components/Confirm';
import { Field } from '../../components/Field';
import type { People } from './people';
import { PostForm } from './PostForm';
import { requireNotBlank } from '../../components/blank';

interface Props {
  taskId: string;
  people: People;
  canWrite: boolean;
  isOwner: boolean;
}

/** A task's comments: everyone who sees the task reads them; editors write; authors edit theirs; authors and the owner delete. */
export function Comments({ taskId, people, canWrite, isOwner }: Props) {
  const t = useT();
  const user = useUser();
  const list = useLoad(() => comments.list(taskId), [taskId]);
  const [deleting, setDeleting] = useState<Comment | null>(null);
  const replace = (c: Comment) => list.setData((old) => (old ?? []).map((x) => (x.id === c.id ? c : x)));
  const post = async (body: string) => {
    const comment = await comments.create(taskId, body);
    list.setData((old) => [...(old ?? []), comment]);
  };

  return (
    <section class="panel-section" aria-labelledby="comments-title">
      <h3 id="comments-title">{t('comments.title')}</h3>
      <ErrorNote error={list.error} onRetry={list.reload} />
      {list.data !== null && list.data.length === 0 ? <p class="muted small-text">{t('comments.empty')}</p> : null}
      <ul class="posts">
        {(list.data ?? []).map((c) => (
          <CommentItem
            key={c.id}
            comment={c}
            author={people.label(c.author_id)}
            when={formatDateTime(c.created_at, user.timezone)}
            canEdit={canWrite && c.author_id === user.id}
            canDelete={(canWrite && c.author_id === user.id) || isOwner}
            onSaved={replace}
            onDelete={() => setDeleting(c)}
          />
        ))}
      </ul>
      {canWrite ? <PostForm label={t('comments.add')} action={t('comments.post')} onPost={post} /> : null}
      {deleting !== null ? (
        <Confirm
          title={t('comments.deleteTitle')}
          text={t('comments.deleteText')}
          confirmLabel={t('common.delete')}
          onConfirm={async () => {
            await comments.remove(deleting.id);
            list.setData((old) => (old ?? []).filter((x) => x.id !== deleting.id));
          }}
          onClose={() => setDeleting(null)}
        />
      ) : null}
    </section>
  );
}

interface ItemProps {
  comment: Comment;
  author: string;
  when: string;
  canEdit: boolean;
  canDelete: boolean;
  onSaved(c: Comment): void;
  onDelete(): void;
}

/** One comment; its author may edit it in place, keeping the text when saving fails. */
function CommentItem({ comment, author, when, canEdit, canDelete, onSaved, onDelete }: ItemProps) {
  const t = useT();
  const [draft, setDraft] = useState<string | null>(null);
  const {
    busy,
    error,
    submit: save,
  } = useSubmit(async () => {
    if (draft === null) return;
    requireNotBlank(draft, t('comments.editLabel'));
    onSaved(await comments.update(comment.id, draft.trim()));
    setDraft(null);
  });
  const headId = `comment-${comment.id}`;
  return (
    <li class="post">
      <p class="post-head small-text" id={headId}>
        <strong>{author}</strong> ·{' '}
        <span class="muted">
          {when}
          {comment.updated_at !== comment.created_at ? ` · ${t('comments.edited')}` : ''}
        </span>
      </p>
      {draft === null ? (
        <p class="post-body">{comment.body}</p>
      ) : (
        <form class="stack" onSubmit={save}>
          <Field label={t('comments.editLabel')}>
            {(id) => (
              <textarea
                id={id}
                value={draft}
                onInput={(e) => setDraft(e.currentTarget.value)}
                required
                maxLength={POST_BODY_MAX}
                rows={2}
              />
            )}
          </Field>
          <ErrorNote error={error} />
          <div class="actions">
            <button type="button" class="btn small ghost" onClick={() => setDraft(null)}>
              {t('common.cancel')}
            </button>
            <button class="btn small primary" disabled={busy || draft.trim() === ''}>
              {t('common.save')}
            </button>
          </div>
        </form>
      )}
      {draft === null && (canEdit || canDelete) ? (
        <div class="row">
          {canEdit ? (
            <button
              type="button"
              class="btn small ghost"
              aria-describedby={headId}
              onClick={() => setDraft(comment.body)}
            >
              {t('common.edit')}
            </button>
          ) : null}
          {canDelete ? (
            <button type="button" class="btn small ghost danger" aria-describedby={headId} onClick={onDelete}>
              {t('common.delete')}
            </button>
          ) : null}
        </div>
      ) : null}
    </li>
  );
}
