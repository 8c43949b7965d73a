import { createEncryptStream, type EncryptOptions } from './envelope-crypto.js';

/**
 * A file envelope written to the origin private file system (OPFS) as it is encrypted, and
 * handed back as a disk-backed File to upload. The Blob path (file-transfer.ts) keeps the whole
 * envelope in the browser's blob storage, which Chromium holds in memory up to 2 GB on a 64-bit
 * desktop before it pages anything to disk: a 1 GiB upload cost the browser a further ~1 GiB of
 * memory (docs/end-to-end-encryption.md, "Measured"). An HTTP/1.1 request body cannot be a stream
 * (browsers stream request bodies only over HTTP/2 and later), so the envelope must exist whole
 * somewhere before it is sent; here that is the disk.
 *
 * Spooled envelopes are removed by the page that follows a successful submission, by name
 * (another tab may be uploading its own); those left behind by an abandoned upload are removed
 * by the create page once they are a day old. They hold ciphertext only: the key
 * never touches the disk.
 */
const SPOOL_DIR = 'secret-push-uploads';
const ABANDONED_MS = 24 * 3600 * 1000;
/** Each write to an OPFS file is a round trip to the browser process: 64 KiB records one by one made spooling 3× slower than encrypting (Chromium, 512 MiB). */
const WRITE_BYTES = 4 * 1_048_576;

/** Records gathered into writes of at least WRITE_BYTES. */
function batches(): TransformStream<Uint8Array, Uint8Array> {
  let parts: Uint8Array[] = [];
  let size = 0;
  const joined = () => {
    const out = new Uint8Array(size);
    let at = 0;
    for (const p of parts) out.set(p, at), (at += p.length);
    parts = [];
    size = 0;
    return out;
  };
  return new TransformStream({
    transform(chunk, controller) {
      parts.push(chunk);
      size += chunk.length;
      if (size >= WRITE_BYTES) controller.enqueue(joined());
    },
    flush(controller) {
      if (size) controller.enqueue(joined());
    },
  });
}

type Directory = FileSystemDirectoryHandle & { entries?(): AsyncIterable<[string, FileSystemHandle]> };

async function spoolDirectory(): Promise<Directory | null> {
  try {
    return (await (await navigator.storage.getDirectory()).getDirectoryHandle(SPOOL_DIR, { create: true })) as Directory;
  } catch {
    // No OPFS in this context (Firefox's private windows, an insecure origin, storage refused, an older browser).
    return null;
  }
}

export interface SpooledEnvelope {
  /** The envelope, read from disk when uploaded. */
  file: File;
  /** Its name in the spool, for `discardSpooled` once the upload is done. */
  name: string;
}

/**
 * The file's envelope on disk, or null where the spool is unavailable or writing it failed (the
 * quota, a file that could not be read): the caller then builds the envelope as a Blob, which
 * reports a failure that is not the disk's.
 */
export async function spoolEncryptedFile(pushKey: Uint8Array, file: Blob, options: EncryptOptions = {}): Promise<SpooledEnvelope | null> {
  const dir = await spoolDirectory();
  if (!dir) return null;
  const name = `${crypto.randomUUID()}.bin`;
  const encrypt = await createEncryptStream(pushKey, 'file', options);
  try {
    const handle = await dir.getFileHandle(name, { create: true });
    // Safari has no createWritable (OPFS only through synchronous handles in workers): a TypeError, caught.
    await file.stream().pipeThrough(encrypt).pipeThrough(batches()).pipeTo(await handle.createWritable());
    return { file: await handle.getFile(), name };
  } catch {
    await dir.removeEntry(name).catch(() => undefined);
    return null;
  }
}

/** Removes spooled envelopes by name (those an earlier page of this tab uploaded). */
export async function discardSpooled(names: string[]): Promise<void> {
  if (!names.length) return;
  const dir = await spoolDirectory();
  if (!dir) return;
  await Promise.all(names.map((n) => dir.removeEntry(n).catch(() => undefined)));
}

/**
 * Removes spooled envelopes a day old (an upload abandoned before the page that follows could
 * remove it). Separate from spooling so that the extension, which removes its own as soon as
 * its request ends, does not carry it.
 */
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
    // Best effort: what is left is ciphertext, and the next spool tries again.
  }
}
