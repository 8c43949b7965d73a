import { open, readFile, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { Adapter } from 'lowdb';

type Data = Record<string, Record<string, unknown>>;

const ENTRIES_PER_SLICE = 250;

/**
 * lowdb adapter for the snapshot file: JSON like lowdb's own JSONFile, but written in slices
 * that yield to the event loop between them (a snapshot of 100,000 pushes would otherwise
 * block every request for the whole JSON.stringify), then fsynced and renamed into place so a
 * crash never leaves a half file.
 */
export class SnapshotFile implements Adapter<Data> {
  constructor(private readonly path: string) {}

  async read(): Promise<Data | null> {
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw e;
    }
    return JSON.parse(text) as Data;
  }

  async write(data: Data): Promise<void> {
    const temp = join(dirname(this.path), `.${basename(this.path)}.tmp`);
    const fh = await open(temp, 'w', 0o600);
    let position = 0;
    // write() may store only part of what it is given (a disk filling up answers with a short
    // count, not an error): write the rest until done, so the disk's refusal throws instead of
    // a cut-off snapshot being renamed into place.
    const writeAll = async (text: string) => {
      const buf = Buffer.from(text);
      for (let done = 0; done < buf.length; ) {
        const { bytesWritten } = await fh.write(buf, done, buf.length - done, position + done);
        if (bytesWritten <= 0) throw Object.assign(new Error('the disk accepted no bytes'), { code: 'ENOSPC' });
        done += bytesWritten;
      }
      position += buf.length;
    };
    try {
      let pending = '{';
      let firstCollection = true;
      for (const [name, collection] of Object.entries(data)) {
        pending += `${firstCollection ? '' : ','}${JSON.stringify(name)}:{`;
        firstCollection = false;
        let count = 0;
        for (const key in collection) {
          pending += `${count === 0 ? '' : ','}${JSON.stringify(key)}:${JSON.stringify(collection[key])}`;
          if (++count % ENTRIES_PER_SLICE === 0) {
            await writeAll(pending);
            pending = '';
            await new Promise((resolve) => setImmediate(resolve));
          }
        }
        pending += '}';
      }
      await writeAll(pending + '}');
      await fh.datasync();
    } catch (e) {
      await fh.close().catch(() => {});
      await rm(temp, { force: true });
      throw e;
    }
    await fh.close();
    await rename(temp, this.path);
  }
}
