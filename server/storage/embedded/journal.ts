import { chmod, open, stat, truncate, type FileHandle } from 'node:fs/promises';
import { rename, rm } from 'node:fs/promises';
import { Low } from 'lowdb';
import { readLineBlocks } from './line-reader.js';
import { SnapshotFile } from './snapshot-file.js';
import { CorruptDataError, StorageUnavailableError } from '../store.js';

/**
 * lowdb keeps the whole database in memory and writes it as one JSON snapshot. Rewriting the
 * snapshot on every change costs O(size) per write, so changes go to an append-only journal
 * instead (one JSON line per change, group-committed with fdatasync before any caller is
 * answered) and the snapshot is rewritten only when the journal has grown past it. A line puts,
 * deletes or merges a record (a merge names only the fields that changed: see record-change.ts),
 * or appends to a list.
 *
 * Crash safety: a change is applied in memory only after its journal line is on disk; a torn
 * last line (a write cut short by a crash) was never acknowledged and is dropped on open; the
 * snapshot is replaced atomically (temp file, fsync, rename) and records the sequence number
 * of the last change it holds, so journal lines it already contains are skipped on replay
 * whatever point a crash interrupted a compaction at; a rotated journal left by a compaction
 * cut short is replayed before the current one.
 *
 * Compaction runs beside the writes: the journal is rotated, a view of the data as it stands
 * then is kept (key lists, and the old value of whatever changes meanwhile: records are
 * replaced, never changed in place), the snapshot is streamed out from it (snapshot-file.ts),
 * and only then is the rotated journal deleted.
 */

export type Collection = Record<string, unknown>;
export type Data = Record<string, Collection>;

export type Change =
  | { c: string; k: string; v: unknown } // put (v !== null) or delete (v === null)
  | { c: string; k: string; m: Record<string, unknown> } // merge: these top-level fields of the record at k replaced
  | { c: string; k: string; a: unknown; max: number }; // append to the array at k, up to max items

type JournalLine = Change & { n: number };

const SNAPSHOT = 'db.json';
const JOURNAL = 'journal.jsonl';
/** The journal being folded into a snapshot; deleted once the snapshot is in place. */
const ROTATED_JOURNAL = 'journal.rotated.jsonl';
const META = '_meta';
/** A key that did not exist at the rotation (see rotationView). */
const ABSENT = Symbol('absent');
const COMPACTION_RETRY_MS = 30_000;
/** Compactions asked for to purge expired secrets run at most this often. */
const REQUESTED_COMPACTION_INTERVAL_MS = 60_000;
const FILE_MODE = 0o600;
/** Batches whose fdatasync may run at once (see writeBatch). */
const MAX_BATCHES_IN_FLIGHT = 4;

export interface JournalOptions {
  /** Rewrite the snapshot when the journal exceeds this many bytes and the snapshot's size. */
  compactAfterBytes?: number;
  /** Minimum time between compactions asked for with requestCompaction (default 60 s). */
  requestedCompactionIntervalMs?: number;
  /** Validates the snapshot after it is read; throws to refuse it. */
  validate?: (data: Data) => void;
  /**
   * Told when a compaction fails (it is retried later; the journals stay valid meanwhile). Erased
   * secrets stay on disk until one succeeds, so this must not go unnoticed.
   */
  onCompactionError?: (error: unknown) => void;
}

interface Pending {
  changes: Change[];
  resolve: () => void;
  reject: (e: unknown) => void;
}

export class Journal {
  private readonly low: Low<Data>;
  private handle!: FileHandle;
  private size = 0;
  private seq = 0;
  private snapshotBytes = 0;
  private queue: Pending[] = [];
  private flushing: Promise<void> = Promise.resolve();
  /** Settles when the last batch written is durable (applied, answered) or refused. */
  private tail: Promise<void> = Promise.resolve();
  /** Batches written whose fdatasync has not settled yet. */
  private inFlight = 0;
  /** Where the journal stood before the first batch whose flush failed, until it is cut back there. */
  private failedFrom: { size: number; seq: number } | null = null;
  private running = false;
  /** False between closing the journal for a rotation and reopening it (or after that failed). */
  private handleOpen = true;
  private compactionWanted = false;
  private compactionFailedAt = 0;
  private lastCompactionAt = 0;
  private compacting: Promise<void> | null = null;
  /**
   * While a snapshot is being written: per collection, the value each key had at the rotation
   * (ABSENT: none), saved when the key first changed after it (see rotationView).
   */
  private frozen: Map<string, Map<string, unknown>> | null = null;
  private deferredCompaction: NodeJS.Timeout | null = null;
  private closed = false;
  /** close() runs its own compactions: the flush loop must not start one beside them. */
  private closing = false;
  /** Between the start of a compaction and its snapshot write taking over (rotation, view). */
  private rotating = false;
  /**
   * A compaction that folded in a leftover rotated journal could not rotate the current one:
   * its lines (erased secrets among them) are in the snapshot but still on disk. Compact again.
   */
  private currentJournalStale = false;
  /** Bytes of a failed write may remain past `size` (its cut-back failed too). */
  private tailDirty = false;
  /** Why the last write failed (an errno code), until a write succeeds again. */
  private lastWriteFailure: string | null = null;

