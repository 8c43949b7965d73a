import { createWriteStream } from 'node:fs';
import { mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { BlobStore } from '../store.js';
import { asStorageError } from './disk-errors.js';

/**
 * Blobs as files under `<DATA_DIR>/files/<push>/<file>.bin`. A blob is written to a temp file
 * that is synced and renamed into place only when complete, so a crash never leaves a half
 * file that looks whole.
 */
export class DiskBlobStore implements BlobStore {
  private readonly root: string;

  constructor(
    dataDir: string,
    /** Whether a push of this token is stored (blobs of unknown pushes are orphans). */
    private readonly isStored: (pushToken: string) => boolean,
  ) {
    this.root = join(dataDir, 'files');
  }

  private dir(pushToken: string) {
    return join(this.root, pushToken);
  }

  private path(pushToken: string, fileId: string) {
    return join(this.dir(pushToken), `${fileId}.bin`);
  }

  /**
   * Moves a push's blobs to another token (a rename of the push). Repeatable: blobs already moved
   * (a rename cut short after this step) are left where they are.
   */
  async move(fromToken: string, toToken: string): Promise<void> {
    try {
      await rename(this.dir(fromToken), this.dir(toToken));
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    }
  }

  async write(pushToken: string, fileId: string, source: Readable): Promise<number> {
    // Until the pipeline below listens, an error of the source (an upload cut short or over
    // its size limit) would be an uncaught exception: hold it here meanwhile.
    let early: unknown;
    const onEarlyError = (e: unknown) => void (early ??= e);
    source.on('error', onEarlyError);
    try {
      await mkdir(this.dir(pushToken), { recursive: true, mode: 0o700 });
    } finally {
      source.off('error', onEarlyError);
    }
    if (early !== undefined) throw early;
    const final = this.path(pushToken, fileId);
    const temp = `${final}.part`;
    let size = 0;
    const counter = new PassThrough();
    counter.on('data', (chunk: Buffer) => (size += chunk.length));
    try {
      await pipeline(source, counter, createWriteStream(temp, { mode: 0o600 }));
      const fh = await open(temp, 'r');
      await fh.datasync();
      await fh.close();
      await rename(temp, final);
    } catch (e) {
      await rm(temp, { force: true });
      throw asStorageError(e, 'could not store the file');
    }
    return size;
  }

  async size(pushToken: string, fileId: string): Promise<number | undefined> {
    try {
      return (await stat(this.path(pushToken, fileId))).size;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw e;
    }
  }

  async read(pushToken: string, fileId: string, start: number, end: number): Promise<Readable> {
    if (end <= start) return new PassThrough().end();
    // Opened before it is handed over: a push deleted beside a download that has begun does not
    // cut that download short (an open file outlives its name); one already gone is ENOENT here.
    const handle = await open(this.path(pushToken, fileId), 'r');
    return handle.createReadStream({ start, end: end - 1 });
  }

  async removeOrphans(startedBefore: Date, limit: number): Promise<number> {
    let names: string[];
    try {
      names = await readdir(this.root);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return 0;
      throw e;
    }
    let removed = 0;
    for (const token of names) {
      if (removed >= limit) break;
      if (this.isStored(token)) continue;
      let mtimeMs: number;
      try {
        ({ mtimeMs } = await stat(this.dir(token)));
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ENOENT') continue; // removed since the listing (a give-up, a delete)
        throw e;
      }
      if (mtimeMs >= startedBefore.getTime()) continue; // an upload may still be under way
      await this.removeAll(token);
      removed++;
    }
    return removed;
  }

  async *list(): AsyncIterable<{ pushToken: string; fileId: string }> {
    let tokens: string[];
    try {
      tokens = (await readdir(this.root)).sort();
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw e;
    }
    for (const pushToken of tokens) {
      const names = await readdir(this.dir(pushToken)).catch(() => [] as string[]);
      // `.part` files are writes under way (or cut short): not blobs yet.
      for (const name of names.sort()) if (name.endsWith('.bin')) yield { pushToken, fileId: name.slice(0, -'.bin'.length) };
    }
  }

  async removeAll(pushToken: string): Promise<void> {
    await rm(this.dir(pushToken), { recursive: true, force: true });
  }
}
