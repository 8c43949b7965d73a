import type { SliceUploadState } from '../sliced-upload-schema.js';

/**
 * A browser's side of a sliced upload (server/pushes/sliced-upload.ts; docs/end-to-end-encryption.md,
 * "Sliced uploads"): the push started with its envelopes' sizes, each envelope sent as the slices
 * the server asks for (Blob.slice of a disk-backed File: nothing is read into memory before its
 * request), then finished. Firefox holds a request's whole body in memory, so no request here
 * carries more than one slice. Used by the extension's file host and the server's create page.
 */
export interface SlicedUploadTarget {
  /** `…/api/v2/uploads` (Bearer token) or the create page's `/uploads` (session and CSRF header). */
  uploadsUrl: string;
  headers: Record<string, string>;
}

/**
 * Tries per request when the network fails or the server is briefly unavailable: a slice and the
 * finish are idempotent (sent again, they are answered as the first was).
 */
const TRIES = 4;
const RETRY_STATUSES = new Set([502, 503, 504]);
/** Longest wait a Retry-After may ask of the finish (the upload's previous step still running elsewhere). */
const MAX_RETRY_AFTER_MS = 30_000;

async function withRetries(send: () => Promise<Response>, { afterConflict = false } = {}): Promise<Response> {
  for (let attempt = 1; ; attempt++) {
    let wait = 500 * 2 ** attempt;
    try {
      const res = await send();
      const retryAfter = Number(res.headers.get('retry-after'));
      const conflict = afterConflict && res.status === 409 && retryAfter > 0;
      if ((!RETRY_STATUSES.has(res.status) && !conflict) || attempt === TRIES) return res;
      if (conflict) wait = Math.min(retryAfter * 1000, MAX_RETRY_AFTER_MS);
    } catch (e) {
      if (attempt === TRIES) throw e;
    }
    await new Promise((resolve) => setTimeout(resolve, wait));
  }
}

/** Where a sliced upload stands once its slices are sent. */
export type SlicesSent =
  /** Every slice is stored: `finishSlices` (or the create page's form) creates the push. */
  | { upload: string }
  /** The server refused the start or a slice (4xx, or 5xx after retries): its answer; the upload is given up. */
  | { refused: Response }
  /** The server offers no sliced uploads (404 at the start: an older server): send the push in one request. */
  | { unsupported: true };

/**
 * Starts a sliced upload of `push` (REST v2's create fields, end to end) with its file
 * `envelopes`, and sends each in the slices the server asks for. A network failure rejects, as
 * fetch does (the upload is given up).
 */
export async function sendSlices({ uploadsUrl, headers }: SlicedUploadTarget, push: Record<string, unknown>, envelopes: Blob[]): Promise<SlicesSent> {
  const started = await fetch(uploadsUrl, {
    method: 'POST',
    headers: { ...headers, 'Content-Type': 'application/json' },
    body: JSON.stringify({ push, files: envelopes.map((e) => ({ size: e.size })) }),
  });
  if (started.status === 404) return { unsupported: true };
  if (started.status !== 201) return { refused: started };
  const state = (await started.json()) as SliceUploadState;
  const uploadUrl = `${uploadsUrl}/${encodeURIComponent(state.upload)}`;
  const giveUp = () => fetch(uploadUrl, { method: 'DELETE', headers }).catch(() => undefined);
  try {
    for (const [file, envelope] of envelopes.entries()) {
      for (let offset = 0; offset < envelope.size; offset += state.slice_bytes) {
        const body = envelope.slice(offset, offset + state.slice_bytes);
        const res = await withRetries(() =>
          fetch(`${uploadUrl}/files/${file}?offset=${offset}`, { method: 'PUT', headers: { ...headers, 'Content-Type': 'application/octet-stream' }, body }),
        );
        if (!res.ok) {
          void giveUp();
          return { refused: res };
        }
      }
    }
  } catch (e) {
    void giveUp();
    throw e;
  }
  return { upload: state.upload };
}

/**
 * Creates the push of a sliced upload whose slices are all sent: the server's answer, as REST
 * v2's create answers. Asked again when the answer is lost (a finish rewrites the whole file on
 * the server, long enough for a proxy to give up on it): the server answers a finish asked
 * again with the push the first one made; a 409 with Retry-After (the first still running on
 * another server) is waited out.
 */
export function finishSlices({ uploadsUrl, headers }: SlicedUploadTarget, upload: string): Promise<Response> {
  return withRetries(() => fetch(`${uploadsUrl}/${encodeURIComponent(upload)}/finish`, { method: 'POST', headers }), { afterConflict: true });
}
