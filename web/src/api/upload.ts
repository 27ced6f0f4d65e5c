import { ApiError, csrfHeader, describeError, reportUnauthorized, toApiError } from './client';
import type { Attachment } from './types';

/**
 * A file upload with progress. fetch() reports no upload progress, so this one request uses
 * XMLHttpRequest; it carries the same cookie and CSRF header as every other write, and is never retried.
 */
export function uploadAttachment(taskId: string, file: File, onProgress: (fraction: number) => void): Promise<Attachment> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `/api/v1/tasks/${encodeURIComponent(taskId)}/attachments`);
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
      if (xhr.status === 201) return resolve((body as { attachment: Attachment }).attachment);
      if (xhr.status === 401) reportUnauthorized();
      reject(toApiError(xhr.status, body, xhr.getResponseHeader('Retry-After')));
    };
    const form = new FormData();
    form.append('file', file, file.name);
    xhr.send(form);
  });
}
