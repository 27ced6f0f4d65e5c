import { ApiError, csrfHeader, describeError, reportUnauthorized, toApiError } from './client';
import type { Attachment, ImportResult } from './types';

/**
 * One multipart POST with upload progress. fetch() reports no upload progress, so file uploads use
 * XMLHttpRequest; they carry the same cookie and CSRF header as every other write, and are never retried.
 */
function postFile<T>(path: string, file: File, ok: number[], onProgress: (fraction: number) => void): Promise<T> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `/api/v1${path}`);
    xhr.withCredentials = true;
    xhr.setRequestHeader('Accept', 'application/json');
    for (const [name, value] of Object.entries(csrfHeader())) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    };
    xhr.onerror = () => reject(new ApiError(0, 'network', describeError(0, 'network', null)));
    xhr.onload = () => {
      let body: unknown = null;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        body = null;
      }
      if (ok.includes(xhr.status)) return resolve(body as T);
      if (xhr.status === 401) reportUnauthorized();
      reject(toApiError(xhr.status, body, xhr.getResponseHeader('Retry-After')));
    };
    const form = new FormData();
    form.append('file', file, file.name);
    xhr.send(form);
  });
}

export function uploadAttachment(
  taskId: string,
  file: File,
  onProgress: (fraction: number) => void,
): Promise<Attachment> {
  return postFile<{ attachment: Attachment }>(
    `/tasks/${encodeURIComponent(taskId)}/attachments`,
    file,
    [201],
    onProgress,
  ).then((a) => a.attachment);
}

/** A CSV import (CONTRACT §10): a dry run answers 200 and writes nothing; the real one answers 201. */
export function importCsv(
  treeId: string,
  file: File,
  dryRun: boolean,
  onProgress: (fraction: number) => void,
): Promise<ImportResult> {
  const path = `/trees/${encodeURIComponent(treeId)}/import${dryRun ? '?dry_run=true' : ''}`;
  return postFile<ImportResult>(path, file, [dryRun ? 200 : 201], onProgress);
}
