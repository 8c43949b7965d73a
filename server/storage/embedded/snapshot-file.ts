import { createHash } from 'node:crypto';
import { open, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { Adapter } from 'lowdb';
import { readLineBlocks } from './line-reader.js';

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
  /**
   * Whether the last read() found the snapshot exactly as this server wrote it: its SHA-256
   * matches the one recorded beside it (`db.json.sha256`) when it was written.
   */
  verified = false;

  constructor(private readonly path: string) {}

  private get checksumPath() {
    return `${this.path}.sha256`;
  }

  async read(): Promise<Data | null> {
    this.verified = false;
    const hash = createHash('sha256');
    let blocks: AsyncGenerator<{ text: string; end: number }, { tornAt: number | undefined }>;
    let first: IteratorResult<{ text: string; end: number }, { tornAt: number | undefined }>;
    try {
      blocks = readLineBlocks(this.path, (bytes) => hash.update(bytes));
      first = await blocks.next();
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw e;
    }
    // One line without a newline (or none at all) is no snapshot of ours in this format.
    if (first.done || !(first.value.text === HEADER || first.value.text.startsWith(HEADER + '\n'))) {
      await blocks.return({ tornAt: undefined });
      return this.readFirstFormat();
    }
    const data: Data = {};
    let lineNo = 1;
    for (let block: string | null = first.value.text.slice(HEADER.length + 1); block !== null; ) {
      lineNo += this.parseBlock(block, lineNo, data);
      const next = await blocks.next();
      if (next.done) {
        if (next.value.tornAt !== undefined) throw new SnapshotFormatError(`the file ends in the middle of line ${lineNo + 1}`);
        block = null;
      } else block = next.value.text;
    }
    const recorded = await readFile(this.checksumPath, 'utf8').catch(() => '');
    this.verified = recorded.trim() === hash.digest('hex');
    return data;
  }

  /**
   * The entries of a block of lines, parsed with one JSON.parse (a line of JSON never holds a raw
   * newline, so the lines become one array); returns how many lines it held.
   */
  private parseBlock(text: string, firstLineNo: number, data: Data): number {
    if (text === '') return 0;
    let entries: unknown[];
    try {
      entries = JSON.parse(`[${text.replaceAll('\n', ',')}]`);
    } catch {
      // Find the line, for a message an administrator can act on.
      const lines = text.split('\n');
      const bad = lines.findIndex((l) => {
        try {
          JSON.parse(l);
          return false;
        } catch {
          return true;
        }
      });
      throw new SnapshotFormatError(`line ${firstLineNo + Math.max(bad, 0) + 1} is not valid JSON`);
    }
    for (let i = 0; i < entries.length; i++) {
      const entry = entries[i];
      if (!Array.isArray(entry) || entry.length !== 3 || typeof entry[0] !== 'string' || typeof entry[1] !== 'string') {
        throw new SnapshotFormatError(`line ${firstLineNo + i + 1} is not a [collection, key, value] entry`);
      }
      (data[entry[0]] ??= {})[entry[1]] = entry[2];
    }
    return entries.length;
  }

  private async readFirstFormat(): Promise<Data> {
    return JSON.parse(await readFile(this.path, 'utf8')) as Data;
  }

  async write(data: Data): Promise<void> {
    await this.writeEntries(
      (function* () {
        for (const [name, collection] of Object.entries(data)) for (const key in collection) yield [name, key, collection[key]] as [string, string, unknown];
      })(),
    );
  }

  /** Writes the snapshot from its entries (`[collection, key, value]`), read one at a time. */
  async writeEntries(entries: Iterable<[string, string, unknown]>): Promise<void> {
    const dir = dirname(this.path);
    const temp = join(dir, `.${basename(this.path)}.tmp`);
    const fh = await open(temp, 'w', 0o600);
    const hash = createHash('sha256');
    let position = 0;
    // write() may store only part of what it is given (a disk filling up answers with a short
    // count, not an error): write the rest until done, so the disk's refusal throws instead of
    // a cut-off snapshot being renamed into place.
    const writeAll = async (text: string) => {
      const buf = Buffer.from(text);
      hash.update(buf);
      for (let done = 0; done < buf.length; ) {
        const { bytesWritten } = await fh.write(buf, done, buf.length - done, position + done);
        if (bytesWritten <= 0) throw Object.assign(new Error('the disk accepted no bytes'), { code: 'ENOSPC' });
        done += bytesWritten;
      }
      position += buf.length;
    };
    const checksumTemp = join(dir, `.${basename(this.checksumPath)}.tmp`);
    try {
      let pending = HEADER + '\n';
      let count = 0;
      for (const entry of entries) {
        pending += JSON.stringify(entry) + '\n';
        // Flushed by size as well as by count: a few large entries must not add up to one
        // string past V8's limit.
        if (pending.length >= WRITE_BYTES) {
          await writeAll(pending);
          pending = '';
        }
        if (++count % ENTRIES_PER_SLICE === 0) await new Promise((resolve) => setImmediate(resolve));
      }
      await writeAll(pending);
      await fh.datasync();
      await writeFile(checksumTemp, hash.digest('hex') + '\n', { mode: 0o600 });
    } catch (e) {
      await fh.close().catch(() => {});
      await rm(temp, { force: true });
      await rm(checksumTemp, { force: true });
      throw e;
    }
    await fh.close();
    // A crash between the two renames leaves a checksum that does not match: the next start
    // then checks every record instead of trusting the file, which is slower but as safe.
    await rename(temp, this.path);
    await rename(checksumTemp, this.checksumPath);
  }
}
