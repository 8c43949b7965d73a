import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { KeyRing } from '../crypto/key-ring.js';
import { StorageUnavailableError } from './store.js';

/**
 * Attached files, encrypted with the key ring and kept under `<DATA_DIR>/files/<push>/<file>`.
 * Uploads stream through the cipher to a temp file that is renamed into place only when
 * complete, so a crash never leaves a half file that looks whole.
 */
export class FileVault {
  private readonly root: string;

  constructor(dataDir: string, private readonly keys: KeyRing) {
    this.root = join(dataDir, 'files');
  }

  private dir(pushToken: string) {
    return join(this.root, pushToken);
  }

  /** Streams `source` encrypted to disk; resolves with the plaintext size. */
  async write(pushToken: string, fileId: string, source: Readable): Promise<number> {
    const dir = this.dir(pushToken);
    // Until the pipeline below listens, an error of the source (an upload cut short or over
    // its size limit) would be an uncaught exception: hold it here meanwhile.
    let early: unknown;
    const onEarlyError = (e: unknown) => void (early ??= e);
    source.on('error', onEarlyError);
    try {
      await mkdir(dir, { recursive: true, mode: 0o700 });
    } finally {
      source.off('error', onEarlyError);
    }
    if (early !== undefined) throw early;
    const final = join(dir, `${fileId}.bin`);
    const temp = `${final}.part`;
    let size = 0;
    const counter = new PassThrough();
    counter.on('data', (chunk: Buffer) => (size += chunk.length));
    try {
      await pipeline(source, counter, this.keys.createEncryptStream(), createWriteStream(temp, { mode: 0o600 }));
      const fh = await open(temp, 'r');
      await fh.datasync();
      await fh.close();
      await rename(temp, final);
    } catch (e) {
      await rm(temp, { force: true });
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ENOSPC' || code === 'EDQUOT' || code === 'EROFS') {
        throw new StorageUnavailableError(`could not store the file (${code})`);
      }
      throw e;
    }
    return size;
  }

  /** A stream of the decrypted file; it errors if the file was tampered with. */
  async read(pushToken: string, fileId: string): Promise<Readable> {
    const path = join(this.dir(pushToken), `${fileId}.bin`);
    const { size } = await stat(path);
    const headerBytes = (this.keys.constructor as typeof KeyRing).fileHeaderBytes;
    const tagBytes = (this.keys.constructor as typeof KeyRing).fileTagBytes;
    const fh = await open(path, 'r');
    const header = Buffer.alloc(headerBytes);
    const tag = Buffer.alloc(tagBytes);
    try {
      await fh.read(header, 0, headerBytes, 0);
      await fh.read(tag, 0, tagBytes, size - tagBytes);
    } finally {
      await fh.close();
    }
    const body = createReadStream(path, { start: headerBytes, end: size - tagBytes - 1 });
    const decrypt = this.keys.createDecryptStream(header, tag);
    if (size - tagBytes - headerBytes === 0) {
      body.destroy();
      decrypt.end();
      return decrypt;
    }
    body.on('error', (e) => decrypt.destroy(e));
    return body.pipe(decrypt);
  }

  /** Deletes every file of a push (on expiry). */
  async removeAll(pushToken: string): Promise<void> {
    await rm(this.dir(pushToken), { recursive: true, force: true });
  }
}
