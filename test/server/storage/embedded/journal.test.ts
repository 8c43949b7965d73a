import { appendFileSync, cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Journal } from '../../../../server/storage/embedded/journal.js';
import { CorruptDataError, StorageUnavailableError } from '../../../../server/storage/store.js';
import { readSnapshot } from '../../../support/snapshot.js';
import { tempDirs } from '../../../support/temp-dirs.js';

const empty = () => ({ items: {}, lists: {} });
const freshDir = tempDirs('journal');

/**
 * Takes over the journal's fdatasync: the first flush is held until `endFirst()` (then succeeds
 * or fails with EIO), the second is real and announced by `secondDone`, later ones are real.
 */
function holdFirstFlush(j: Journal, first: 'succeed' | 'fail') {
  const handle = (j as unknown as { handle: { datasync: () => Promise<void> } }).handle;
  const realSync = handle.datasync.bind(handle);
  let endFirst!: () => void;
  const firstEnds = new Promise<void>((r) => (endFirst = r));
  let secondSynced!: () => void;
  const secondDone = new Promise<void>((r) => (secondSynced = r));
  let calls = 0;
  handle.datasync = async () => {
    const call = ++calls;
    if (call === 1) {
      await firstEnds;
      if (first === 'fail') throw Object.assign(new Error('input/output error'), { code: 'EIO' });
    }
    await realSync();
    if (call === 2) secondSynced();
  };
  return { endFirst, secondDone, restore: () => (handle.datasync = realSync) };
}

