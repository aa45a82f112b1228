import type { paths } from '@cw/shared-state/api';
import { ApiError } from '@cw/shared-state/api';

export type Upload = paths['/api/uploads']['post']['responses'][201]['content']['application/json'];
export type UploadPlace = 'ticket' | 'chat' | 'message';

/** Uploads allowed per place, as the server checks them (the server's bytes check is what counts). */
export const UPLOAD_RULES: Record<UploadPlace, { accept: string; maxSize: number }> = {
  ticket: { accept: 'image/jpeg,image/png,image/gif,image/svg+xml,.svg', maxSize: 5 * 1024 * 1024 },
  message: { accept: 'image/jpeg,image/png,image/gif,image/svg+xml,.svg', maxSize: 5 * 1024 * 1024 },
  chat: {
    accept: 'image/*,.svg,application/pdf,application/zip,.zip,video/mp4',
    maxSize: 50 * 1024 * 1024,
  },
};

function errorOf(xhr: XMLHttpRequest): ApiError {
  if (xhr.status === 0) return new ApiError({ code: 'NETWORK_ERROR', message: 'No answer', status: 0 });
  try {
    const body = JSON.parse(xhr.responseText) as { code?: string; message?: string; details?: unknown };
    return new ApiError({
      code: body.code ?? 'INTERNAL',
      message: body.message ?? xhr.statusText,
      details: body.details,
      status: xhr.status,
    });
  } catch {
    return new ApiError({ code: 'INTERNAL', message: xhr.statusText, status: xhr.status });
  }
}

/**
 * One file to POST /api/uploads as multipart, with progress (fetch cannot report upload progress,
 * XMLHttpRequest can) and cancellation through `signal`. Resolves with the checked upload, or
 * rejects with an ApiError (413 FILE_TOO_LARGE, 415 FILE_TYPE_REFUSED, ...) or an AbortError.
 */
export function uploadFile(
  file: File,
  place: UploadPlace,
  options: { onProgress?: (fraction: number) => void; signal?: AbortSignal } = {},
): Promise<Upload> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    // Left messages may come from visitors: their pictures go through the support route.
    xhr.open('POST', place === 'message' ? '/api/support/uploads' : `/api/uploads?place=${place}`);
    xhr.withCredentials = true;
    xhr.responseType = 'text';
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) options.onProgress?.(event.loaded / event.total);
    };
    xhr.onload = () => (xhr.status === 201 ? resolve(JSON.parse(xhr.responseText) as Upload) : reject(errorOf(xhr)));
    xhr.onerror = () => reject(errorOf(xhr));
    xhr.onabort = () => reject(new DOMException('Upload cancelled', 'AbortError'));
    options.signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    const body = new FormData();
    body.append('file', file, file.name);
    xhr.send(body);
  });
}
