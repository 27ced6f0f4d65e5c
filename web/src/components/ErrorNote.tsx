import { useT } from '../i18n/use-t';
import { needsBilling } from '../api/client';

/** A failure in words, announced to screen readers; `null` renders nothing. */
export function ErrorNote({ error, onRetry }: { error: string | null; onRetry?: () => void }) {
  const t = useT();
  if (error === null) return null;
  return (
    <div class="note error" role="alert">
      <span>
        {error}
        {needsBilling(error) ? (
          <>
            {' '}
            <a href="/billing">{t('errors.seeBilling')}</a>
          </>
        ) : null}
      </span>
      {onRetry !== undefined ? (
        <button type="button" class="btn small ghost" onClick={onRetry}>
          {t('common.retry')}
        </button>
      ) : null}
    </div>
  );
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
