import { createEncryptStream, type EncryptOptions } from './envelope-crypto.js';
import { opfsDirectory, removeOlderThan, writeThroughSyncHandle, type OpfsDirectory } from './opfs-file.js';

/**
 * The upload spool: file envelopes written to the origin private file system (OPFS) as they are
 * encrypted, so that the create page (and the extension's file host) can upload a disk-backed File. The Blob path
 * (file-transfer.ts) keeps the whole envelope in the browser's blob storage, which Chromium holds
 * in memory up to 2 GB on a 64-bit desktop: a 1 GiB upload cost the browser a further ~1.1 GB
 * (docs/end-to-end-encryption.md, "Measured"). An HTTP/1.1 request body cannot be a stream
 * (browsers stream request bodies only over HTTP/2 and later), so the envelope must exist whole
 * somewhere before it is sent; here that is the disk.
 *
 * The envelope is written through a synchronous access handle, which exists only in dedicated
 * workers (spool-worker-messages.ts runs `writeSpooledEnvelope`, in the server page's spool worker and the extension's): it writes straight to
 * the file. The page-side `createWritable` stream hands every write to the browser process and
 * commits through a swap file: 2.5× slower with 64 KiB writes, and in an off-the-record profile,
 * where Chromium keeps OPFS in memory, a 1 GiB upload peaked at +2 GB against the Blob's +1.1 GB.
 *
 * Spooled envelopes are removed by the page that follows a successful submission, by name
 * (another tab may be uploading its own), or by the extension's file host once its upload has
 * ended; those an abandoned upload left are removed by the create page, or the file host when it
 * opens, once they are a day old. They hold ciphertext only: the key never touches the disk.
 */
export const SPOOL_DIR = 'secret-push-uploads';
const ABANDONED_MS = 24 * 3600 * 1000;

export function spoolDirectory(): Promise<OpfsDirectory | null> {
  return opfsDirectory(SPOOL_DIR);
}

/**
 * In a dedicated worker: encrypts `file` into the spool under `name`; its envelope's size.
 * Throws when the spool cannot be written (no OPFS, no synchronous handles, the quota); a file
 * left half written is removed.
 */
export async function writeSpooledEnvelope(pushKey: Uint8Array, file: Blob, options: EncryptOptions, name: string): Promise<number> {
  const dir = await spoolDirectory();
  if (!dir) throw new Error('no origin private file system here');
  return writeThroughSyncHandle(dir, name, file.stream().pipeThrough(await createEncryptStream(pushKey, 'file', options)));
}

/** Removes spooled envelopes by name (those an earlier page of this tab uploaded). */
export async function discardSpooled(names: string[]): Promise<void> {
  if (!names.length) return;
  const dir = await spoolDirectory();
  if (!dir) return;
  await Promise.all(names.map((n) => dir.removeEntry(n).catch(() => undefined)));
}

/** Removes spooled envelopes a day old (an upload abandoned before the page that follows could remove it). */
export async function removeAbandonedSpool(): Promise<void> {
  await removeOlderThan(await spoolDirectory(), ABANDONED_MS);
}
