import { createDecryptStream, createEncryptStream, EnvelopeError, type EncryptOptions } from './envelope-crypto.js';

/**
 * Files through the envelope as Blobs, a record at a time: a file is read in slices and
 * encrypted as it is read, and a download is decrypted as it arrives. Finished pieces are handed
 * to Blobs every few MiB, which keeps them out of the script's heap but not out of memory:
 * Chromium's blob storage holds up to 2 GB in memory on a 64-bit desktop (a 1 GiB file cost the
 * browser ~1.1 GB, docs/end-to-end-encryption.md). The pages use this only where the streaming
 * paths are unavailable (upload-spool.ts, the recipient's save worker); so does the extension.
 * Blob and Response are in browsers and in Node 20 alike.
 */
const FOLD_BYTES = 8 * 1_048_576;

async function toBlob(stream: ReadableStream<Uint8Array>, type: string, onProgress?: (bytes: number) => void): Promise<Blob> {
  const blobs: Blob[] = [];
  let parts: Uint8Array<ArrayBuffer>[] = [];
  let pending = 0;
  let total = 0;
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parts.push(value as Uint8Array<ArrayBuffer>);
    pending += value.length;
    total += value.length;
    if (pending >= FOLD_BYTES) {
      blobs.push(new Blob(parts));
      parts = [];
      pending = 0;
      onProgress?.(total);
    }
  }
  blobs.push(new Blob(parts));
  return new Blob(blobs, { type });
}

/** A file (or any Blob) as a file envelope, ready to upload. */
export async function encryptFile(pushKey: Uint8Array, file: Blob, options: EncryptOptions = {}): Promise<Blob> {
  return toBlob(file.stream().pipeThrough(await createEncryptStream(pushKey, 'file', options)), 'application/octet-stream');
}

/**
 * A downloaded file envelope, decrypted as it arrives; resolves only once the final record has
 * been authenticated (a cut-off or changed download rejects with an EnvelopeError).
 */
export async function decryptDownload(pushKey: Uint8Array, body: ReadableStream<Uint8Array>, type: string, options: { passphrase?: string; onProgress?: (bytes: number) => void } = {}): Promise<Blob> {
  const { stream, header } = createDecryptStream(pushKey, options.passphrase);
  const blob = await toBlob(body.pipeThrough(stream), type, options.onProgress);
  if ((await header).content !== 'file') throw new EnvelopeError('format', 'This download is not a file envelope.');
  return blob;
}
