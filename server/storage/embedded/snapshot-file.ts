import { open, readFile, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { Adapter } from 'lowdb';
import { readLines } from './line-reader.js';

type Data = Record<string, Record<string, unknown>>;

/** First line of a snapshot in the current format; older snapshots are one JSON object. */
const HEADER = '{"format":"secret-push-snapshot","version":2}';
/** Text handed to one write() (entries can be large: a push may carry megabytes). */
const WRITE_BYTES = 1024 * 1024;
/** Entries serialised between two yields to the event loop. */
const ENTRIES_PER_SLICE = 250;

export class SnapshotFormatError extends Error {}

/**
 * lowdb adapter for the snapshot file. One line per entry, `[collection, key, value]`, after a
 * header line: written in pieces that yield to the event loop (a snapshot of 100,000 pushes
 * would otherwise block every request for the whole serialisation), then fsynced and renamed
 * into place so a crash never leaves a half file; read line by line, so no string ever holds
 * the whole store (V8 strings stop at ~512 MiB). A snapshot in the first format (one JSON
 * object, written by earlier versions) is still read, and is rewritten in this format by the
 * next compaction.
 */
export class SnapshotFile implements Adapter<Data> {
  constructor(private readonly path: string) {}

  async read(): Promise<Data | null> {
    let lines: AsyncGenerator<{ line: string; end: number }, { tornAt: number | undefined }>;
    try {
      lines = readLines(this.path);
      const first = await lines.next();
      // One line without a newline (or none at all) is no snapshot of ours in this format.
      if (first.done) return this.readFirstFormat();
      if (first.value.line !== HEADER) {
        await lines.return({ tornAt: undefined });
        return this.readFirstFormat();
      }
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw e;
    }
    const data: Data = {};
    let n = 1;
    for (;;) {
      const next = await lines.next();
      if (next.done) {
        if (next.value.tornAt !== undefined) throw new SnapshotFormatError(`the file ends in the middle of line ${n + 1}`);
        return data;
      }
      n++;
      let entry: unknown;
      try {
        entry = JSON.parse(next.value.line);
      } catch {
        throw new SnapshotFormatError(`line ${n} is not valid JSON`);
      }
      if (!Array.isArray(entry) || entry.length !== 3 || typeof entry[0] !== 'string' || typeof entry[1] !== 'string') {
        throw new SnapshotFormatError(`line ${n} is not a [collection, key, value] entry`);
      }
      (data[entry[0]] ??= {})[entry[1]] = entry[2];
    }
  }

  private async readFirstFormat(): Promise<Data> {
    return JSON.parse(await readFile(this.path, 'utf8')) as Data;
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
      let pending = HEADER + '\n';
      let count = 0;
      for (const [name, collection] of Object.entries(data)) {
        for (const key in collection) {
          pending += JSON.stringify([name, key, collection[key]]) + '\n';
          // Flushed by size as well as by count: a few large entries must not add up to one
          // string past V8's limit.
          if (pending.length >= WRITE_BYTES) {
            await writeAll(pending);
            pending = '';
          }
          if (++count % ENTRIES_PER_SLICE === 0) await new Promise((resolve) => setImmediate(resolve));
        }
      }
      await writeAll(pending);
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
