import { useState } from 'preact/hooks';
import { ErrorNote } from '../../components/ErrorNote';
import { useSubmit } from '../../components/useSubmit';
import { POST_BODY_MAX } from '../../api/bounds';
import { Field } from '../../components/Field';
import { requireNotBlank } from '../../components/blank';

/** The box under a discussion (a task's comments, a tree's messages): refuses a blank body, clears once posted. */
export function PostForm({
  label,
  action,
  onPost,
}: {
  label: string;
  action: string;
  onPost: (body: string) => Promise<void>;
}) {
  const [body, setBody] = useState('');
  const { busy, error, submit } = useSubmit(async () => {
    requireNotBlank(body, label);
    await onPost(body.trim());
    setBody('');
  });
  return (
    <form class="stack" onSubmit={submit}>
      <Field label={label}>
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
          {action}
        </button>
      </div>
    </form>
  );
}
