import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Journal } from '../../../../server/storage/embedded/journal.js';
import { tempDirs } from '../../../support/temp-dirs.js';

/**
 * The embedded store has no wall: a store past V8's string limit (~512 MiB) compacts and
 * restarts (the snapshot and the journal are written and read a line at a time), and a snapshot
 * written by an earlier version still opens.
 */

const empty = () => ({ items: {}, lists: {} });
const freshDir = tempDirs('large');

/** Whether the file holds `needle`, read in pieces (the file may be too big for one string). */
async function fileHolds(path: string, needle: string): Promise<boolean> {
  if (!existsSync(path)) return false;
  const fh = await open(path, 'r');
  try {
    const n = Buffer.from(needle);
    const buf = Buffer.alloc(8 * 1024 * 1024 + n.length);
    for (let pos = 0, carry = 0; ; ) {
      const { bytesRead } = await fh.read(buf, carry, buf.length - carry, pos);
      if (bytesRead === 0) return false;
      if (buf.subarray(0, carry + bytesRead).includes(n)) return true;
      buf.copyWithin(0, carry + bytesRead - n.length, carry + bytesRead);
      pos += bytesRead;
      carry = n.length;
    }
  } finally {
    await fh.close();
  }
}

describe('a store larger than one JavaScript string', () => {
  it('compacts ~560 MB of large entries, drops erased ones from disk, and restarts from it', async () => {
    const dir = freshDir();
    const errors: unknown[] = [];
    const j = await Journal.open(dir, empty(), { onCompactionError: (e) => errors.push(e) });
    const big = (i: number) => `${String(i).padStart(4, '0')}:${'x'.repeat(6_200_000)}`;
    for (let i = 0; i < 90; i++) await j.commit([{ c: 'items', k: `k${i}`, v: big(i) }]);
    // Two of them are erased (a push expired): they must leave the journal and the snapshot.
    await j.commit([{ c: 'items', k: 'k3', v: null }]);
    await j.commit([{ c: 'items', k: 'k70', v: 'erased and replaced' }]);
    await j.close(); // compacts into the snapshot
    expect(errors).toEqual([]);
    const snapshot = join(dir, 'db.json');
    expect(statSync(snapshot).size).toBeGreaterThan(2 ** 29); // past V8's string limit (2^29 - 24 characters)
    for (const f of ['db.json', 'journal.jsonl', 'journal.rotated.jsonl']) {
      expect(await fileHolds(join(dir, f), `0003:xxxx`), `${f} still holds the erased entry`).toBe(false);
      expect(await fileHolds(join(dir, f), `0070:xxxx`), `${f} still holds the replaced entry`).toBe(false);
    }
    const again = await Journal.open(dir, empty());
    try {
      const items = again.data.items as Record<string, string>;
      expect(Object.keys(items)).toHaveLength(89);
      expect(items.k89!.length).toBe(big(89).length);
      expect(items.k89!.startsWith('0089:')).toBe(true);
      expect(items.k70).toBe('erased and replaced');
    } finally {
      await again.close();
    }
  }, 180_000);

  it('opens a snapshot in the first format (one JSON object) and rewrites it line by line at the next compaction', async () => {
    const dir = freshDir();
    writeFileSync(join(dir, 'db.json'), JSON.stringify({ items: { old: { n: 1 } }, lists: { l: ['a'] }, _meta: { seq: 4 } }));
    const j = await Journal.open(dir, empty(), { compactAfterBytes: 1 });
    expect(j.data.items).toEqual({ old: { n: 1 } });
    await j.commit([{ c: 'items', k: 'new', v: 2 }]);
    await j.close();
    const text = readFileSync(join(dir, 'db.json'), 'utf8');
    expect(text.split('\n')[0]).toBe('{"format":"secret-push-snapshot","version":2}');
    const again = await Journal.open(dir, empty());
    expect(again.data.items).toEqual({ old: { n: 1 }, new: 2 });
    expect(again.data.lists).toEqual({ l: ['a'] });
    await again.close();
  });
});
