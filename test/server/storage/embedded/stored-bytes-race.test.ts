import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { expect, it } from 'vitest';
import { StorageQuota } from '../../../../server/security/storage-quota.js';
import { LowdbStore } from '../../../../server/storage/embedded/lowdb-store.js';
import { tempDirs } from '../../../support/temp-dirs.js';

/**
 * The storage cap's measurement (storedBytes) walks DATA_DIR while uploads write their blob
 * directories and deletes and give-ups remove them. A directory removed during the walk is
 * simply not counted. Issue 28: the walk (readdir recursive) threw ENOENT, and every create,
 * upload step or request answer waiting on the measurement answered 500 (10 in 20 s).
 *
 * No timing: the walks and the blob writes and removals run interleaved until a fixed number of
 * walks have completed, each overlapping directories that appear and vanish.
 */
const newDir = tempDirs('stored-bytes');
const WALKS = 150;
const BLOB = Buffer.alloc(4096, 7);

it('measures the store while blob directories appear and vanish, without failing', async () => {
  const dir = newDir();
  const store = await LowdbStore.open(dir);
  try {
    let walking = true;
    let churned = 0;
    // Writers: each makes a push's blob directory with files, then removes the whole directory.
    const churn = Array.from({ length: 4 }, async (_, w) => {
      for (let i = 0; walking; i++) {
        const token = `race${w}x${i}`;
        await Promise.all([0, 1, 2].map((f) => store.blobs.write(token, `f${f}`, Readable.from([BLOB]))));
        await store.blobs.removeAll(token);
        churned++;
      }
    });
    const failures: unknown[] = [];
    const sizes: number[] = [];
    try {
      for (let i = 0; i < WALKS; i++) {
        // Several walks at once, as concurrent creates measuring would.
        const results = await Promise.allSettled([store.storedBytes(), store.storedBytes(), store.storedBytes()]);
        for (const r of results) {
          if (r.status === 'rejected') failures.push(r.reason);
          else sizes.push(r.value);
        }
      }
    } finally {
      walking = false;
      await Promise.all(churn);
    }
    expect(failures.map((e) => String(e))).toEqual([]);
    expect(churned).toBeGreaterThan(0);
    // Once nothing moves, the walk counts every byte under the data dir.
    const files = readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
    expect(await store.storedBytes()).toBe(files.reduce((n, e) => n + statSync(join(e.parentPath, e.name)).size, 0));
    expect(Math.min(...sizes)).toBeGreaterThan(0);
  } finally {
    await store.close();
  }
});

it("the storage cap's reservations (what creates, upload starts and request answers wait on) hold while blobs come and go", async () => {
  const store = await LowdbStore.open(newDir());
  // A clock 6 s further on at every reading: each reservation measures the store anew.
  let clock = 0;
  const quota = new StorageQuota(store, store.counters, { maxStorageMb: 1024, accountMbPerDay: 0, anonymousMbPerIpPerDay: 0 }, () => (clock += 6_000));
  try {
    let running = true;
    const churn = (async () => {
      for (let i = 0; running; i++) {
        await store.blobs.write(`quota${i}`, 'f', Readable.from([BLOB]));
        await store.blobs.removeAll(`quota${i}`);
      }
    })();
    const refused: string[] = [];
    try {
      for (let i = 0; i < WALKS; i++) {
        const results = await Promise.allSettled([0, 1, 2].map(() => quota.reserve({ userId: null, ip: '127.0.0.1' }, 100)));
        for (const r of results) if (r.status === 'rejected') refused.push(String(r.reason));
      }
    } finally {
      running = false;
      await churn;
    }
    expect(refused).toEqual([]);
  } finally {
    await store.close();
  }
});
