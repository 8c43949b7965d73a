// What a page and its spool worker (spool-worker-messages.ts) say to each other: one request
// per file, one answer. Shared by the server's create page and the extension's file host.
import type { EncryptOptions } from './envelope-crypto.js';

export interface SpoolRequest {
  key: Uint8Array;
  file: File;
  options: EncryptOptions;
  /** The envelope's name in the spool, chosen by the page (it removes it later by name). */
  name: string;
}

/** `ok: false` when the spool could not be written: the page then builds a Blob. */
export type SpoolAnswer = { ok: true; bytes: number } | { ok: false };
