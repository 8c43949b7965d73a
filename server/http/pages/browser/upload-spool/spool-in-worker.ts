// The create page's side of the upload spool: each file is encrypted into OPFS by the spool
// worker (e2e-spool-worker.ts) and read back as a disk-backed File to upload. The logic is
// shared with the extension's file host (shared/e2e/spool-in-worker.ts).
import type { EncryptOptions } from '../../../../../shared/e2e/envelope-crypto.js';
import { spoolEncryptedFile as spoolWith, type SpooledEnvelope } from '../../../../../shared/e2e/spool-in-worker.js';
import { SPOOL_WORKER_SCRIPT } from './spool-protocol.js';

export type { SpooledEnvelope };

export function spoolEncryptedFile(pushKey: Uint8Array, file: File, options: EncryptOptions): Promise<SpooledEnvelope | null> {
  return spoolWith(SPOOL_WORKER_SCRIPT, pushKey, file, options);
}
