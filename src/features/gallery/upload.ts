/**
 * One file to POST /api/gallery with real progress. fetch reports no upload progress, so this one
 * call uses XMLHttpRequest, with the same credentials and bearer token as lib/http. Uploads may take
 * long: no time-out here, only the caller's abort. Each file carries its own Idempotency-Key, so
 * the service worker can keep it offline and the server makes one photo of it however often it is
 * sent (docs/decisions.md "The offline outbox").
 */
import { IDEMPOTENCY_HEADER, OFFLINE_HEADER } from '../../contracts/constants.ts';
import { galleryUpload } from '../../contracts/endpoints/gallery.ts';
import type { GalleryImage } from '../../contracts/gallery.ts';
import { pathOf } from '../../lib/api.ts';
import { apiUrl } from '../../lib/apiHost.ts';
import { readToken } from '../../lib/storage.ts';

export class UploadError extends Error {
  constructor(
    readonly status: number,
    readonly statusText: string,
    readonly body: string,
    /** The server's Retry-After (a 429 or 503), in milliseconds; undefined when it gave none. */
    readonly retryAfterMs?: number,
  ) {
    super(status ? `${status} ${statusText}` : 'Network error');
    this.name = 'UploadError';
  }
}

/** The message when the request never got an answer (offline, connection dropped). */
const NETWORK_FAILURE = 'Could not reach the server';

/** The server's own `error` text from a JSON body, if it has one. */
function serverError(body: string): string {
  try {
    const parsed: unknown = JSON.parse(body);
    if (parsed && typeof parsed === 'object' && 'error' in parsed) {
      const { error } = parsed;
      if (typeof error === 'string' && error.trim()) return error.trim();
    }
  } catch {
    // Not JSON: no text of the server's to show.
  }
  return '';
}

/**
 * The {message} of 'Failed {file}: {message}': the server's `error` text, else
 * 'Upload failed ({status})'; never the raw body or status line (docs/decisions.md "Upload progress and failures").
 */
export function uploadFailureMessage(error: unknown): string {
  if (error instanceof UploadError) {
    if (!error.status) return NETWORK_FAILURE;
    return serverError(error.body) || `Upload failed (${error.status})`;
  }
  return 'Upload failed';
}

/**
 * Whether sending the same file again can succeed: after no answer at all, a server failure (5xx)
 * or too many requests (429), never after a refusal of the file itself (damaged, too large, not a
 * picture: the other 4xx).
 */
export function canRetryUpload(error: unknown): boolean {
  if (!(error instanceof UploadError)) return true;
  return error.status === 0 || error.status === 429 || error.status >= 500;
}

/** Retry-After as a number of seconds (the only form Orbit's server sends), in milliseconds. */
function retryAfterMs(header: string | null): number | undefined {
  if (!header || !/^\d+$/.test(header.trim())) return undefined;
  return Number(header.trim()) * 1000;
}

export interface UploadRequest {
  file: File;
  /** The file's Idempotency-Key, the same on every retry of it. */
  key: string;
  /** accountId, userId, username and (unless All) folder: docs/product.md "Uploads". */
  fields: Record<string, string>;
  signal: AbortSignal;
  onProgress: (loaded: number, total: number) => void;
}

/**
 * How a sent file ended: the new photo as the upload entry reads it (null when the answer had
 * none), or kept in the member's offline outbox by the service worker, to be sent when the network
 * is back.
 */
export type UploadOutcome = { queued: false; image: GalleryImage | null } | { queued: true };

/** Sends one file; resolves on 200, 201 or 204, or on the worker's 202 for a file it kept offline. */
export function uploadFile({
  file,
  key,
  fields,
  signal,
  onProgress,
}: UploadRequest): Promise<UploadOutcome> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(new DOMException('Upload aborted', 'AbortError'));
      return;
    }
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    form.append('image', file, file.name);
    const xhr = new XMLHttpRequest();
    xhr.open(galleryUpload.method, apiUrl(pathOf(galleryUpload)));
    xhr.withCredentials = true;
    xhr.setRequestHeader('Accept', 'application/json');
    const token = readToken();
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.setRequestHeader(IDEMPOTENCY_HEADER, key);
    const abort = () => xhr.abort();
    signal.addEventListener('abort', abort, { once: true });
    const settle = () => signal.removeEventListener('abort', abort);
    xhr.upload.onprogress = (event) =>
      onProgress(event.loaded, event.lengthComputable ? event.total : file.size);
    xhr.onload = () => {
      settle();
      const body = typeof xhr.responseText === 'string' ? xhr.responseText : '';
      if (xhr.status === 202 && xhr.getResponseHeader(OFFLINE_HEADER) === '1') {
        onProgress(file.size, file.size);
        resolve({ queued: true });
      } else if (xhr.status === 200 || xhr.status === 201 || xhr.status === 204) {
        onProgress(file.size, file.size);
        let image: GalleryImage | null = null;
        try {
          image = galleryUpload.read(body ? (JSON.parse(body) as unknown) : null);
        } catch {
          image = null;
        }
        resolve({ queued: false, image });
      } else {
        const wait =
          xhr.status === 429 || xhr.status === 503
            ? retryAfterMs(xhr.getResponseHeader('Retry-After'))
            : undefined;
        reject(new UploadError(xhr.status, xhr.statusText, body, wait));
      }
    };
    xhr.onerror = () => {
      settle();
      reject(new UploadError(0, '', ''));
    };
    xhr.onabort = () => {
      settle();
      reject(new DOMException('Upload aborted', 'AbortError'));
    };
    xhr.send(form);
  });
}
