// What the create page and its spool worker (e2e-spool-worker.ts) say to each other: one request
// per file, one answer.
import type { EncryptOptions } from '../../../../../shared/e2e/envelope-crypto.js';

export const SPOOL_WORKER_SCRIPT = '/assets/e2e-spool-worker.js';

export interface SpoolRequest {
  key: Uint8Array;
  file: File;
  options: EncryptOptions;
  /** The envelope's name in the spool, chosen by the page (it removes it later by name). */
  name: string;
}

/** `ok: false` when the spool could not be written: the page then builds a Blob. */
export type SpoolAnswer = { ok: true; bytes: number } | { ok: false };