  private constructor(
    private readonly dir: string,
    empty: Data,
    private readonly options: JournalOptions,
  ) {
    this.low = new Low<Data>(new SnapshotFile(`${dir}/${SNAPSHOT}`), structuredClone(empty));
  }

  static async open(dir: string, empty: Data, options: JournalOptions = {}): Promise<Journal> {
    const j = new Journal(dir, empty, options);
    await j.load(empty);
    return j;
  }

  get data(): Data {
    return this.low.data;
  }

  private async load(empty: Data) {
    const path = `${this.dir}/${SNAPSHOT}`;
    try {
      await this.low.read();
    } catch (e) {
      throw new CorruptDataError(`${path} is not valid JSON (${(e as Error).message}). It was left untouched; restore it from a backup or move it away.`);
    }
    const data = this.low.data;
    if (!data || typeof data !== 'object' || Array.isArray(data)) {
      throw new CorruptDataError(`${path} does not hold Secret Push data. It was left untouched.`);
    }
    for (const key of Object.keys(empty)) data[key] ??= {};
    data[META] ??= { seq: 0 };
    try {
      // A snapshot exactly as this server wrote it (its checksum matches) was valid when written;
      // anything else (edited by hand, damaged, or from an older version) is checked record by record.
      if (!(this.low.adapter as SnapshotFile).verified) this.options.validate?.(data);
    } catch (e) {
      throw new CorruptDataError(`${path} does not hold valid Secret Push data: ${(e as Error).message}. It was left untouched.`);
    }
    this.seq = Number((data[META] as { seq?: number }).seq ?? 0);
    this.snapshotBytes = await stat(path).then((s) => s.size, () => 0);
    // Both files name every push's URL token (a capability to its secret): owner-only, also for
    // files made before this rule, whatever the umask and the data dir's own mode.
    if (this.snapshotBytes > 0) await chmod(path, FILE_MODE).catch(() => {});
    // A compaction cut short (a crash, or a failed snapshot write) leaves the rotated journal:
    // its changes are older than the current journal's and not yet in the snapshot.
    await this.replay(`${this.dir}/${ROTATED_JOURNAL}`);
    await this.replay(`${this.dir}/${JOURNAL}`);
    this.handle = await open(`${this.dir}/${JOURNAL}`, 'a+', FILE_MODE);
    await this.handle.chmod(FILE_MODE).catch(() => {});
    this.size = (await this.handle.stat()).size;
  }

  private async replay(path: string) {
    const blocks = readLineBlocks(path);
    let i = 0;
    try {
      for (;;) {
        const next = await blocks.next();
        if (next.done) {
          // A torn final line: written by a crash mid-append, never acknowledged. Drop it.
          if (next.value.tornAt !== undefined) await truncate(path, next.value.tornAt);
          return;
        }
        for (const line of next.value.text.split('\n')) {
          i++;
          let entry: JournalLine;
          try {
            entry = JSON.parse(line);
          } catch {
            throw new CorruptDataError(`${path} line ${i} is not valid JSON. The file was left untouched; repair or remove that line.`);
          }
          if (!entry || typeof entry.c !== 'string' || typeof entry.k !== 'string' || !Number.isSafeInteger(entry.n)) {
            throw new CorruptDataError(`${path} line ${i} is not a journal entry. The file was left untouched.`);
          }
          if (entry.n <= this.seq) continue; // already in the snapshot
          if ('m' in entry && !isRecord(this.low.data[entry.c]?.[entry.k])) {
            throw new CorruptDataError(`${path} line ${i} changes a record that does not exist. The file was left untouched.`);
          }
          this.apply(entry);
          this.seq = entry.n;
        }
      }
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw e;
    }
  }

