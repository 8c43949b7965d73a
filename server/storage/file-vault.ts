import { PassThrough, pipeline, Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { KeyRing } from '../crypto/key-ring.js';
import type { StoredFile } from './records.js';
import { segmentBinding, segmentBlobId, segmentCount } from './segmented-file.js';
import type { BlobStore } from './store.js';

/** What reading a stored file needs of its record. */
type FileRef = Pick<StoredFile, 'id' | 'size' | 'segmentBytes'>;

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
  async write(pushToken: string, fileId: string, source: Readable, aad?: Buffer): Promise<number> {
    let size = 0;
    const counter = new PassThrough();
    counter.on('data', (chunk: Buffer) => (size += chunk.length));
    // pipeline() carries an error of any stage (an upload cut short or over its size limit) to
    // the last one, which the blob store is reading, and keeps it from going uncaught while the
    // store has not started reading yet. Its own outcome is the store's to report.
    const encrypted = pipeline(source, counter, this.keys.createEncryptStream(aad), () => {});
    await this.blobs.write(pushToken, fileId, encrypted);
    return size;
  }

  /**
   * Streams `source` into the store as segment `index` of a segmented file (storage/
   * segmented-file.ts), sealed to its file, its index and whether it is the last; resolves with
   * its plaintext size.
   */
  writeSegment(pushToken: string, fileId: string, index: number, final: boolean, source: Readable): Promise<number> {
    return this.write(pushToken, segmentBlobId(fileId, index), source, segmentBinding(fileId, index, final));
  }

  /** A stored file's plaintext, whichever way it is stored (whole or in segments), as `read` gives it. */
  async readFile(pushToken: string, file: FileRef, options: { verifyFirst?: boolean } = {}): Promise<Readable> {
    if (!file.segmentBytes) return this.read(pushToken, file.id, options);
    if (options.verifyFirst !== false) await finished((await this.segments(pushToken, file)).resume());
    return this.segments(pushToken, file);
  }

  /** Bytes `start` to `end` (exclusive) of a stored file, as `readRange` gives them; across segments for a segmented one. */
  async readFileRange(pushToken: string, file: FileRef, start: number, end: number): Promise<Readable> {
    const segmentBytes = file.segmentBytes;
    if (!segmentBytes) return this.readRange(pushToken, file.id, start, end);
    const first = Math.floor(start / segmentBytes);
    const last = Math.floor((end - 1) / segmentBytes);
    const piece = (i: number) => {
      const at = i * segmentBytes;
      return this.readRange(pushToken, segmentBlobId(file.id, i), Math.max(start, at) - at, Math.min(end, at + segmentBytes) - at);
    };
    // The first piece is opened before the stream is handed over: a file already gone is ENOENT
    // here (a 404), not a cut-off answer.
    const opening = await piece(first);
    async function* pieces() {
      yield* opening as AsyncIterable<Buffer>;
      for (let i = first + 1; i <= last; i++) yield* (await piece(i)) as AsyncIterable<Buffer>;
    }
    return Readable.from(pieces(), { objectMode: false });
  }

  /** A segmented file's segments decrypted one after the other, each checked by its own tag and binding as it ends. */
  private async segments(pushToken: string, file: FileRef): Promise<Readable> {
    const count = segmentCount(file.size, file.segmentBytes!);
    const segment = (i: number) => this.decrypting(pushToken, segmentBlobId(file.id, i), segmentBinding(file.id, i, i === count - 1));
    const opening = await segment(0);
    async function* all() {
      yield* opening as AsyncIterable<Buffer>;
      for (let i = 1; i < count; i++) yield* (await segment(i)) as AsyncIterable<Buffer>;
    }
    return Readable.from(all(), { objectMode: false });
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

  private async decrypting(pushToken: string, fileId: string, aad?: Buffer): Promise<Readable> {
    const size = await this.blobs.size(pushToken, fileId);
    const headerBytes = KeyRing.fileHeaderBytes;
    const tagBytes = KeyRing.fileTagBytes;
    if (size === undefined || size < headerBytes + tagBytes) throw Object.assign(new Error(`no file ${fileId}`), { code: 'ENOENT' });
    const [header, tag] = await Promise.all([
      this.readAll(pushToken, fileId, 0, headerBytes),
      this.readAll(pushToken, fileId, size - tagBytes, size),
    ]);
    const decrypt = this.keys.createDecryptStream(header, tag, aad);
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