describe('Journal (lowdb snapshot + append-only journal)', () => {
  it('replays puts, deletes and appends after a reopen', async () => {
    const dir = freshDir();
    const j = await Journal.open(dir, empty());
    await j.commit([{ c: 'items', k: 'a', v: { n: 1 } }, { c: 'items', k: 'b', v: { n: 2 } }]);
    await j.commit([{ c: 'items', k: 'a', v: null }, { c: 'lists', k: 'a', a: 'x', max: 10 }]);
    await j.commit([{ c: 'lists', k: 'a', a: 'y', max: 10 }]);
    await j.close();
    const again = await Journal.open(dir, empty());
    expect(again.data.items).toEqual({ b: { n: 2 } });
    expect(again.data.lists).toEqual({ a: ['x', 'y'] });
    await again.close();
  });

  it('replays merges from the journal (as a crash leaves it): the fields named replaced, the rest of the record kept', async () => {
    const dir = freshDir();
    const j = await Journal.open(dir, empty());
    await j.commit([{ c: 'items', k: 'a', v: { secret: 'sealed', views: 0, seen: null } }]);
    await j.commit([{ c: 'items', k: 'a', m: { views: 1, seen: 'then' } }]);
    await j.commit([{ c: 'items', k: 'a', m: { views: 2 } }]);
    expect(j.data.items).toEqual({ a: { secret: 'sealed', views: 2, seen: 'then' } });
    const lines = readFileSync(join(dir, 'journal.jsonl'), 'utf8').trim().split('\n');
    // The record's other fields are written once, not again with each change.
    expect(lines.filter((l) => l.includes('sealed'))).toHaveLength(1);
    const crashed = freshDir();
    cpSync(dir, crashed, { recursive: true });
    await j.close();
    const again = await Journal.open(crashed, empty());
    expect(again.data.items).toEqual({ a: { secret: 'sealed', views: 2, seen: 'then' } });
    await again.close();
  });

  it('refuses a merge of a record that does not exist and leaves the file as it was', async () => {
    const dir = freshDir();
    const text = '{"n":1,"c":"items","k":"a","v":{"x":1}}\n{"n":2,"c":"items","k":"b","m":{"x":2}}\n';
    writeFileSync(join(dir, 'journal.jsonl'), text);
    await expect(Journal.open(dir, empty())).rejects.toThrow(/line 2 changes a record that does not exist/);
    expect(readFileSync(join(dir, 'journal.jsonl'), 'utf8')).toBe(text);
  });

  it('drops a torn last line (a crash mid-append) and keeps everything before it', async () => {
    const dir = freshDir();
    const j = await Journal.open(dir, empty());
    await j.commit([{ c: 'items', k: 'kept', v: 1 }]);
    await j.close();
    appendFileSync(join(dir, 'journal.jsonl'), '{"n":2,"c":"items","k":"torn","v":');
    const again = await Journal.open(dir, empty());
    expect(again.data.items).toEqual({ kept: 1 });
    expect(readFileSync(join(dir, 'journal.jsonl'), 'utf8')).not.toContain('torn');
    await again.commit([{ c: 'items', k: 'after', v: 3 }]);
    await again.close();
    const third = await Journal.open(dir, empty());
    expect(third.data.items).toEqual({ kept: 1, after: 3 });
    await third.close();
  });

  it('refuses a corrupt line in the middle and leaves the file as it was', async () => {
    const dir = freshDir();
    const text = '{"n":1,"c":"items","k":"a","v":1}\nnot json\n{"n":3,"c":"items","k":"b","v":2}\n';
    writeFileSync(join(dir, 'journal.jsonl'), text);
    await expect(Journal.open(dir, empty())).rejects.toThrow(CorruptDataError);
    await expect(Journal.open(dir, empty())).rejects.toThrow(/line 2/);
    expect(readFileSync(join(dir, 'journal.jsonl'), 'utf8')).toBe(text);
  });

  it('compacts into the snapshot and never applies an append twice, whatever the crash point', async () => {
    const dir = freshDir();
    const j = await Journal.open(dir, empty(), { compactAfterBytes: 1 });
    for (let i = 0; i < 5; i++) await j.commit([{ c: 'lists', k: 'log', a: i, max: 100 }]);
    j.requestCompaction();
    await j.close();
    const snapshot = await readSnapshot(join(dir, 'db.json'));
    expect(snapshot.lists.log).toEqual([0, 1, 2, 3, 4]);
    // Simulate a crash after the snapshot was written but before the journal was emptied:
    // lines the snapshot already holds must be skipped on replay.
    const lines = [0, 1, 2, 3, 4].map((i) => JSON.stringify({ n: i + 1, c: 'lists', k: 'log', a: i, max: 100 })).join('\n') + '\n';
    writeFileSync(join(dir, 'journal.jsonl'), lines + JSON.stringify({ n: 6, c: 'lists', k: 'log', a: 5, max: 100 }) + '\n');
    const again = await Journal.open(dir, empty());
    expect(again.data.lists.log).toEqual([0, 1, 2, 3, 4, 5]);
    await again.close();
  });

  it('keeps at most `max` entries in an appended list', async () => {
    const j = await Journal.open(freshDir(), empty());
    for (let i = 0; i < 5; i++) await j.commit([{ c: 'lists', k: 'l', a: i, max: 3 }]);
    expect(j.data.lists.l).toEqual([0, 1, 2]);
    await j.close();
  });

  it('a failed write rejects with StorageUnavailableError, changes nothing in memory, and later writes work', async () => {
    const dir = freshDir();
    const j = await Journal.open(dir, empty());
    await j.commit([{ c: 'items', k: 'before', v: 1 }]);
    // The journal's one write() call, as the disk would answer it.
    const handle = j as unknown as { writeAt: (...a: unknown[]) => number | Promise<number> };
    const realWrite = handle.writeAt.bind(j);
    handle.writeAt = () => {
      throw Object.assign(new Error('no space left on device'), { code: 'ENOSPC' });
    };
    await expect(j.commit([{ c: 'items', k: 'lost', v: 2 }])).rejects.toThrow(StorageUnavailableError);
    expect(j.data.items).toEqual({ before: 1 });
    handle.writeAt = realWrite;
    await j.commit([{ c: 'items', k: 'after', v: 3 }]);
    await j.close();
    const reopened = await Journal.open(dir, empty());
    expect(reopened.data.items).toEqual({ before: 1, after: 3 });
    await reopened.close();
  });

  it('batches flush side by side but are answered in order: a later batch waits for an earlier flush', async () => {
    const dir = freshDir();
    const j = await Journal.open(dir, empty());
    const flushes = holdFirstFlush(j, 'succeed');
    let secondAnswered = false;
    const first = j.commit([{ c: 'items', k: 'a', v: 1 }]);
    const second = j.commit([{ c: 'items', k: 'b', v: 2 }]).then(() => (secondAnswered = true));
    await flushes.secondDone;
    // The second batch is on disk, but the first is not known to be: neither is answered yet.
    await new Promise((r) => setImmediate(r));
    expect(secondAnswered).toBe(false);
    expect(j.data.items).toEqual({});
    flushes.endFirst();
    await Promise.all([first, second]);
    expect(j.data.items).toEqual({ a: 1, b: 2 });
    flushes.restore();
    await j.close();
  });

  it('a failed flush refuses its batch and every batch written after it, and the journal is cut back to the last answered change', async () => {
    const dir = freshDir();
    const j = await Journal.open(dir, empty());
    await j.commit([{ c: 'items', k: 'kept', v: 1 }]);
    const flushes = holdFirstFlush(j, 'fail');
    const first = j.commit([{ c: 'items', k: 'lost1', v: 2 }]);
    const second = j.commit([{ c: 'items', k: 'lost2', v: 3 }]);
    await flushes.secondDone; // the second batch's own flush succeeded…
    flushes.endFirst(); // …but the first one's failed: both are refused
    await expect(first).rejects.toThrow(StorageUnavailableError);
    await expect(second).rejects.toThrow(/EIO|earlier batch/);
    expect(j.data.items).toEqual({ kept: 1 });
    flushes.restore();
    await j.commit([{ c: 'items', k: 'after', v: 4 }]);
    const lines = readFileSync(join(dir, 'journal.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(lines.map((l) => l.k)).toEqual(['kept', 'after']);
    expect(lines.map((l) => l.n)).toEqual([1, 2]);
    await j.close();
    const reopened = await Journal.open(dir, empty());
    expect(reopened.data.items).toEqual({ kept: 1, after: 4 });
    await reopened.close();
  });

  it('replays a rotated journal left by a compaction cut short (a crash before the snapshot was in place)', async () => {
    const dir = freshDir();
    writeFileSync(join(dir, 'db.json'), JSON.stringify({ items: { old: 0 }, lists: {}, _meta: { seq: 1 } }));
    // Lines 2..3 were rotated out; 4 came after the rotation; 1 is already in the snapshot.
    writeFileSync(join(dir, 'journal.rotated.jsonl'), ['{"n":1,"c":"items","k":"old","v":0}', '{"n":2,"c":"items","k":"a","v":1}', '{"n":3,"c":"lists","k":"l","a":"x","max":9}'].join('\n') + '\n');
    writeFileSync(join(dir, 'journal.jsonl'), '{"n":4,"c":"lists","k":"l","a":"y","max":9}\n');
    const j = await Journal.open(dir, empty());
    expect(j.data.items).toEqual({ old: 0, a: 1 });
    expect(j.data.lists).toEqual({ l: ['x', 'y'] });
    await j.commit([{ c: 'items', k: 'b', v: 2 }]);
    await j.close();
    expect(existsSync(join(dir, 'journal.rotated.jsonl'))).toBe(false);
    const again = await Journal.open(dir, empty());
    expect(again.data.items).toEqual({ old: 0, a: 1, b: 2 });
    expect(again.data.lists).toEqual({ l: ['x', 'y'] });
    await again.close();
  });

  it('a short write (a disk filling up) is finished or refused whole: no hole, no half line, and the answer is honest', async () => {
    const dir = freshDir();
    const j = await Journal.open(dir, empty());
    await j.commit([{ c: 'items', k: 'before', v: 1 }]);
    const handle = j as unknown as { writeAt: (buf: Buffer, offset: number, length: number, position: number) => number | Promise<number> };
    const realWrite = handle.writeAt.bind(j);
    // The disk takes 10 bytes of the next write, then refuses.
    let calls = 0;
    handle.writeAt = (buf: Buffer, offset: number, _length: number, position: number) => {
      if (++calls === 1) return realWrite(buf, offset, 10, position);
      throw Object.assign(new Error('no space left on device'), { code: 'ENOSPC' });
    };
    await expect(j.commit([{ c: 'items', k: 'refused', v: 2 }])).rejects.toThrow(StorageUnavailableError);
    // It takes part of a write, then the rest (a short count is not a failure).
    calls = 0;
    handle.writeAt = (buf: Buffer, offset: number, length: number, position: number) => realWrite(buf, offset, ++calls === 1 ? 7 : length, position);
    await j.commit([{ c: 'items', k: 'split', v: 3 }]);
    handle.writeAt = realWrite;
    await j.commit([{ c: 'items', k: 'after', v: 4 }]);
    const text = readFileSync(join(dir, 'journal.jsonl'), 'utf8');
    expect(text.includes('\0')).toBe(false);
    expect(text.trim().split('\n').map((l) => JSON.parse(l).k)).toEqual(['before', 'split', 'after']);
    await j.close();
    const reopened = await Journal.open(dir, empty());
    expect(reopened.data.items).toEqual({ before: 1, split: 3, after: 4 });
    await reopened.close();
  });

  it('after folding in a leftover rotated journal, the current journal is compacted too (no erased value stays on disk)', async () => {
    const dir = freshDir();
    writeFileSync(join(dir, 'journal.rotated.jsonl'), '{"n":1,"c":"items","k":"a","v":"kept"}\n');
    // Written after the rotation, then erased: the ciphertext must not outlive a clean close.
    writeFileSync(join(dir, 'journal.jsonl'), '{"n":2,"c":"items","k":"b","v":"erased-secret"}\n{"n":3,"c":"items","k":"b","v":null}\n');
    const j = await Journal.open(dir, empty());
    expect(j.data.items).toEqual({ a: 'kept' });
    await j.close();
    for (const f of ['db.json', 'journal.jsonl']) expect(readFileSync(join(dir, f), 'utf8')).not.toContain('erased-secret');
    expect(existsSync(join(dir, 'journal.rotated.jsonl'))).toBe(false);
    const again = await Journal.open(dir, empty());
    expect(again.data.items).toEqual({ a: 'kept' });
    await again.close();
  });

  it('group-commits concurrent changes and keeps their order', async () => {
    const dir = freshDir();
    const j = await Journal.open(dir, empty());
    await Promise.all(Array.from({ length: 200 }, (_, i) => j.commit([{ c: 'lists', k: 'order', a: i, max: 1000 }])));
    expect(j.data.lists.order).toEqual(Array.from({ length: 200 }, (_, i) => i));
    const seqs = readFileSync(join(dir, 'journal.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l).n);
    expect(seqs).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
    await j.close();
  });

  it('leaves a compact snapshot on close, so the next start replays nothing', async () => {
    const dir = freshDir();
    const j = await Journal.open(dir, empty());
    for (let i = 0; i < 50; i++) await j.commit([{ c: 'items', k: `k${i}`, v: i }]);
    await j.close();
    expect(readFileSync(join(dir, 'journal.jsonl'), 'utf8')).toBe('');
    const again = await Journal.open(dir, empty());
    expect(Object.keys(again.data.items)).toHaveLength(50);
    await again.close();
  });

  it('the snapshot holds the data as it stood at the rotation, whatever changes while it is written', async () => {
    const dir = freshDir();
    const j = await Journal.open(dir, empty(), { requestedCompactionIntervalMs: 0 });
    const n = 3000; // several slices of the snapshot writer: changes land between them
    for (let i = 0; i < n; i += 500) {
      await j.commit(Array.from({ length: 500 }, (_, k) => ({ c: 'items', k: `k${i + k}`, v: { n: i + k } })));
    }
    await j.commit([{ c: 'lists', k: 'l', a: 'first', max: 100 }, { c: 'lists', k: 'gone', a: 'x', max: 100 }]);
    const atRotation = structuredClone({ items: j.data.items, lists: j.data.lists });
    const internals = j as unknown as { compacting: Promise<void> | null };
    j.requestCompaction();
    while (!internals.compacting) await new Promise((r) => setImmediate(r));
    // Meanwhile: replace, delete, add, delete and add again, append, delete a list, make a new one.
    await j.commit([{ c: 'items', k: 'k0', v: { n: -1 } }, { c: 'items', k: `k${n - 1}`, v: null }, { c: 'items', k: 'new', v: { n: 1 } }]);
    await j.commit([{ c: 'items', k: 'k5', v: null }]);
    await j.commit([{ c: 'items', k: 'k5', v: { n: 5.5 } }, { c: 'lists', k: 'l', a: 'second', max: 100 }, { c: 'lists', k: 'gone', v: null }, { c: 'lists', k: 'fresh', a: 'y', max: 100 }]);
    await internals.compacting;
    const snapshot = await readSnapshot(join(dir, 'db.json'));
    expect(snapshot.items).toEqual(atRotation.items);
    expect(snapshot.lists).toEqual(atRotation.lists);
    // The changes made meanwhile are in the journal, and a fresh start has them all.
    await j.close();
    const again = await Journal.open(dir, empty());
    expect(again.data.items.k0).toEqual({ n: -1 });
    expect(again.data.items[`k${n - 1}`]).toBeUndefined();
    expect(again.data.items.k5).toEqual({ n: 5.5 });
    expect(again.data.items.new).toEqual({ n: 1 });
    expect(Object.keys(again.data.items)).toHaveLength(n);
    expect(again.data.lists).toEqual({ l: ['first', 'second'], fresh: ['y'] });
    await again.close();
  });

  it('compacts under steady load (the queue never empties) and loses nothing written meanwhile', async () => {
    const dir = freshDir();
    const j = await Journal.open(dir, empty(), { compactAfterBytes: 4096 });
    const writers = Array.from({ length: 20 }, async (_, w) => {
      for (let i = 0; i < 150; i++) await j.commit([{ c: 'items', k: `w${w}-${i}`, v: i }, { c: 'lists', k: `w${w}`, a: i, max: 1000 }]);
    });
    await Promise.all(writers);
    // The snapshot was rewritten while the writers were busy: the journal is far below 3000 lines.
    expect(existsSync(join(dir, 'db.json'))).toBe(true);
    const journalLines = readFileSync(join(dir, 'journal.jsonl'), 'utf8').split('\n').length;
    expect(journalLines).toBeLessThan(3000);
    // Simulate a crash now (no close): a fresh open must see every change exactly once.
    const copy = freshDir();
    for (const f of ['db.json', 'journal.jsonl', 'journal.rotated.jsonl']) if (existsSync(join(dir, f))) writeFileSync(join(copy, f), readFileSync(join(dir, f)));
    const crashed = await Journal.open(copy, empty());
    expect(Object.keys(crashed.data.items)).toHaveLength(3000);
    for (let w = 0; w < 20; w++) expect(crashed.data.lists[`w${w}`]).toEqual(Array.from({ length: 150 }, (_, i) => i));
    await crashed.close();
    await j.close();
  });

  it('a journal that cannot be reopened after a rotation is retried by the next write, not left broken', async () => {
    const dir = freshDir();
    const j = await Journal.open(dir, empty(), { compactAfterBytes: 1 });
    const internals = j as unknown as { reopenJournal: () => Promise<void> };
    const real = internals.reopenJournal.bind(j);
    let failures = 0;
    internals.reopenJournal = async () => {
      failures++;
      throw Object.assign(new Error('no inodes left'), { code: 'ENOSPC' });
    };
    // This commit triggers a compaction whose reopen fails.
    await j.commit([{ c: 'items', k: 'a', v: 1 }]);
    await new Promise((r) => setTimeout(r, 20));
    expect(failures).toBeGreaterThan(0);
    internals.reopenJournal = real;
    await j.commit([{ c: 'items', k: 'b', v: 2 }]);
    await j.close();
    const again = await Journal.open(dir, empty());
    expect(again.data.items).toEqual({ a: 1, b: 2 });
    await again.close();
  });
});
