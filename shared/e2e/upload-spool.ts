import { createEncryptStream, type EncryptOptions } from './envelope-crypto.js';

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

type Directory = FileSystemDirectoryHandle & { entries?(): AsyncIterable<[string, FileSystemHandle]> };
interface SyncAccessHandle {
  write(data: Uint8Array, options: { at: number }): number;
  truncate(size: number): void;
  flush(): void;
  close(): void;
}

export async function spoolDirectory(): Promise<Directory | null> {
  try {
    return (await (await navigator.storage.getDirectory()).getDirectoryHandle(SPOOL_DIR, { create: true })) as Directory;
  } catch {
    // No OPFS in this context (Firefox's private windows, an insecure origin, storage refused, an older browser).
    return null;
  }
}

/**
 * In a dedicated worker: encrypts `file` into the spool under `name`; its envelope's size.
 * Throws when the spool cannot be written (no OPFS, no synchronous handles, the quota); a file
 * left half written is removed.
 */
export async function writeSpooledEnvelope(pushKey: Uint8Array, file: Blob, options: EncryptOptions, name: string): Promise<number> {
  const dir = await spoolDirectory();
  if (!dir) throw new Error('no origin private file system here');
  const handle = (await dir.getFileHandle(name, { create: true })) as FileSystemFileHandle & { createSyncAccessHandle(): Promise<SyncAccessHandle> };
  let access: SyncAccessHandle | undefined;
  try {
    access = await handle.createSyncAccessHandle();
    access.truncate(0);
    let at = 0;
    const reader = file.stream().pipeThrough(await createEncryptStream(pushKey, 'file', options)).getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      at += access.write(value, { at });
    }
    access.flush();
    return at;
  } catch (e) {
    access?.close();
    access = undefined;
    await dir.removeEntry(name).catch(() => undefined);
    throw e;
  } finally {
    access?.close();
  }
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
  const dir = await spoolDirectory();
  if (!dir?.entries) return;
  try {
    for await (const [name, handle] of dir.entries()) {
      if (handle.kind !== 'file') continue;
      const file = await (handle as FileSystemFileHandle).getFile();
      if (Date.now() - file.lastModified > ABANDONED_MS) await dir.removeEntry(name).catch(() => undefined);
    }
  } catch {
    // Best effort: what is left is ciphertext, and the next visit tries again.
  }
}