  private apply(change: Change) {
    const col = (this.low.data[change.c] ??= {});
    if (this.frozen) this.saveForSnapshot(this.frozen, change.c, change.k, col, 'a' in change);
    if ('a' in change) {
      const list = (col[change.k] ??= []) as unknown[];
      if (list.length < change.max) list.push(change.a);
    } else if ('m' in change) {
      // A new record, never an edit in place (the snapshot being written may hold the old one).
      const base = col[change.k];
      if (isRecord(base)) col[change.k] = Object.assign({ ...base }, change.m);
    } else if (change.v === null) delete col[change.k];
    else col[change.k] = change.v;
  }

  /** Keeps the value a change is about to replace, the first time a key changes after a rotation. */
  private saveForSnapshot(frozen: Map<string, Map<string, unknown>>, name: string, key: string, col: Collection, appends: boolean) {
    // A collection made after the rotation is not in the snapshot: nothing to keep for it.
    const saved = frozen.get(name);
    if (!saved || saved.has(key)) return;
    if (!Object.hasOwn(col, key)) saved.set(key, ABSENT);
    else {
      // Records are replaced, never edited in place: keeping the reference is enough. Lists
      // grow in place: keep them as they were.
      const value = col[key];
      saved.set(key, appends && Array.isArray(value) ? value.slice() : value);
    }
  }

  /** Persists the changes durably, then applies them to `data`. Rejects with StorageUnavailableError. */
  commit(changes: Change[]): Promise<void> {
    if (this.closed) return Promise.reject(new StorageUnavailableError('the store is closed'));
    return new Promise((resolve, reject) => {
      this.queue.push({ changes, resolve, reject });
      this.kick();
    });
  }

  /** Asks for a snapshot soon (after expiry, so purged secrets leave the journal too). */
  requestCompaction() {
    this.compactionWanted = true;
    this.kick();
    // Asked for too soon after the last one: come back when the interval has passed.
    const interval = this.options.requestedCompactionIntervalMs ?? REQUESTED_COMPACTION_INTERVAL_MS;
    const wait = this.lastCompactionAt + interval - Date.now();
    if (wait > 0 && !this.deferredCompaction && !this.closed) {
      this.deferredCompaction = setTimeout(() => {
        this.deferredCompaction = null;
        if (this.compactionWanted) this.kick();
      }, wait + 10);
      this.deferredCompaction.unref();
    }
  }

  /**
   * Starts the flush loop unless it runs. `running` is cleared in the same synchronous step
   * that sees an empty queue, so a change committed at any moment is never left waiting.
   */
  private kick() {
    if (this.running) return;
    this.running = true;
    this.flushing = this.flush().catch(() => {
      // writeBatch and beginCompaction handle their own failures; never leave the loop stuck.
      this.running = false;
    });
  }

  private async flush() {
    for (;;) {
      // Checked between batches too: under steady load the queue is never empty. A rotation
      // needs every batch in flight settled (the view must hold exactly the rotated changes).
      if (this.shouldCompact()) {
        await this.settled();
        await this.beginCompaction();
      }
      if (this.queue.length === 0) {
        this.running = false;
        return;
      }
      if (this.inFlight >= MAX_BATCHES_IN_FLIGHT || this.failedFrom) {
        await this.settled();
        continue;
      }
      await this.writeBatch(this.queue.splice(0));
    }
  }

  /** Resolves once every batch written so far is durable or refused, and a failure is cleaned up. */
  private async settled() {
    await this.tail;
    const failed = this.failedFrom;
    if (!failed) return;
    // Cut back everything from the first refused batch on (later ones were refused with it),
    // so the journal ends with the last acknowledged change.
    await this.handle.truncate(failed.size).catch(() => {
      this.tailDirty = true;
    });
    this.size = failed.size;
    this.seq = failed.seq;
    this.failedFrom = null;
  }

  private shouldCompact(): boolean {
    if (this.compacting || this.rotating || this.closing || this.closed || Date.now() - this.compactionFailedAt < COMPACTION_RETRY_MS) return false;
    if (this.journalTooBig() || (this.currentJournalStale && this.size > 0)) return true;
    const interval = this.options.requestedCompactionIntervalMs ?? REQUESTED_COMPACTION_INTERVAL_MS;
    return this.compactionWanted && Date.now() - this.lastCompactionAt >= interval;
  }

