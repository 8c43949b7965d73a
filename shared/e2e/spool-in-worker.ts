// A page's side of the upload spool (the server's create page, the extension's file host): a
// file is encrypted into OPFS by a spool worker (spool-worker-messages.ts) and read back as a
// disk-backed File to upload.
import type { EncryptOptions } from './envelope-crypto.js';
import { askWorker } from './opfs-file.js';
import { spoolDirectory } from './upload-spool.js';
import type { SpoolAnswer, SpoolRequest } from './spool-protocol.js';

export interface SpooledEnvelope {
  /** The envelope, read from disk when uploaded. */
  file: File;
  /** Its name in the spool, for discardSpooled once the upload has ended. */
  name: string;
}

/**
 * The file's envelope on disk, or null where the spool is unavailable or could not be written
 * (no OPFS, no workers or no synchronous handles, the quota, a file that could not be read):
 * the caller then builds the envelope as a Blob, which reports a failure that is not the disk's.
 * `workerScript` is the spool worker's address in the caller's origin.
 */
export async function spoolEncryptedFile(workerScript: string, pushKey: Uint8Array, file: File, options: EncryptOptions): Promise<SpooledEnvelope | null> {
  const dir = await spoolDirectory();
  if (!dir || typeof Worker !== 'function') return null;
  const name = `${crypto.randomUUID()}.bin`;
  try {
    // The key is copied into the worker (structured clone) and zeroed there when it is done.
    const answer = await askWorker<SpoolAnswer>(workerScript, { key: pushKey, file, options, name } satisfies SpoolRequest, { ok: false });
    if (!answer?.ok) return null;
    const spooled = await (await dir.getFileHandle(name)).getFile();
    if (spooled.size === answer.bytes) return { file: spooled, name };
    throw new Error('the spooled envelope is not the size the worker wrote');
  } catch {
    await dir.removeEntry(name).catch(() => undefined);
    return null;
  }
}
