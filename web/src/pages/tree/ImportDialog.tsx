import { useState } from 'preact/hooks';
import { importCsv } from '../../api/upload';
import { ApiError } from '../../api/client';
import type { ImportResult, RowProblem } from '../../api/types';
import { useT } from '../../i18n/use-t';
import { Modal } from '../../components/Modal';
import { ErrorNote } from '../../components/ErrorNote';
import { useSubmit } from '../../components/useSubmit';
import { Field } from '../../components/Field';

type Step =
  | { kind: 'choose' }
  | { kind: 'sending'; dryRun: boolean; fraction: number }
  | { kind: 'bad'; rows: RowProblem[] }
  | { kind: 'ready'; result: ImportResult }
  | { kind: 'done'; result: ImportResult };

/** The bad rows a refused import names (CONTRACT §10: every one of them, with its spreadsheet row number). */
function rowProblems(error: unknown): RowProblem[] | null {
  if (!(error instanceof ApiError) || error.code !== 'validation_failed') return null;
  const rows = error.details.filter((d): d is RowProblem => typeof (d as RowProblem | null)?.row === 'number');
  return rows.length > 0 ? rows : null;
}

/**
 * CSV import in two steps: choosing a file runs a dry run, which lists every bad row or says what
 * would be created; only then does "Import" write, all rows or none. Both uploads show progress.
 */
export function ImportDialog({ treeId, onImported, onClose }: { treeId: string; onImported(): void; onClose(): void }) {
  const t = useT();
  const [file, setFile] = useState<File | null>(null);
  const [step, setStep] = useState<Step>({ kind: 'choose' });
  const { error, run: send } = useSubmit(async (chosen: File, dryRun: boolean) => {
    setStep({ kind: 'sending', dryRun, fraction: 0 });
    try {
      const result = await importCsv(treeId, chosen, dryRun, (fraction) =>
        setStep({ kind: 'sending', dryRun, fraction }),
      );
      setStep(dryRun ? { kind: 'ready', result } : { kind: 'done', result });
      if (!dryRun) onImported();
    } catch (e) {
      // Bad rows are the dialog's next step, listed in a table; any other failure is an error line.
      const rows = rowProblems(e);
      if (rows !== null) return setStep({ kind: 'bad', rows });
      setStep({ kind: 'choose' });
      throw e;
    }
  });

  function choose(input: HTMLInputElement) {
    const chosen = input.files?.[0] ?? null;
    setFile(chosen);
    if (chosen !== null) void send(chosen, true);
  }

  const progressLabel =
    step.kind === 'sending' && file !== null
      ? t(step.dryRun ? 'csv.checking' : 'csv.importing', { name: file.name })
      : '';
  return (
    <Modal title={t('csv.title')} onClose={onClose} wide>
      <div class="stack">
        <p class="muted small-text">{t('csv.lead')}</p>
        {step.kind !== 'done' ? (
          <Field label={t('csv.file')}>
            {(id) => (
              <input
                id={id}
                type="file"
                accept=".csv,text/csv"
                onChange={(e) => choose(e.currentTarget)}
                disabled={step.kind === 'sending'}
              />
            )}
          </Field>
        ) : null}
        {step.kind === 'sending' ? (
          <div class="stack">
            <span class="small-text">{progressLabel}</span>
            <progress class="progress" max={1} value={step.fraction} aria-label={progressLabel} />
          </div>
        ) : null}
        {step.kind === 'bad' ? <BadRows rows={step.rows} /> : null}
        {step.kind === 'ready' ? (
          <p class="note info" role="status">
            {t('csv.preview', { tasks: step.result.created.tasks, projects: step.result.created.projects })}
          </p>
        ) : null}
        {step.kind === 'done' ? (
          <p class="note ok" role="status">
            {t('csv.done', { tasks: step.result.created.tasks, projects: step.result.created.projects })}
          </p>
        ) : null}
        <ErrorNote error={error} />
        <div class="actions">
          <button type="button" class="btn ghost" onClick={onClose}>
            {step.kind === 'done' ? t('common.close') : t('common.cancel')}
          </button>
          {step.kind === 'ready' && file !== null ? (
            <button type="button" class="btn primary" onClick={() => void send(file, false)}>
              {t('csv.import')}
            </button>
          ) : null}
        </div>
      </div>
    </Modal>
  );
}

function BadRows({ rows }: { rows: RowProblem[] }) {
  const t = useT();
  return (
    <div class="stack" role="alert">
      <p class="note error">{t('csv.bad', { count: rows.length })}</p>
      <div class="table-scroll">
        <table>
          <thead>
            <tr>
              <th scope="col">{t('csv.row')}</th>
              <th scope="col">{t('csv.column')}</th>
              <th scope="col">{t('csv.problem')}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r, i) => (
              <tr key={i}>
                <td>{r.row}</td>
                <td>{r.column !== null ? <code>{r.column}</code> : '—'}</td>
                <td>{r.message}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