  /**
   * Rotates the journal and takes a copy-on-write view of memory, between two batches (so the
   * view holds exactly the rotated journal's changes); the snapshot is then written beside the
   * next batches, and the rotated journal deleted once the snapshot is in place. A rotated
   * journal left by a failed compaction is kept, and the current one not rotated, until a
   * snapshot holding both is in place.
   */
  private async beginCompaction() {
    if (this.rotating) return;
    this.rotating = true;
    try {
      await this.rotateAndSnapshot();
    } finally {
      this.rotating = false;
    }
  }

  private async rotateAndSnapshot() {
    this.compactionWanted = false;
    const rotatedPath = `${this.dir}/${ROTATED_JOURNAL}`;
    let view: Iterable<[string, string, unknown]>;
    let leftover = false;
    try {
      leftover = await stat(rotatedPath).then(() => true, () => false);
      if (!leftover && this.size > 0) {
        this.handleOpen = false;
        await this.handle.close();
        try {
          await rename(`${this.dir}/${JOURNAL}`, rotatedPath);
          this.size = 0;
        } finally {
          await this.reopenJournal();
        }
      }
      view = this.rotationView();
    } catch (e) {
      this.compactionFailedAt = Date.now();
      this.options.onCompactionError?.(e);
      return;
    }
    this.compacting = (async () => {
      await (this.low.adapter as SnapshotFile).writeEntries(view);
      this.snapshotBytes = (await stat(`${this.dir}/${SNAPSHOT}`)).size;
      await rm(rotatedPath, { force: true });
      this.lastCompactionAt = Date.now();
      this.currentJournalStale = leftover;
    })()
      .catch((e) => {
        // The journals stay valid when it fails; it is retried after COMPACTION_RETRY_MS.
        this.compactionFailedAt = Date.now();
        this.options.onCompactionError?.(e);
      })
      .finally(() => {
        this.compacting = null;
        this.frozen = null;
        // Writes that came in meanwhile may already call for the next one.
        if (this.shouldCompact()) this.kick();
      });
  }

  /**
   * The data as it stands at a rotation, for the snapshot written beside the next batches,
   * without copying it: only the key lists are taken now (a copy of every collection stalled
   * all requests for 150–380 ms at 100,000 pushes). A change made meanwhile first saves the value
   * it replaces (see apply), and the snapshot takes that saved value instead of the live one.
   */
  private rotationView(): Iterable<[string, string, unknown]> {
    const frozen = new Map<string, Map<string, unknown>>();
    this.frozen = frozen;
    // Each collection's map of saved values exists from the start: the writer holds on to it
    // while changes keep adding to it.
    const collections = Object.entries(this.low.data)
      .filter(([name]) => name !== META)
      .map(([name, collection]) => {
        const saved = new Map<string, unknown>();
        frozen.set(name, saved);
        return { collection, saved, keys: Object.keys(collection), name };
      });
    const seq = this.seq;
    return (function* () {
      for (const { name, collection, saved, keys } of collections) {
        for (const key of keys) {
          if (saved.has(key)) {
            const value = saved.get(key);
            if (value !== ABSENT) yield [name, key, value] as [string, string, unknown];
          } else if (Object.hasOwn(collection, key)) yield [name, key, collection[key]] as [string, string, unknown];
        }
      }
      yield [META, 'seq', seq];
    })();
  }

  /** (Re)opens the current journal; after a failed reopen, the next batch tries again. */
  private async reopenJournal() {
    this.handle = await open(`${this.dir}/${JOURNAL}`, 'a+', FILE_MODE);
    this.size = (await this.handle.stat()).size;
    this.handleOpen = true;
  }

