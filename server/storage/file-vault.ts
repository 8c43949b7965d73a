import { PassThrough, pipeline, type Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { KeyRing } from '../crypto/key-ring.js';
import type { BlobStore } from './store.js';

/**
 * Attached files, encrypted with the key ring as they stream in and kept as opaque blobs by the
 * store's backend (a file per blob for the embedded store, chunked rows for PostgreSQL). A blob is
 * the header, the ciphertext and the authentication tag, in that order.
 */
export class FileVault {
  constructor(
    private readonly blobs: BlobStore,
    private readonly keys: KeyRing,
  ) {}

  /** Streams `source` encrypted into the store; resolves with the plaintext size. */
  async write(pushToken: string, fileId: string, source: Readable): Promise<number> {
    let size = 0;
    const counter = new PassThrough();
    counter.on('data', (chunk: Buffer) => (size += chunk.length));
    // pipeline() carries an error of any stage (an upload cut short or over its size limit) to
    // the last one, which the blob store is reading, and keeps it from going uncaught while the
    // store has not started reading yet. Its own outcome is the store's to report.
    const encrypted = pipeline(source, counter, this.keys.createEncryptStream(), () => {});
    await this.blobs.write(pushToken, fileId, encrypted);
    return size;
  }

  /**
   * A stream of the decrypted file. GCM authenticates a file only at its end, so the whole
   * ciphertext is first decrypted and thrown away to check its tag: a file changed or damaged on
   * disk is refused (DecryptionError) before its first byte is sent to anyone, never streamed
   * and then cut off. (It costs a second pass of AES, far cheaper than the network.)
   * `verifyFirst: false` skips that pass for end-to-end files, whose every 64 KiB record the
   * recipient authenticates itself: damage then cuts the stream off, which the recipient's
   * decryption reports, and the first byte leaves at once instead of after a pass over the file.
   */
  async read(pushToken: string, fileId: string, options: { verifyFirst?: boolean } = {}): Promise<Readable> {
    if (options.verifyFirst === false) return this.decrypting(pushToken, fileId);
    await finished((await this.decrypting(pushToken, fileId)).resume());
    return this.decrypting(pushToken, fileId);
  }

  /**
   * Bytes `start` (inclusive) to `end` (exclusive) of the decrypted file, unauthenticated at
   * rest (KeyRing.createRangeDecryptStream): for end-to-end files only, whose records the
   * recipient authenticates. A ranged download lets a browser that holds a response in memory
   * (Firefox) fetch a large file in bounded pieces.
   */
  async readRange(pushToken: string, fileId: string, start: number, end: number): Promise<Readable> {
    const headerBytes = KeyRing.fileHeaderBytes;
    const header = await this.readAll(pushToken, fileId, 0, headerBytes);
    if (header.length < headerBytes) throw Object.assign(new Error(`no file ${fileId}`), { code: 'ENOENT' });
    const body = await this.blobs.read(pushToken, fileId, headerBytes + start, headerBytes + end);
    const decrypt = this.keys.createRangeDecryptStream(header, start);
    body.on('error', (e) => decrypt.destroy(e));
    return body.pipe(decrypt);
  }

  private async decrypting(pushToken: string, fileId: string): Promise<Readable> {
    const size = await this.blobs.size(pushToken, fileId);
    const headerBytes = KeyRing.fileHeaderBytes;
    const tagBytes = KeyRing.fileTagBytes;
    if (size === undefined || size < headerBytes + tagBytes) throw Object.assign(new Error(`no file ${fileId}`), { code: 'ENOENT' });
    const [header, tag] = await Promise.all([
      this.readAll(pushToken, fileId, 0, headerBytes),
      this.readAll(pushToken, fileId, size - tagBytes, size),
    ]);
    const decrypt = this.keys.createDecryptStream(header, tag);
    if (size - tagBytes - headerBytes === 0) {
      decrypt.end();
      return decrypt;
    }
    const body = await this.blobs.read(pushToken, fileId, headerBytes, size - tagBytes);
    body.on('error', (e) => decrypt.destroy(e));
    return body.pipe(decrypt);
  }

  private async readAll(pushToken: string, fileId: string, start: number, end: number): Promise<Buffer> {
    const parts: Buffer[] = [];
    for await (const chunk of await this.blobs.read(pushToken, fileId, start, end)) parts.push(chunk as Buffer);
    return Buffer.concat(parts);
  }

  /** Deletes every file of a push (on expiry). */
  removeAll(pushToken: string): Promise<void> {
    return this.blobs.removeAll(pushToken);
  }
}
