// What the recipient page and the save worker (e2e-save-worker.ts) say to each other. The page
// sends one `SaveRequest` per download with a MessagePort; everything after it goes over that
// port, so that only the page that asked hears about its download.
import type { EnvelopeErrorCode } from '../../../../../shared/e2e/envelope-crypto.js';

/** Where the worker is served (static-assets.ts adds the Service-Worker-Allowed header for SAVE_SCOPE). */
export const SAVE_WORKER_SCRIPT = '/assets/e2e-save-worker.js';
/**
 * The worker's scope: only the synthetic download addresses. No page lives here (`~` is not in a
 * push token), so the worker never sits in front of a page or the server's own downloads.
 */
export const SAVE_SCOPE = '/p/~e2e-save/';

export interface SaveRequest {
  type: 'save';
  /** The ciphertext's address on this server (`/p/<token>/files/<id>?…`). */
  url: string;
  /** The push key from the link's fragment; the worker forgets it when the download ends. */
  key: Uint8Array;
  passphrase?: string;
  /** Already neutralised (shared/neutralise-controls.ts). */
  name: string;
  mimeType?: string;
}

/**
 * Sent by the page every KEEP_ALIVE_MS while a download runs: a message from a page extends the
 * worker's life. Firefox stops a worker it thinks idle (30 s, then 30 s more for pending work)
 * even while it is producing a response: with both limits set to 3 s, a 1000 MiB download
 * stopped after 85 MB and never ended.
 */
export interface KeepAlive {
  type: 'keep-alive';
}
export const KEEP_ALIVE_MS = 5_000;
/** The worker's `alive` on each job's port; the page takes HEARTBEAT_MS × 4 of silence for a stopped worker. */
export const HEARTBEAT_MS = 5_000;

export type SaveFailure = 'fetch' | 'cancelled' | 'worker-stopped' | EnvelopeErrorCode;

export type SaveEvent =
  /** The one-shot address to open in a frame. */
  | { type: 'ready'; path: string }
  | { type: 'refused'; reason: string }
  /** The frame's request arrived and the ciphertext answered: the browser is saving. */
  | { type: 'started' }
  /** The final record authenticated and its plaintext was handed to the browser. */
  | { type: 'done'; bytes: number }
  | { type: 'failed'; reason: SaveFailure }
  /** Every HEARTBEAT_MS while the job exists. */
  | { type: 'alive' };