  /**
   * Writes a batch and starts its fdatasync without waiting for it: the next batch can be
   * written and synced meanwhile (up to MAX_BATCHES_IN_FLIGHT), because a device completes
   * concurrent flushes faster than the same flushes one after another (857 → 2,500–6,500 per
   * second with 2–4 at once on this project's test machine). Acknowledgements stay in order: a
   * batch is applied and answered only after every earlier one was, and if any flush fails,
   * it and every batch after it are refused and cut back (an fsync error may be reported to
   * one caller only, so a later success proves nothing about the earlier bytes).
   */
  private async writeBatch(batch: Pending[]) {
    const before = { size: this.size, seq: this.seq };
    let n = this.seq;
    const buf = Buffer.from(journalLines(batch, n));
    for (const p of batch) n += p.changes.length;
    try {
      if (!this.handleOpen) await this.reopenJournal();
      // A failed write whose cut-back failed too left bytes past the end: cut them first.
      if (this.tailDirty) {
        await this.handle.truncate(this.size);
        this.tailDirty = false;
      }
      // write() may store only part of the buffer (a disk filling up answers with a short
      // count, not an error): write the rest until done; the disk's refusal then throws.
      // Through the thread pool, not writeSync: appending to a page the previous batch's flush
      // is still writing out can block until that flush ends, which would stall every request.
      for (let done = 0; done < buf.length; ) {
        const bytesWritten = await this.writeAt(buf, done, buf.length - done, this.size + done);
        if (bytesWritten <= 0) throw Object.assign(new Error('the disk accepted no bytes'), { code: 'ENOSPC' });
        done += bytesWritten;
      }
    } catch (e) {
      // Cut back whatever part of the batch reached the disk, so the journal stays whole
      // (only this batch's bytes: earlier batches still syncing end before them).
      await this.handle.truncate(this.size).catch(() => {
        this.tailDirty = true;
      });
      this.refuse(batch, e);
      return;
    }
    this.size += buf.length;
    this.seq = n;
    this.inFlight++;
    const synced = this.handle.datasync().then(
      () => undefined,
      (e: unknown) => e ?? new Error('fdatasync failed'),
    );
    const previous = this.tail;
    this.tail = (async () => {
      const failure = await synced;
      await previous;
      this.inFlight--;
      if (failure || this.failedFrom) {
        this.failedFrom ??= before;
        this.refuse(batch, failure ?? new Error('an earlier batch could not be written'));
        return;
      }
      this.lastWriteFailure = null;
      for (const p of batch) for (const c of p.changes) this.apply(c);
      for (const p of batch) p.resolve();
    })();
  }

  private refuse(batch: Pending[], e: unknown) {
    const code = (e as NodeJS.ErrnoException).code ?? (e as Error).message;
    this.lastWriteFailure = code;
    const err = new StorageUnavailableError(`could not write to the data directory (${code})`);
    for (const p of batch) p.reject(err);
  }

  /** One write() of the journal's bytes at `position`; resolves with how many the disk took. */
  private async writeAt(buf: Buffer, offset: number, length: number, position: number): Promise<number> {
    return (await this.handle.write(buf, offset, length, position)).bytesWritten;
  }

  /** 'closed', the errno code of the last write if it failed, or null when writes go through. */
  writeProblem(): string | null {
    return this.closed ? 'closed' : this.lastWriteFailure;
  }

  private journalTooBig() {
    const limit = this.options.compactAfterBytes ?? 8 * 1024 * 1024;
    return this.size > Math.max(limit, this.snapshotBytes);
  }

  /** Finishes pending writes, leaves a compact snapshot (so the next start replays little), and releases the file. */
  async close() {
    if (this.closed) return;
    this.closing = true;
    while (this.running || this.compacting) await (this.running ? this.flushing : this.compacting);
    await this.settled();
    if (this.deferredCompaction) clearTimeout(this.deferredCompaction);
    // Twice at most: a rotated journal left by an earlier failure is folded in first, and the
    // current journal only rotated by the second (unless the first failed).
    for (let round = 0; round < 2 && this.size > 0; round++) {
      const failedBefore = this.compactionFailedAt;
      await this.beginCompaction();
      await this.compacting;
      if (this.compactionFailedAt !== failedBefore || !this.currentJournalStale) break;
    }
    this.closed = true;
    if (this.handleOpen) await this.handle.close();
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The batch's journal lines, numbered from after `seq`: `{"n":…,` and then the change's own
 * JSON without its opening brace, the same bytes as `JSON.stringify({ n, ...change })`
 * (`n` first, then the change's keys in order) without copying each change into a new object
 * and each line into an array first (a create's journal lines were ~4 KB of garbage).
 */
function journalLines(batch: Pending[], seq: number): string {
  let text = '';
  for (const p of batch) {
    for (const c of p.changes) text += `{"n":${++seq},${JSON.stringify(c).slice(1)}\n`;
  }
  return text;
}
