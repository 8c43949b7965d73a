import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../../server/logger.js';
import { LowdbStore } from '../../../server/storage/embedded/lowdb-store.js';
import { PostgresStore } from '../../../server/storage/postgres/postgres-store.js';
import type { AuditRecord, StoredDelivery, StoredMail, StoredPush, StoredRequest, StoredWebhook, WebhookEvent } from '../../../server/storage/records.js';
import { StoreNotReady, type Store } from '../../../server/storage/store.js';
import { createTestDatabase } from '../../support/postgres-database.js';
import { iso, storedPush, T0 } from '../../support/stored-push.js';

/**
 * What every Store backend must do: the embedded lowdb store and PostgreSQL pass the same
 * suite. Where a backend is shared by several instances (PostgreSQL), the concurrency cases run
 * across two store objects on one database, as two server processes would.
 */

interface Backend {
  /** Opens the store (again, for the reopen case). */
  open(): Promise<Store>;
  /** A second, concurrently open handle on the same data, when the backend is shareable. */
  openPeer?(): Promise<Store>;
  cleanup(): Promise<void>;
}

const backends: [string, () => Promise<Backend>][] = [
  [
    'embedded (lowdb)',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'secret-push-contract-'));
      return { open: () => LowdbStore.open(dir), cleanup: async () => rmSync(dir, { recursive: true, force: true }) };
    },
  ],
  [
    'PostgreSQL',
    async () => {
      const db = await createTestDatabase();
      const open = () => PostgresStore.open({ url: db.url, poolSize: 5, logger: createLogger('silent') });
      return { open, openPeer: open, cleanup: () => db.drop() };
    },
  ],
];

const push = storedPush;

const audit = (kind: AuditRecord['kind'], n = 0): AuditRecord => ({ kind, ip: `192.0.2.${n % 250}`, userAgent: 'contract', referrer: '', at: iso(T0 + n) });

async function readAll(stream: Readable): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const c of stream) parts.push(c as Buffer);
  return Buffer.concat(parts);
}

describe.each(backends)('Store contract: %s', (_name, make) => {
  let backend: Backend;
  let store: Store;

  beforeAll(async () => {
    backend = await make();
    store = await backend.open();
  });
  afterAll(async () => {
    await store.close();
    await backend.cleanup();
  });

  it('stores, reads and updates a push; unknown tokens are undefined', async () => {
    const p = push({ name: 'ünïcode ✓', ownerId: 'u1' });
    await store.insertPush(p, audit('creation'));
    expect(await store.getPush(p.token)).toEqual(p);
    expect(await store.getPush('nope')).toBeUndefined();
    expect(await store.updatePush('nope', () => ({ result: 1 }))).toBeUndefined();
    const r = await store.updatePush(p.token, (cur) => ({ next: { ...cur, views: cur.views + 1 }, audit: audit('view', 1), result: 'done' }));
    expect(r).toBe('done');
    expect((await store.getPush(p.token))!.views).toBe(1);
    expect((await store.listAudit(p.token, 0, 10)).map((a) => a.kind)).toEqual(['creation', 'view']);
  });

  it('updatePush: edits a change makes to the record it is given reach the store only through `next`, nested ones included', async () => {
    const file = { id: 'f1', name: 'v1.sealed-name', contentType: 'text/plain', size: 3 };
    const p = push({ files: [file] });
    // The embedded store may keep the very object it was given: compare with copies.
    const original = structuredClone(p);
    await store.insertPush(p, audit('creation'));
    // Edited in place, then refused: the stored push is as it was.
    await expect(
      store.updatePush(p.token, (cur) => {
        cur.views = 99;
        cur.files[0]!.size = 1234;
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(await store.getPush(p.token)).toEqual(original);
    // Edited in place and returned as next: every edit is stored, the nested one too.
    await store.updatePush(p.token, (cur) => {
      cur.views = 2;
      cur.files[0]!.size = 5;
      return { next: cur, result: null };
    });
    expect(await store.getPush(p.token)).toEqual({ ...original, views: 2, files: [{ ...original.files[0]!, size: 5 }] });
  });

  it('updatePush is atomic per push: 30 concurrent claims of a one-view push give exactly one view', async () => {
    const p = push({ expireAfterViews: 1 });
    await store.insertPush(p, audit('creation'));
    const peer = backend.openPeer ? await backend.openPeer() : store;
    try {
      const claim = (s: Store) =>
        s.updatePush(p.token, (cur) =>
          cur.views < cur.expireAfterViews ? { next: { ...cur, views: cur.views + 1 }, audit: audit('view'), result: true } : { audit: audit('failed_view'), result: false },
        );
      const results = await Promise.all(Array.from({ length: 30 }, (_, i) => claim(i % 2 ? peer : store)));
      expect(results.filter(Boolean)).toHaveLength(1);
      expect((await store.getPush(p.token))!.views).toBe(1);
      const kinds = (await store.listAudit(p.token, 0, 100)).map((a) => a.kind);
      expect(kinds.filter((k) => k === 'view')).toHaveLength(1);
      expect(kinds.filter((k) => k === 'failed_view')).toHaveLength(29);
    } finally {
      if (peer !== store) await peer.close();
    }
  });

  it('updatePush loses no update: 40 concurrent increments from two instances all count, each with its audit entry', async () => {
    const p = push({ expireAfterViews: 1000 });
    await store.insertPush(p, audit('creation'));
    const peer = backend.openPeer ? await backend.openPeer() : store;
    try {
      const bump = (s: Store, i: number) => s.updatePush(p.token, (cur) => ({ next: { ...cur, views: cur.views + 1 }, audit: audit('view', i), result: cur.views + 1 }));
      const seen = await Promise.all(Array.from({ length: 40 }, (_, i) => bump(i % 2 ? peer : store, i)));
      // Each caller saw its own increment: the counts handed out are exactly 1..40.
      expect([...seen].sort((a, b) => a! - b!)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
      expect((await store.getPush(p.token))!.views).toBe(40);
      const views = (await store.listAudit(p.token, 0, 100)).filter((a) => a.kind === 'view');
      expect(views).toHaveLength(40);
    } finally {
      if (peer !== store) await peer.close();
    }
  });

  it('updatePush with the record the caller read: runs on the current record even when that one is stale', async () => {
    const p = push({ expireAfterViews: 10 });
    await store.insertPush(p, audit('creation'));
    const bump = (cur: StoredPush) => ({ next: { ...cur, views: cur.views + 1 }, audit: audit('view'), result: cur.views + 1 });
    const read = (await store.getPush(p.token))!;
    expect(await store.updatePush(p.token, bump, read)).toBe(1);
    // `read` is now out of date (views 0): the change must still see views 1.
    expect(await store.updatePush(p.token, bump, read)).toBe(2);
    const peer = backend.openPeer ? await backend.openPeer() : store;
    try {
      const stale = (await store.getPush(p.token))!;
      await peer.updatePush(p.token, bump);
      expect(await store.updatePush(p.token, bump, stale)).toBe(4);
    } finally {
      if (peer !== store) await peer.close();
    }
    expect((await store.getPush(p.token))!.views).toBe(4);
  });

  it('pages audit trails oldest first', async () => {
    const p = push();
    await store.insertPush(p, audit('creation', 0));
    for (let i = 1; i < 120; i++) await store.appendAudit(p.token, audit('failed_view', i));
    const page1 = await store.listAudit(p.token, 0, 50);
    const page3 = await store.listAudit(p.token, 100, 50);
    expect(page1).toHaveLength(50);
    expect(page1[0]!.kind).toBe('creation');
    expect(page3.map((a) => a.at)).toEqual(Array.from({ length: 20 }, (_, i) => iso(T0 + 100 + i)));
    expect(await store.listAudit('nope', 0, 50)).toEqual([]);
  });

  it("lists an owner's pushes newest first, by state, paged", async () => {
    const owner = `owner-${randomBytes(3).toString('hex')}`;
    const made: StoredPush[] = [];
    for (let i = 0; i < 7; i++) {
      const p = push({ ownerId: owner, createdAt: iso(T0 + i), expiredAt: i % 3 === 0 ? iso(T0 + 100) : null });
      await store.insertPush(p, audit('creation'));
      made.push(p);
    }
    const active = made.filter((p) => !p.expiredAt).reverse().map((p) => p.token);
    const expiredTokens = made.filter((p) => p.expiredAt).reverse().map((p) => p.token);
    expect((await store.listPushesByOwner(owner, false, 0, 50)).map((p) => p.token)).toEqual(active);
    expect((await store.listPushesByOwner(owner, true, 0, 50)).map((p) => p.token)).toEqual(expiredTokens);
    expect((await store.listPushesByOwner(owner, false, 1, 2)).map((p) => p.token)).toEqual(active.slice(1, 3));
    expect(await store.listPushesByOwner('nobody', false, 0, 50)).toEqual([]);
  });

  it('claims due work once, in bounded batches, even with two instances sweeping at once', async () => {
    const now = T0 + 30 * 86_400_000;
    const due = await Promise.all(
      Array.from({ length: 12 }, async () => {
        const p = push({ expiresAt: iso(now - 1000) });
        await store.insertPush(p, audit('creation'));
        return p.token;
      }),
    );
    const notDue = push({ expiresAt: iso(now + 1000) });
    await store.insertPush(notDue, audit('creation'));
    const peer = backend.openPeer ? await backend.openPeer() : store;
    try {
      const expire = (s: Store) => s.updateDuePushes('expiry', new Date(now), 5, (p) => ({ next: { ...p, payload: null, expiredAt: iso(now) }, audit: audit('expire'), result: p.token }));
      const claimed: string[] = [];
      // Until nothing is left (other tests' pushes may be due too, and on one process the two
      // sweeps at once may pick the same batch, one of them then finding it taken): bounded.
      for (let round = 0; round < 20; round++) {
        const [a, b] = await Promise.all([expire(store), expire(peer)]);
        expect(a.length).toBeLessThanOrEqual(5);
        expect(b.length).toBeLessThanOrEqual(5);
        claimed.push(...a, ...b);
        if (a.length === 0 && b.length === 0) break;
      }
      const ours = claimed.filter((t) => due.includes(t));
      expect(new Set(ours).size).toBe(ours.length); // nobody claimed twice
      expect(new Set(ours)).toEqual(new Set(due));
      expect(claimed).not.toContain(notDue.token);
      for (const t of due) expect((await store.listAudit(t, 0, 10)).map((a) => a.kind)).toEqual(['creation', 'expire']);
    } finally {
      if (peer !== store) await peer.close();
    }
  });

  it('finds expired pushes whose file grace window has passed', async () => {
    const now = T0 + 40 * 86_400_000;
    const p = push({ expiredAt: iso(now - 5000), filesPurgeAt: iso(now - 1000), files: [{ id: 'f1', name: 'v1.n', contentType: 'text/plain', size: 1 }] });
    const later = push({ expiredAt: iso(now - 5000), filesPurgeAt: iso(now + 60_000), files: [{ id: 'f2', name: 'v1.n', contentType: 'text/plain', size: 1 }] });
    await store.insertPush(p, audit('creation'));
    await store.insertPush(later, audit('creation'));
    const purged = await store.updateDuePushes('file-purge', new Date(now), 100, (q) => ({ next: { ...q, files: [], filesPurgeAt: null }, result: q.token }));
    expect(purged).toContain(p.token);
    expect(purged).not.toContain(later.token);
    expect((await store.getPush(p.token))!.files).toEqual([]);
  });

  it('retention deletes pushes expired before the cutoff with their audit and blobs, in bounded batches', async () => {
    const cutoff = T0 + 50 * 86_400_000;
    const old = await Promise.all(
      Array.from({ length: 7 }, async () => {
        const p = push({ expiredAt: iso(cutoff - 86_400_000) });
        await store.insertPush(p, audit('creation'));
        await store.blobs.write(p.token, 'f', Readable.from([Buffer.from('ciphertext')]));
        return p.token;
      }),
    );
    const recent = push({ expiredAt: iso(cutoff + 1000) });
    const live = push();
    await store.insertPush(recent, audit('creation'));
    await store.insertPush(live, audit('creation'));
    let deleted = 0;
    for (let n = -1; n !== 0; deleted += n) {
      n = await store.deleteExpiredBefore(new Date(cutoff), 3);
      expect(n).toBeLessThanOrEqual(3);
    }
    expect(deleted).toBeGreaterThanOrEqual(7);
    for (const t of old) {
      expect(await store.getPush(t)).toBeUndefined();
      expect(await store.listAudit(t, 0, 10)).toEqual([]);
      expect(await store.blobs.size(t, 'f')).toBeUndefined();
    }
    expect(await store.getPush(recent.token)).toBeDefined();
    expect(await store.getPush(live.token)).toBeDefined();
  });

  it('retention and concurrent changes of the same pushes: a deleted push never comes back', async () => {
    const cutoff = T0 + 80 * 86_400_000;
    const tokens = await Promise.all(
      Array.from({ length: 40 }, async () => {
        const p = push({ expiredAt: iso(cutoff - 86_400_000), expireAfterViews: 1000 });
        await store.insertPush(p, audit('creation'));
        return p.token;
      }),
    );
    // Views (failed views write the record too) and entries added to a trail alone keep coming
    // while the sweep's deletion is under way: written before it, they are deleted with the push;
    // after it, they find no push. No entry outlives its push.
    const deletion = store.deleteExpiredBefore(new Date(cutoff), 100);
    let settled = false;
    void deletion.finally(() => (settled = true));
    const views: Promise<unknown>[] = [];
    for (let round = 0; !settled && round < 1000; round++) {
      for (const [i, t] of tokens.entries()) {
        const write = (round + i) % 3;
        if (write === 0) views.push(store.updatePush(t, (p) => ({ next: { ...p, views: p.views + 1 }, audit: audit('failed_view', i), result: true })));
        else if (write === 1) views.push(store.updatePush(t, () => ({ audit: audit('failed_view', i), result: true })));
        else views.push(store.appendAudit(t, audit('failed_view', i)));
      }
      await new Promise((r) => setImmediate(r));
    }
    await Promise.all([deletion, ...views]);
    while ((await store.deleteExpiredBefore(new Date(cutoff), 100)) > 0);
    for (const t of tokens) {
      expect(await store.getPush(t), t).toBeUndefined();
      expect(await store.listAudit(t, 0, 10)).toEqual([]);
    }
  });

  it('streams blobs in and out: sizes, byte ranges, removal; a failed upload leaves nothing', async () => {
    const bytes = randomBytes(3 * 1024 * 1024 + 12345);
    const pieces = Array.from({ length: Math.ceil(bytes.length / 65_536) }, (_, i) => bytes.subarray(i * 65_536, (i + 1) * 65_536));
    expect(await store.blobs.write('blobpush', 'a', Readable.from(pieces))).toBe(bytes.length);
    await store.blobs.write('blobpush', 'empty', Readable.from([]));
    expect(await store.blobs.size('blobpush', 'a')).toBe(bytes.length);
    expect(await store.blobs.size('blobpush', 'empty')).toBe(0);
    expect(await store.blobs.size('blobpush', 'nope')).toBeUndefined();
    expect((await readAll(await store.blobs.read('blobpush', 'a', 0, bytes.length))).equals(bytes)).toBe(true);
    for (const [start, end] of [[0, 16], [262_140, 262_150], [1_000_000, 2_500_000], [bytes.length - 16, bytes.length], [5, 5]] as const) {
      expect((await readAll(await store.blobs.read('blobpush', 'a', start, end))).equals(bytes.subarray(start, end))).toBe(true);
    }
    const failing = new Readable({
      read() {
        this.push(randomBytes(300_000));
        this.destroy(new Error('client went away'));
      },
    });
    await expect(store.blobs.write('blobpush', 'cut', failing)).rejects.toThrow(/client went away/);
    expect(await store.blobs.size('blobpush', 'cut')).toBeUndefined();
    await store.blobs.removeAll('blobpush');
    expect(await store.blobs.size('blobpush', 'a')).toBeUndefined();
  });

  it('removes orphan blobs (no stored push) started before the cutoff, and nothing else', async () => {
    const orphan = `orphan${randomBytes(4).toString('hex')}`;
    const owned = push();
    await store.insertPush(owned, audit('creation'));
    await store.blobs.write(orphan, 'f', Readable.from([Buffer.from('left behind')]));
    await store.blobs.write(owned.token, 'f', Readable.from([Buffer.from('belongs to a push')]));
    expect(await store.blobs.removeOrphans(new Date(Date.now() - 60_000), 100)).toBe(0); // too recent: may be uploading
    expect(await store.blobs.removeOrphans(new Date(Date.now() + 60_000), 100)).toBeGreaterThanOrEqual(1);
    expect(await store.blobs.size(orphan, 'f')).toBeUndefined();
    expect(await store.blobs.size(owned.token, 'f')).toBe(17);
  });

  it('renames pushes with their audit trails, blobs and place in the owner list, atomically per push, and keeps it across a reopen', async () => {
    const owner = `rename-owner-${randomBytes(3).toString('hex')}`;
    const first = push({ ownerId: owner, createdAt: iso(T0 + 1) });
    const second = push({ ownerId: owner, createdAt: iso(T0 + 2) });
    const third = push({ ownerId: owner, createdAt: iso(T0 + 3) });
    for (const [i, p] of [first, second, third].entries()) await store.insertPush(p, audit('creation', i));
    await store.appendAudit(second.token, audit('view', 9));
    await store.blobs.write(second.token, 'f', Readable.from([Buffer.from('moves along')]));
    const renamed = `Hrenamed-${second.token}`;
    expect(await store.renamePushes((p) => (p.token === second.token ? { ...p, token: renamed, views: 1 } : undefined))).toBe(1);
    expect(await store.getPush(second.token)).toBeUndefined();
    expect(await store.getPush(renamed)).toMatchObject({ token: renamed, views: 1 });
    expect((await store.listAudit(renamed, 0, 10)).map((a) => a.kind)).toEqual(['creation', 'view']);
    expect(await store.listAudit(second.token, 0, 10)).toEqual([]);
    expect(await store.blobs.size(second.token, 'f')).toBeUndefined();
    expect((await readAll(await store.blobs.read(renamed, 'f', 0, 11))).toString()).toBe('moves along');
    expect((await store.listPushesByOwner(owner, false, 0, 10)).map((p) => p.token)).toEqual([third.token, renamed, first.token]);
    // Nothing to rename: nothing changes.
    expect(await store.renamePushes(() => undefined)).toBe(0);
    await store.close();
    store = await backend.open();
    expect((await store.listPushesByOwner(owner, false, 0, 10)).map((p) => p.token)).toEqual([third.token, renamed, first.token]);
    expect((await store.listAudit(renamed, 0, 10)).map((a) => a.kind)).toEqual(['creation', 'view']);
  });

  it("insertPush with a link: the 'linked' entry on the new push's trail after its creation and on the followed push's, in the insert's step, kept across a reopen", async () => {
    const first = push({ ownerId: 'link-owner' });
    const second = push({ ownerId: 'link-owner' });
    await store.insertPush(first, audit('creation', 1));
    await store.appendAudit(first.token, audit('view', 2));
    await store.insertPush(second, audit('creation', 3), undefined, undefined, { follows: first.token, entry: audit('linked', 4) });
    expect((await store.listAudit(first.token, 0, 10)).map((a) => a.kind)).toEqual(['creation', 'view', 'linked']);
    expect((await store.listAudit(second.token, 0, 10)).map((a) => [a.kind, a.at])).toEqual([['creation', iso(T0 + 3)], ['linked', iso(T0 + 4)]]);
    // A followed push that no longer exists (retention deleted it meanwhile): the new push is stored with its own trail.
    const third = push({ ownerId: 'link-owner' });
    await store.insertPush(third, audit('creation', 5), undefined, undefined, { follows: 'Hgone', entry: audit('linked', 6) });
    expect((await store.listAudit(third.token, 0, 10)).map((a) => a.kind)).toEqual(['creation', 'linked']);
    expect(await store.listAudit('Hgone', 0, 10)).toEqual([]);
    await store.close();
    store = await backend.open();
    expect((await store.listAudit(first.token, 0, 10)).map((a) => a.kind)).toEqual(['creation', 'view', 'linked']);
    expect((await store.listAudit(second.token, 0, 10)).map((a) => a.kind)).toEqual(['creation', 'linked']);
  });

  it("listPushesOfBatch: the owner's pushes of one batch, active and expired, in the order made; not another owner's, not another batch's", async () => {
    const owner = `batch-owner-${randomBytes(3).toString('hex')}`;
    const rows = [0, 1, 2].map((i) => push({ ownerId: owner, batchId: 'b1', createdAt: iso(T0 + i) }));
    for (const [i, p] of rows.entries()) await store.insertPush(p, audit('creation', i));
    await store.insertPush(push({ ownerId: owner, batchId: 'b2' }), audit('creation'));
    await store.insertPush(push({ ownerId: owner }), audit('creation'));
    await store.insertPush(push({ ownerId: 'someone-else', batchId: 'b1' }), audit('creation'));
    await store.updatePush(rows[1]!.token, (p) => ({ next: { ...p, expiredAt: iso(T0 + 9) }, result: undefined }));
    expect((await store.listPushesOfBatch(owner, 'b1', 10)).map((p) => p.token)).toEqual(rows.map((p) => p.token));
    expect((await store.listPushesOfBatch(owner, 'b1', 2)).map((p) => p.token)).toEqual(rows.slice(0, 2).map((p) => p.token));
    expect(await store.listPushesOfBatch(owner, 'nope', 10)).toEqual([]);
  });

  it('reports the bytes it occupies, growing as data is stored', async () => {
    const before = await store.storedBytes();
    expect(before).toBeGreaterThanOrEqual(0);
    for (let i = 0; i < 20; i++) await store.insertPush(push({ payload: `v1.${randomBytes(20_000).toString('base64url')}` }), audit('creation'));
    expect(await store.storedBytes()).toBeGreaterThan(before + 400_000);
  });

  it('counts rate-limit hits per fixed window', async () => {
    const key = `rate:${randomBytes(3).toString('hex')}`;
    const w = 60_000;
    const t = T0 + 5_000;
    expect(await store.counters.hit(key, w, t)).toEqual({ count: 1, resetAt: T0 + w });
    expect((await store.counters.hit(key, w, t + 1)).count).toBe(2);
    await store.counters.unhit(key, w, t + 2);
    expect((await store.counters.hit(key, w, t + 3)).count).toBe(2);
    expect(await store.counters.hit(key, w, T0 + w)).toEqual({ count: 1, resetAt: T0 + 2 * w }); // next window
    await store.counters.resetHits(key);
    expect((await store.counters.hit(key, w, T0 + w + 1)).count).toBe(1);
    // A tRPC batch counts once per call it carries.
    expect((await store.counters.hit(key, w, T0 + w + 2, 9)).count).toBe(10);
  });

  it('claims failures atomically against every key limit; forgives; frees slots as they age; prunes', async () => {
    const target = `t:${randomBytes(3).toString('hex')}`;
    const ip = `ip:${randomBytes(3).toString('hex')}`;
    const w = 60_000;
    const keys = [
      { key: target, limit: 5, windowMs: w },
      { key: ip, limit: 20, windowMs: w },
    ];
    let now = T0 + 1_000_000;
    const peer = backend.openPeer ? await backend.openPeer() : store;
    try {
      // 30 concurrent guesses on one target (half through another instance): exactly 5 pass.
      const claims = await Promise.all(Array.from({ length: 30 }, (_, i) => (i % 2 ? peer : store).counters.claim(keys, now)));
      const allowed = claims.filter((c) => c.allowed);
      expect(allowed).toHaveLength(5);
      const refused = claims.find((c) => !c.allowed);
      expect(refused).toEqual({ allowed: false, retryAfterSeconds: 60 });
      // A forgiven failure (the guess was right) frees its slot.
      await store.counters.forgive((allowed[0] as { ids: string[] }).ids);
      now += 10_000;
      expect((await store.counters.claim(keys, now)).allowed).toBe(true);
      expect(await store.counters.claim(keys, now)).toEqual({ allowed: false, retryAfterSeconds: 50 });
      // The address's own limit applies across targets; a refused claim records nothing.
      for (let i = 0; i < 15; i++) expect((await store.counters.claim([{ key: `${target}-${i}`, limit: 5, windowMs: w }, { key: ip, limit: 20, windowMs: w }], now)).allowed).toBe(true);
      expect((await store.counters.claim([{ key: `${target}-x`, limit: 5, windowMs: w }, { key: ip, limit: 20, windowMs: w }], now)).allowed).toBe(false);
      expect((await store.counters.claim([{ key: `${target}-x`, limit: 5, windowMs: w }], now)).allowed).toBe(true);
      // A minute later every slot is free again; pruning forgets the old failures.
      now += w;
      expect((await store.counters.claim(keys, now)).allowed).toBe(true);
      await store.counters.prune(now + w + 1);
      for (let i = 0; i < 5; i++) expect((await store.counters.claim(keys, now + w + 2)).allowed).toBe(true);
    } finally {
      if (peer !== store) await peer.close();
    }
  });

  it('a key with many claims keeps an exact total through forgiving and ageing', async () => {
    const key = `many:${randomBytes(3).toString('hex')}`;
    const day = 86_400_000;
    const rule = [{ key, limit: 2_000, windowMs: day }];
    const start = T0 + 9_000_000;
    const ids: string[][] = [];
    for (let i = 0; i < 400; i++) {
      const c = await store.counters.claim(rule, start + i * 1000, 5);
      if (!c.allowed) throw new Error(`claim ${i} refused`);
      ids.push(c.ids);
    }
    const now = start + 400 * 1000;
    // Full (400 × 5 = 2000): refused until the oldest claim is a day old.
    expect(await store.counters.claim(rule, now, 1)).toEqual({ allowed: false, retryAfterSeconds: Math.ceil((start + day - now) / 1000) });
    // Forgiving one claim in the middle makes exactly its room.
    await store.counters.forgive(ids[200]!);
    expect((await store.counters.claim(rule, now, 5)).allowed).toBe(true);
    expect((await store.counters.claim(rule, now, 1)).allowed).toBe(false);
    // Once the first 10 claims are a day old, 50 fit again, and not 51.
    const later = start + 9 * 1000 + day;
    expect((await store.counters.claim(rule, later, 51)).allowed).toBe(false);
    expect((await store.counters.claim(rule, later, 50)).allowed).toBe(true);
  });

  it('weighted claims: the total weight in the window is limited, room frees as claims age, too heavy is always refused; pruning keeps longer windows', async () => {
    const key = `bytes:${randomBytes(3).toString('hex')}`;
    const day = 86_400_000;
    const rule = [{ key, limit: 1000, windowMs: day }];
    const now = T0 + 5_000_000;
    expect((await store.counters.claim(rule, now, 600)).allowed).toBe(true);
    expect((await store.counters.claim(rule, now + 1000, 300)).allowed).toBe(true);
    // 900 used: 200 more would pass 1,000 until the first claim (600) leaves the window.
    expect(await store.counters.claim(rule, now + 2000, 200)).toEqual({ allowed: false, retryAfterSeconds: (day - 2000) / 1000 });
    expect((await store.counters.claim(rule, now + 2000, 100)).allowed).toBe(true);
    expect((await store.counters.claim(rule, now + 3000, 1001)).allowed).toBe(false);
    // A minute-window prune does not forget a day-window claim.
    await store.counters.prune(now + 120_000);
    expect((await store.counters.claim(rule, now + 120_000, 1)).allowed).toBe(false);
    expect((await store.counters.claim(rule, now + day, 600)).allowed).toBe(true);
  });

  it('back-off claims: free up to the limit, then each waits twice as long after the latest, up to the cap', async () => {
    const key = `backoff:${randomBytes(3).toString('hex')}`;
    const rule = [{ key, limit: 3, windowMs: 86_400_000, backoff: { baseMs: 60_000, maxMs: 240_000 } }];
    let now = T0 + 9_000_000;
    for (let i = 0; i < 3; i++) expect((await store.counters.claim(rule, now)).allowed).toBe(true);
    expect(await store.counters.claim(rule, now + 1000)).toEqual({ allowed: false, retryAfterSeconds: 59 });
    now += 60_000;
    expect((await store.counters.claim(rule, now)).allowed).toBe(true); // 4th: after 1 min
    expect(await store.counters.claim(rule, now + 60_000)).toEqual({ allowed: false, retryAfterSeconds: 60 }); // 5th: 2 min
    now += 120_000;
    expect((await store.counters.claim(rule, now)).allowed).toBe(true);
    now += 240_000; // capped at 4 min (not 8)
    const last = await store.counters.claim(rule, now);
    expect(last.allowed).toBe(true);
    // A right guess is forgiven: it does not make the next wait longer.
    await store.counters.forgive((last as { ids: string[] }).ids);
    expect((await store.counters.claim(rule, now + 240_000)).allowed).toBe(true);
  });

  it('one account per email, also when two are inserted at once', async () => {
    const email = `same-${randomBytes(3).toString('hex')}@example.com`;
    const ids = Array.from({ length: 5 }, (_, i) => `user-${randomBytes(3).toString('hex')}-${i}`);
    const results = await Promise.allSettled(ids.map((id) => store.insertUser({ id, email, passwordHash: 'h', createdAt: iso(T0) })));
    const inserted = ids.filter((_, i) => results[i]!.status === 'fulfilled');
    expect(inserted).toHaveLength(1);
    expect((await store.getUserByEmail(email))!.id).toBe(inserted[0]);
    for (const id of ids) if (id !== inserted[0]) expect(await store.getUser(id)).toBeUndefined();
    // And later, one after the other.
    await expect(store.insertUser({ id: `${inserted[0]}-again`, email, passwordHash: 'h', createdAt: iso(T0) })).rejects.toThrow();
  });

  it('accounts, API tokens and sessions', async () => {
    const id = `user-${randomBytes(3).toString('hex')}`;
    const email = `${id}@example.com`;
    await store.insertUser({ id, email, passwordHash: 'h1', createdAt: iso(T0) });
    expect(await store.getUserByEmail(email)).toMatchObject({ id, passwordHash: 'h1' });
    await store.updateUser({ id, email, passwordHash: 'h2', createdAt: iso(T0) });
    expect((await store.getUser(id))!.passwordHash).toBe('h2');
    expect(await store.getUser('nobody')).toBeUndefined();
    await store.insertApiToken({ id: `${id}-t1`, userId: id, hash: `hash-${id}-1`, label: 'one', createdAt: iso(T0 + 1) });
    await store.insertApiToken({ id: `${id}-t2`, userId: id, hash: `hash-${id}-2`, label: 'two', createdAt: iso(T0 + 2) });
    expect((await store.listApiTokens(id)).map((t) => t.label)).toEqual(['one', 'two']);
    expect(await store.getApiTokenByHash(`hash-${id}-2`)).toMatchObject({ label: 'two' });
    await store.deleteApiToken(`${id}-t2`);
    expect(await store.getApiTokenByHash(`hash-${id}-2`)).toBeUndefined();
    await store.insertSession({ id: `s-${id}`, userId: id, createdAt: iso(T0), expiresAt: iso(T0 + 1000) });
    expect(await store.getSession(`s-${id}`)).toMatchObject({ userId: id });
    await store.deleteSession(`s-${id}`);
    expect(await store.getSession(`s-${id}`)).toBeUndefined();
  });

  it('changeUser changes an account atomically: concurrent changes on two instances all count, none is lost', async () => {
    const id = `change-user-${randomBytes(3).toString('hex')}`;
    await store.insertUser({ id, email: `${id}@example.com`, passwordHash: 'h', createdAt: iso(T0) });
    const codes = ['a', 'b', 'c', 'd', 'e', 'f'];
    const secondFactor = { totpSecret: null, pendingTotpSecret: null, lastUsedStep: 0, recoveryCodes: codes, enrolledAt: null };
    expect(await store.changeUser(id, (u) => ({ next: { ...u, secondFactor }, result: 'set' }))).toBe('set');
    const other = backend.openPeer ? await backend.openPeer() : store;
    try {
      // Each code used twice at once, half through each handle: each use succeeds exactly once.
      const use = (s: Store, code: string) =>
        s.changeUser(id, (u) => {
          const left = u.secondFactor!.recoveryCodes;
          if (!left.includes(code)) return { result: false };
          return { next: { ...u, secondFactor: { ...u.secondFactor!, recoveryCodes: left.filter((c) => c !== code) } }, result: true };
        });
      const results = await Promise.all(codes.flatMap((code) => [use(store, code), use(other, code)]));
      expect(results.filter(Boolean)).toHaveLength(codes.length);
      expect((await store.getUser(id))!.secondFactor!.recoveryCodes).toEqual([]);
      // No change leaves the record as it was; an unknown account resolves to undefined.
      expect(await store.changeUser(id, () => ({ result: 1 }))).toBe(1);
      expect(await store.changeUser('nobody-at-all', () => ({ result: 1 }))).toBeUndefined();
      expect((await store.getUser(id))!.email).toBe(`${id}@example.com`);
    } finally {
      if (other !== store) await other.close();
    }
  });

  it('deletes expired sessions in bounded batches, keeps live ones', async () => {
    const id = `sess-user-${randomBytes(3).toString('hex')}`;
    await store.insertUser({ id, email: `${id}@example.com`, passwordHash: 'h', createdAt: iso(T0) });
    const now = T0 + 100 * 86_400_000;
    for (let i = 0; i < 5; i++) await store.insertSession({ id: `old-${id}-${i}`, userId: id, createdAt: iso(T0), expiresAt: iso(now - 1000) });
    await store.insertSession({ id: `live-${id}`, userId: id, createdAt: iso(T0), expiresAt: iso(now + 1000) });
    expect(await store.deleteExpiredSessions(new Date(now), 3)).toBe(3);
    expect(await store.deleteExpiredSessions(new Date(now), 3)).toBe(2);
    for (let i = 0; i < 5; i++) expect(await store.getSession(`old-${id}-${i}`)).toBeUndefined();
    expect(await store.getSession(`live-${id}`)).toBeDefined();
  });

  it('extension connect codes: redeemed once, also by exchanges at once on two handles; a replay reads the first redemption; expired ones swept in batches', async () => {
    const id = `connect-user-${randomBytes(3).toString('hex')}`;
    await store.insertUser({ id, email: `${id}@example.com`, passwordHash: '', createdAt: iso(T0) });
    const code = (n: number, expiresAt: number) => ({
      hash: `code-${id}-${n}`,
      userId: id,
      challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      redirectUri: 'https://abcdefghijklmnopabcdefghijklmnop.chromiumapp.org/',
      label: 'Secret Push extension — Chromium, 2026-11-28',
      createdAt: iso(T0),
      expiresAt: iso(expiresAt),
    });
    await store.insertConnectCode(code(1, T0 + 60_000));
    expect(await store.redeemConnectCode('no-such-code', iso(T0 + 1), 'tok-x')).toBeUndefined();
    const peer = backend.openPeer ? await backend.openPeer() : store;
    try {
      const tries = await Promise.all(
        Array.from({ length: 8 }, (_, i) => (i % 2 ? peer : store).redeemConnectCode(`code-${id}-1`, iso(T0 + 1000 + i), `tok-${i}`)),
      );
      const winners = tries.filter((t) => t!.first);
      expect(winners).toHaveLength(1);
      const won = winners[0]!.code;
      expect(won).toMatchObject({ ...code(1, T0 + 60_000), usedAt: expect.any(String), tokenId: expect.stringMatching(/^tok-/) });
      // Every other exchange sees the code as the winner marked it: the token a replay must revoke.
      for (const t of tries.filter((t) => !t!.first)) expect(t!.code).toMatchObject({ tokenId: won.tokenId, usedAt: won.usedAt });
      expect((await store.redeemConnectCode(`code-${id}-1`, iso(T0 + 5000), 'tok-late'))!).toMatchObject({ first: false, code: { tokenId: won.tokenId } });
    } finally {
      if (peer !== store) await peer.close();
    }
    for (let i = 2; i < 7; i++) await store.insertConnectCode(code(i, T0 + 1000));
    await store.insertConnectCode(code(9, T0 + 10 * 60_000));
    const sweepAt = new Date(T0 + 5 * 60_000);
    // Codes 1 to 6 expired before the sweep: three, then three, then none.
    expect(await store.deleteExpiredConnectCodes(sweepAt, 3)).toBe(3);
    expect(await store.deleteExpiredConnectCodes(sweepAt, 3)).toBe(3);
    expect(await store.deleteExpiredConnectCodes(sweepAt, 3)).toBe(0);
    for (let i = 1; i < 7; i++) expect(await store.redeemConnectCode(`code-${id}-${i}`, iso(T0 + 6_000_000), 'tok-gone')).toBeUndefined();
    expect((await store.redeemConnectCode(`code-${id}-9`, iso(T0 + 6_000_000), 'tok-9'))!.first).toBe(true);
  });

  it('multipart uploads: recorded once, listed oldest first by start, forgotten', async () => {
    const id = randomBytes(3).toString('hex');
    const upload = (i: number, at: number) => ({ uploadId: `up-${id}-${i}`, key: `files/t${i}/f.bin`, startedAt: iso(at) });
    await store.recordMultipartUpload(upload(2, T0 + 2000));
    await store.recordMultipartUpload(upload(1, T0 + 1000));
    await store.recordMultipartUpload(upload(3, T0 + 9000));
    // Recorded again (a retried create call): one record, as first written.
    await store.recordMultipartUpload({ ...upload(1, T0 + 5000), key: 'other' });
    const mine = async (before: number, limit = 10) => (await store.listMultipartUploads(new Date(before), limit)).filter((u) => u.uploadId.includes(id));
    expect(await mine(T0 + 5000)).toEqual([upload(1, T0 + 1000), upload(2, T0 + 2000)]);
    expect(await mine(T0 + 10_000, 1)).toEqual([upload(1, T0 + 1000)]);
    await store.forgetMultipartUpload(upload(1, 0).uploadId);
    await store.forgetMultipartUpload('no-such-upload');
    expect(await mine(T0 + 10_000)).toEqual([upload(2, T0 + 2000), upload(3, T0 + 9000)]);
  });

  it('settings: the first value stored wins, putSetting replaces it', async () => {
    const name = `probe-${randomBytes(3).toString('hex').replace(/[0-9]/g, 'x')}`;
    expect(await store.settingOrInit(name, 'first')).toBe('first');
    expect(await store.settingOrInit(name, 'second')).toBe('first');
    await store.putSetting(name, 'third');
    expect(await store.settingOrInit(name, 'fourth')).toBe('third');
  });

  it("an account's webhooks never pass the limit, also when added at once", async () => {
    const userId = `limit-user-${randomBytes(3).toString('hex')}`;
    await store.insertUser({ id: userId, email: `${userId}@example.com`, passwordHash: 'h', createdAt: iso(T0) });
    const hook = (i: number): StoredWebhook => ({ id: `${userId}-${i}`, userId, url: `https://example.com/${i}`, secret: 'v1.sealed', events: ['push.created'], createdAt: iso(T0 + i) });
    const added = await Promise.all(Array.from({ length: 15 }, (_, i) => store.insertWebhook(hook(i), 10)));
    expect(added.filter(Boolean)).toHaveLength(10);
    expect(await store.listWebhooks(userId)).toHaveLength(10);
    expect(await store.insertWebhook(hook(99), 10)).toBe(false);
    expect(await store.deleteWebhook(userId, (await store.listWebhooks(userId))[0]!.id)).toBe(true);
    expect(await store.insertWebhook(hook(100), 10)).toBe(true);
  });

  it('webhook outbox: events are written with the change (one delivery per subscribed webhook of the account), claimed under a lease by one handle at a time, finished, listed, and removed with their webhook', async () => {
    const userId = `hook-user-${randomBytes(3).toString('hex')}`;
    await store.insertUser({ id: userId, email: `${userId}@example.com`, passwordHash: 'h', createdAt: iso(T0) });
    const hook = (id: string, events: StoredWebhook['events']): StoredWebhook => ({ id: `${userId}-${id}`, userId, url: `https://example.com/${id}`, secret: 'v1.sealed', events, createdAt: iso(T0) });
    expect(await store.insertWebhook(hook('all', ['push.created', 'push.viewed']), 10)).toBe(true);
    expect(await store.insertWebhook(hook('views', ['push.viewed']), 10)).toBe(true);
    expect((await store.listWebhooks(userId)).map((w) => w.id)).toEqual([`${userId}-all`, `${userId}-views`]);
    const event = (id: string, type: WebhookEvent['type'], ms: number): WebhookEvent => ({ id: `${userId}-${id}`, type, userId, body: `{"n":"${id}"}`, at: iso(T0 + ms) });

    const p = push({ ownerId: userId, expireAfterViews: 3 });
    await store.insertPush(p, audit('creation'), [event('e1', 'push.created', 1), { ...event('other', 'push.created', 1), userId: 'someone-else' }]);
    await store.updatePush(p.token, (cur) => ({ next: { ...cur, views: 1 }, audit: [audit('view', 2), audit('expire', 3)], events: [event('e2', 'push.viewed', 2)], result: null }));
    expect((await store.listAudit(p.token, 0, 10)).map((a) => a.kind)).toEqual(['creation', 'view', 'expire']);

    const peer = backend.openPeer ? await backend.openPeer() : store;
    try {
      const now = new Date(T0 + 10);
      const lease = new Date(T0 + 1000);
      const [a, b] = await Promise.all([store.claimDeliveries(now, lease, 10), peer.claimDeliveries(now, lease, 10)]);
      const claimed = [...a, ...b].filter((d) => d.userId === userId);
      // e1 to "all"; e2 to both: three deliveries, each claimed by exactly one handle.
      expect(claimed.map((d) => d.id).sort()).toEqual([`${userId}-e1_${userId}-all`, `${userId}-e2_${userId}-all`, `${userId}-e2_${userId}-views`].sort());
      expect(claimed.every((d) => d.state === 'pending' && d.attempts === 0 && d.body.startsWith('{"n":'))).toBe(true);
      // Leased: not claimable again until the lease runs out.
      expect((await store.claimDeliveries(now, lease, 10)).filter((d) => d.userId === userId)).toEqual([]);
      const first = claimed.find((d) => d.id === `${userId}-e1_${userId}-all`)!;
      await store.finishDelivery(first.id, { attempts: 1, state: 'delivered', nextAttemptAt: null, lastStatus: 200, lastError: null, lastAttemptAt: iso(T0 + 20) });
      const retry = claimed.find((d) => d.id === `${userId}-e2_${userId}-views`)!;
      await store.finishDelivery(retry.id, { attempts: 1, state: 'pending', nextAttemptAt: iso(T0 + 5000), lastStatus: 500, lastError: 'HTTP 500', lastAttemptAt: iso(T0 + 20) });
      // After the lease: the one never finished (its instance "died") comes back; the retry only when due.
      const later = (await peer.claimDeliveries(new Date(T0 + 2000), new Date(T0 + 10_000), 10)).filter((d) => d.userId === userId);
      expect(later.map((d) => d.id)).toEqual([`${userId}-e2_${userId}-all`]);
      const due = (await store.claimDeliveries(new Date(T0 + 5000), new Date(T0 + 6000), 10)).filter((d) => d.userId === userId);
      expect(due.map((d) => [d.id, d.attempts, d.lastStatus])).toEqual([[retry.id, 1, 500]]);

      const listed = await store.listDeliveries(userId, 10);
      expect(listed).toHaveLength(3);
      expect(listed.find((d) => d.id === first.id)).toMatchObject({ state: 'delivered', lastStatus: 200, attempts: 1 });
      expect(await store.deleteWebhook('someone-else', `${userId}-views`)).toBe(false);
      expect(await store.deleteWebhook(userId, `${userId}-views`)).toBe(true);
      expect((await store.listDeliveries(userId, 10)).map((d) => d.webhookId)).toEqual([`${userId}-all`, `${userId}-all`]);
      expect((await store.listWebhooks(userId)).map((w) => w.id)).toEqual([`${userId}-all`]);
      // Retention: only finished deliveries attempted before the cutoff go.
      expect(await store.deleteFinishedDeliveries(new Date(T0 + 20), 10)).toBe(0);
      expect(await store.deleteFinishedDeliveries(new Date(T0 + 30), 10)).toBe(1);
      expect((await store.listDeliveries(userId, 10)).map((d) => d.id)).toEqual([`${userId}-e2_${userId}-all`]);
    } finally {
      if (peer !== store) await peer.close();
    }
  });

  it('listGivenUpMails: every account\'s failed mails, newest first, a page at a time; pending and sent ones not', async () => {
    const tag = randomBytes(3).toString('hex');
    const mail = (id: string, userId: string | null, ms: number): StoredMail => ({
      id: `given-up-${tag}-${id}`, userId, kind: 'push-link', message: `v1.sealed-${id}`, createdAt: iso(T0 + 100_000 + ms), attempts: 0,
      nextAttemptAt: iso(T0 + ms), leaseUntil: null, state: 'pending', lastError: null, lastAttemptAt: null,
    });
    await store.insertMails([mail('a1', `a-${tag}`, 1), mail('b1', `b-${tag}`, 2), mail('n1', null, 3), mail('a2', `a-${tag}`, 4), mail('s1', `b-${tag}`, 5)]);
    const fail = (id: string) => store.finishMail(`given-up-${tag}-${id}`, { attempts: 1, state: 'failed', nextAttemptAt: null, lastError: '550 no such user', lastAttemptAt: iso(T0 + 200_000) });
    for (const id of ['a1', 'b1', 'n1', 'a2']) await fail(id);
    await store.finishMail(`given-up-${tag}-s1`, { attempts: 1, state: 'sent', nextAttemptAt: null, lastError: null, lastAttemptAt: iso(T0 + 200_000) });
    const mine = (ms: StoredMail[]) => ms.filter((m) => m.id.startsWith(`given-up-${tag}-`)).map((m) => m.id.slice(`given-up-${tag}-`.length));
    const all = await store.listGivenUpMails(0, 1000);
    expect(mine(all)).toEqual(['a2', 'n1', 'b1', 'a1']);
    expect(all.every((m) => m.state === 'failed')).toBe(true);
    expect(all.find((m) => m.id === `given-up-${tag}-a1`)).toMatchObject({ userId: `a-${tag}`, lastError: '550 no such user', kind: 'push-link' });
    // Pages: what one page ends with, the next does not repeat.
    const first = await store.listGivenUpMails(0, 2);
    const second = await store.listGivenUpMails(2, 2);
    expect(first).toHaveLength(2);
    expect(second.map((m) => m.id).some((id) => first.some((f) => f.id === id))).toBe(false);
  });

  it('updateUser with a new address (an e-mail change): found by the new address only; an address another account has is refused', async () => {
    const id = `mover-${randomBytes(3).toString('hex')}`;
    await store.insertUser({ id, email: `${id}@old.example`, passwordHash: 'h', createdAt: iso(T0) });
    await store.insertUser({ id: `${id}-other`, email: `${id}@other.example`, passwordHash: 'h', createdAt: iso(T0) });
    await store.updateUser({ id, email: `${id}@new.example`, passwordHash: 'h', createdAt: iso(T0), pendingEmail: undefined });
    expect((await store.getUserByEmail(`${id}@new.example`))!.id).toBe(id);
    expect(await store.getUserByEmail(`${id}@old.example`)).toBeUndefined();
    await expect(store.updateUser({ id, email: `${id}@other.example`, passwordHash: 'h', createdAt: iso(T0) })).rejects.toThrow();
    expect((await store.getUser(id))!.email).toBe(`${id}@new.example`);
    expect((await store.getUserByEmail(`${id}@other.example`))!.id).toBe(`${id}-other`);
    // The old address is free again.
    await store.insertUser({ id: `${id}-newcomer`, email: `${id}@old.example`, passwordHash: 'h', createdAt: iso(T0) });
    expect((await store.getUserByEmail(`${id}@old.example`))!.id).toBe(`${id}-newcomer`);
  });

  it('changeUser cannot change an address (updateUser does, with its uniqueness rule): refused, nothing written, both addresses still find who they found', async () => {
    const id = `stays-${randomBytes(3).toString('hex')}`;
    await store.insertUser({ id, email: `${id}@old.example`, passwordHash: 'h', createdAt: iso(T0) });
    await store.insertUser({ id: `${id}-other`, email: `${id}@other.example`, passwordHash: 'h', createdAt: iso(T0) });
    await expect(store.changeUser(id, (u) => ({ next: { ...u, email: `${id}@new.example`, passwordHash: 'changed' }, result: true }))).rejects.toThrow(/address/);
    await expect(store.changeUser(id, (u) => ({ next: { ...u, email: `${id}@other.example` }, result: true }))).rejects.toThrow(/address/);
    expect(await store.getUser(id)).toMatchObject({ email: `${id}@old.example`, passwordHash: 'h' });
    expect((await store.getUserByEmail(`${id}@old.example`))!.id).toBe(id);
    expect(await store.getUserByEmail(`${id}@new.example`)).toBeUndefined();
    expect((await store.getUserByEmail(`${id}@other.example`))!.id).toBe(`${id}-other`);
    // A change that keeps the address still goes through.
    expect(await store.changeUser(id, (u) => ({ next: { ...u, passwordHash: 'h2' }, result: 'ok' }))).toBe('ok');
    expect((await store.getUserByEmail(`${id}@old.example`))!.passwordHash).toBe('h2');
  });

  it('mail outbox: mails are inserted once by id, claimed under a lease by one handle at a time (oldest first), finished, retried when due, and listed per account', async () => {
    const userId = `mail-user-${randomBytes(3).toString('hex')}`;
    const mail = (id: string, ms: number): StoredMail => ({
      id: `${userId}-${id}`, userId, kind: 'password-reset', message: `v1.sealed-${id}`, createdAt: iso(T0 + ms), attempts: 0,
      nextAttemptAt: iso(T0 + ms), leaseUntil: null, state: 'pending', lastError: null, lastAttemptAt: null,
    });
    await store.insertMails([mail('m1', 1), mail('m2', 2)]);
    // The same id again (a retried cause) changes nothing.
    await store.insertMails([{ ...mail('m1', 1), message: 'v1.other' }, mail('m3', 3)]);
    const peer = backend.openPeer ? await backend.openPeer() : store;
    try {
      const mine = (ms: StoredMail[]) => ms.filter((m) => m.userId === userId);
      const now = new Date(T0 + 10);
      const lease = new Date(T0 + 1000);
      const [a, b] = await Promise.all([store.claimMails(now, lease, 100), peer.claimMails(now, lease, 100)]);
      const claimed = mine([...a, ...b]);
      expect(claimed.map((m) => m.id).sort()).toEqual([`${userId}-m1`, `${userId}-m2`, `${userId}-m3`]);
      expect(claimed.find((m) => m.id === `${userId}-m1`)!.message).toBe('v1.sealed-m1');
      expect(mine(await peer.claimMails(now, lease, 100))).toEqual([]);
      await store.finishMail(`${userId}-m1`, { attempts: 1, state: 'sent', nextAttemptAt: null, lastError: null, lastAttemptAt: iso(T0 + 20) });
      await store.finishMail(`${userId}-m2`, { attempts: 1, state: 'pending', nextAttemptAt: iso(T0 + 5000), lastError: '421 try later', lastAttemptAt: iso(T0 + 20) });
      // After the lease: m3 (never finished: its instance "died") comes back; m2 only when due.
      expect(mine(await peer.claimMails(new Date(T0 + 2000), new Date(T0 + 10_000), 100)).map((m) => m.id)).toEqual([`${userId}-m3`]);
      expect(mine(await store.claimMails(new Date(T0 + 5000), new Date(T0 + 6000), 100)).map((m) => [m.id, m.attempts, m.lastError])).toEqual([[`${userId}-m2`, 1, '421 try later']]);
      await store.finishMail(`${userId}-m2`, { attempts: 2, state: 'failed', nextAttemptAt: null, lastError: '550 no such user', lastAttemptAt: iso(T0 + 5000) });
      const listed = await store.listMails(userId, 10);
      expect(listed.map((m) => [m.id, m.state])).toEqual([[`${userId}-m3`, 'pending'], [`${userId}-m2`, 'failed'], [`${userId}-m1`, 'sent']]);
      expect(await store.listMails('nobody', 10)).toEqual([]);

      // Receipts: written with a push's change (with the record, with audit entries only, or alone); an id already there is kept.
      const p = push({ ownerId: userId });
      await store.insertPush(p, audit('creation'));
      await store.updatePush(p.token, (cur) => ({ next: { ...cur, views: 1 }, audit: audit('view', 1), mails: [mail('r1', 4)], result: null }));
      await store.updatePush(p.token, () => ({ audit: [audit('view', 2), audit('view', 3)], mails: [mail('r2', 5), mail('r1', 4)], result: null }), p);
      await store.updatePush(p.token, () => ({ mails: [mail('r3', 6)], result: null }));
      expect((await store.listMails(userId, 10)).map((m) => m.id).slice(0, 3).sort()).toEqual([`${userId}-r1`, `${userId}-r2`, `${userId}-r3`]);
      expect((await store.listAudit(p.token, 0, 10)).map((a) => a.kind)).toEqual(['creation', 'view', 'view', 'view']);
    } finally {
      if (peer !== store) await peer.close();
    }
  });

  it("webhook outbox: a claim shares out between webhooks, at most perWebhook each (the earliest due first), none of a skipped one's", async () => {
    const userId = `share-user-${randomBytes(3).toString('hex')}`;
    await store.insertUser({ id: userId, email: `${userId}@example.com`, passwordHash: 'h', createdAt: iso(T0) });
    const hook = (id: string): StoredWebhook => ({ id: `${userId}-${id}`, userId, url: `https://example.com/${id}`, secret: 'v1.sealed', events: ['push.created'], createdAt: iso(T0) });
    for (const id of ['a', 'b', 'c']) expect(await store.insertWebhook(hook(id), 10)).toBe(true);
    // Five events, each to all three webhooks: five deliveries per webhook, due one after another.
    for (let i = 0; i < 5; i++) {
      await store.insertPush(push({ ownerId: userId }), audit('creation'), [{ id: `${userId}-e${i}`, type: 'push.created', userId, body: '{}', at: iso(T0 + i) }]);
    }
    const mine = (ds: StoredDelivery[]) => ds.filter((d) => d.userId === userId).map((d) => d.id).sort();
    const now = new Date(T0 + 100);
    const claimed = mine(await store.claimDeliveries(now, new Date(T0 + 1000), 100, { perWebhook: 2, skip: [`${userId}-c`] }));
    expect(claimed).toEqual([`${userId}-e0_${userId}-a`, `${userId}-e0_${userId}-b`, `${userId}-e1_${userId}-a`, `${userId}-e1_${userId}-b`]);
    // Without a share, the rest is claimable as before.
    expect(mine(await store.claimDeliveries(now, new Date(T0 + 1000), 100))).toHaveLength(11);
  });

  it('secret requests: updateRequest stores the request, its answer push and events in one step, once across two handles', async () => {
    const ownerId = `req-owner-${randomBytes(3).toString('hex')}`;
    await store.insertUser({ id: ownerId, email: `${ownerId}@example.com`, passwordHash: 'h', createdAt: iso(T0) });
    const request: StoredRequest = {
      id: `R${ownerId}`,
      urlToken: 'v1.sealed-token',
      ownerId,
      title: null,
      message: 'v1.sealed-message',
      expiresAt: iso(T0 + 86_400_000),
      answerExpireAfterDays: 1,
      answerExpireAfterViews: 2,
      createdAt: iso(T0),
      answeredAt: null,
      pushId: null,
      closedAt: null,
    };
    await store.insertRequest(request);
    expect(await store.getRequest(request.id)).toEqual(request);
    expect(await store.updateRequest('nope', () => ({ result: 1 }))).toBeUndefined();
    const peer = backend.openPeer ? await backend.openPeer() : store;
    try {
      const answer = (s: Store, i: number) =>
        s.updateRequest(request.id, (r) => {
          if (r.answeredAt) return { result: null };
          const p = push({ ownerId, token: `answer-${ownerId}-${i}` });
          return { next: { ...r, answeredAt: iso(T0 + 5), pushId: p.token }, push: { push: p, creation: audit('creation') }, result: p.token };
        });
      const results = await Promise.all(Array.from({ length: 10 }, (_, i) => answer(i % 2 ? peer : store, i)));
      const winners = results.filter((r): r is string => typeof r === 'string');
      expect(winners).toHaveLength(1);
      const stored = await store.getRequest(request.id);
      expect(stored!.pushId).toBe(winners[0]);
      expect((await store.getPush(winners[0]!))!.ownerId).toBe(ownerId);
      expect((await store.listAudit(winners[0]!, 0, 5)).map((a) => a.kind)).toEqual(['creation']);
      expect((await store.listPushesByOwner(ownerId, false, 0, 50)).map((p) => p.token)).toEqual([winners[0]]);
      expect((await store.listRequestsByOwner(ownerId, 0, 10)).map((r) => r.id)).toEqual([request.id]);
      // Retention: requests no longer open before the cutoff go; open ones and the answer push stay.
      const open = { ...request, id: `${request.id}-open`, answeredAt: null, pushId: null };
      await store.insertRequest(open);
      expect(await store.deleteRequestsBefore(new Date(T0 + 4), 10)).toBe(0);
      expect(await store.deleteRequestsBefore(new Date(T0 + 6), 10)).toBe(1);
      expect(await store.getRequest(request.id)).toBeUndefined();
      expect(await store.getRequest(open.id)).toEqual(open);
      expect(await store.getPush(winners[0]!)).toBeDefined();
    } finally {
      if (peer !== store) await peer.close();
    }
  });

  it('administration: accounts searched by email and deleted with their tokens, sessions, webhooks and requests (their pushes stay)', async () => {
    const now = iso(T0);
    for (const email of ['adm-b@example.com', 'adm-a@example.com', 'other@example.org', '100%_sure@example.com']) {
      await store.insertUser({ id: `id-${email}`, email, passwordHash: '', createdAt: now, lockedAt: null, admin: email === 'adm-a@example.com' });
    }
    expect((await store.listUsers('adm-', 0, 10)).map((u) => u.email)).toEqual(['adm-a@example.com', 'adm-b@example.com']);
    expect((await store.listUsers('adm-', 1, 10)).map((u) => u.email)).toEqual(['adm-b@example.com']);
    // LIKE's wildcards are plain characters in a search.
    expect((await store.listUsers('%_', 0, 10)).map((u) => u.email)).toEqual(['100%_sure@example.com']);
    expect((await store.getUserByEmail('adm-a@example.com'))?.admin).toBe(true);
    const id = 'id-adm-b@example.com';
    await store.insertApiToken({ id: 'tok-adm-b', userId: id, hash: 'hash-adm-b', label: 'x', createdAt: now });
    await store.insertSession({ id: 'sess-adm-b', userId: id, createdAt: now, expiresAt: iso(T0 + 86_400_000) });
    const owned = push({ ownerId: id });
    await store.insertPush(owned, audit('creation'));
    expect(await store.deleteUser(id)).toBe(true);
    expect(await store.deleteUser(id)).toBe(false);
    expect(await store.getUser(id)).toBeUndefined();
    expect(await store.getUserByEmail('adm-b@example.com')).toBeUndefined();
    expect(await store.getApiTokenByHash('hash-adm-b')).toBeUndefined();
    expect(await store.getSession('sess-adm-b')).toBeUndefined();
    expect(await store.getPush(owned.token)).toEqual(owned);
    // The address is free again.
    await store.insertUser({ id: 'id-again', email: 'adm-b@example.com', passwordHash: '', createdAt: now });
  });

  it('administration: every push newest first, and the instance-wide audit filtered and streamed', async () => {
    const a = push({ ownerId: 'aud-owner' });
    const b = push();
    await store.insertPush(a, { ...audit('creation'), ip: '198.51.100.1', at: '2031-01-01T00:00:00.000Z' });
    await store.insertPush(b, { ...audit('creation'), ip: '198.51.100.2', at: '2031-01-02T00:00:00.000Z' });
    await store.appendAudit(a.token, { ...audit('view'), ip: '198.51.100.2', at: '2031-01-03T00:00:00.000Z' });
    const newest = await store.listAllPushes(0, 2);
    expect(newest.map((p) => p.token)).toEqual([b.token, a.token]);
    expect((await store.listAllPushes(1, 1)).map((p) => p.token)).toEqual([a.token]);
    const collect = async (filter: Parameters<Store['streamInstanceAudit']>[0]) => {
      const out = [];
      for await (const e of store.streamInstanceAudit(filter)) if (e.push === a.token || e.push === b.token) out.push(`${e.push === a.token ? 'a' : 'b'}:${e.kind}:${e.owner}`);
      // Oldest first per push; pushes may interleave (PostgreSQL: in order of writing) or not (embedded).
      return out.sort();
    };
    expect(await collect({ from: '2031-01-01T00:00:00.000Z' })).toEqual(['a:creation:aud-owner', 'a:view:aud-owner', 'b:creation:null']);
    expect(await collect({ owner: 'aud-owner' })).toEqual(['a:creation:aud-owner', 'a:view:aud-owner']);
    expect(await collect({ ip: '198.51.100.2' })).toEqual(['a:view:aud-owner', 'b:creation:null']);
    expect(await collect({ kind: 'view', push: a.token })).toEqual(['a:view:aud-owner']);
    expect(await collect({ from: '2031-01-02T00:00:00.000Z', to: '2031-01-03T00:00:00.000Z' })).toEqual(['b:creation:null']);
  });

  it('administration: the admin log is appended and listed newest first; an invite is used once, across two handles, never after expiry or by another address', async () => {
    const entry = (n: number) => ({ id: `log-${n}-${randomBytes(4).toString('hex')}`, at: iso(T0 + n), actorId: null, actorEmail: 'command line', action: 'user.lock', target: `t${n}`, ip: '::1', userAgent: 'ua' });
    const written = [entry(1), entry(2), entry(3)];
    for (const e of written) await store.appendAdminLog(e);
    expect(await store.listAdminLog(0, 3)).toEqual([...written].reverse());
    expect(await store.listAdminLog(1, 1)).toEqual([written[1]]);

    const invite = (id: string, email: string | null) => ({ id, email, createdBy: 'a@example.com', createdAt: iso(T0), expiresAt: iso(T0 + 60_000), usedAt: null });
    await store.insertInvite(invite('inv-any', null));
    await store.insertInvite(invite('inv-bound', 'bound@example.com'));
    const peer = backend.openPeer ? await backend.openPeer() : store;
    try {
      const at = new Date(T0 + 1000);
      const uses = await Promise.all([store.useInvite('inv-any', at, 'x@example.com'), peer.useInvite('inv-any', at, 'y@example.com'), store.useInvite('inv-any', at, 'z@example.com')]);
      expect(uses.filter(Boolean)).toHaveLength(1);
      expect(uses.find(Boolean)!.usedAt).toBe(at.toISOString());
      expect(await store.useInvite('inv-bound', at, 'other@example.com')).toBeUndefined();
      expect(await store.useInvite('inv-bound', new Date(T0 + 60_000), 'bound@example.com')).toBeUndefined();
      expect((await peer.useInvite('inv-bound', at, 'bound@example.com'))?.email).toBe('bound@example.com');
      expect(await store.useInvite('nope', at, 'bound@example.com')).toBeUndefined();
      const listed = await store.listInvites(10);
      expect(listed.filter((i) => i.id.startsWith('inv-')).every((i) => i.usedAt === at.toISOString())).toBe(true);
    } finally {
      if (peer !== store) await peer.close();
    }
  });

  it('invites: listed newest first page by page; an open one revoked once, and then not usable on any handle', async () => {
    // Made in 2040, after every other test's invites: these are the newest.
    const invite = (n: number) => ({ id: `inv-page-${n}`, email: null, createdBy: 'a@example.com', createdAt: iso(Date.UTC(2040, 0, 1) + n * 1000), expiresAt: iso(Date.UTC(2040, 0, 2) + n * 1000), usedAt: null });
    for (let n = 1; n <= 5; n++) await store.insertInvite(invite(n));
    expect((await store.listInvites(2)).map((i) => i.id)).toEqual(['inv-page-5', 'inv-page-4']);
    expect((await store.listInvites(2, 2)).map((i) => i.id)).toEqual(['inv-page-3', 'inv-page-2']);
    expect((await store.listInvites(2, 4))[0]!.id).toBe('inv-page-1');
    const peer = backend.openPeer ? await backend.openPeer() : store;
    try {
      const at = new Date(Date.UTC(2040, 0, 1, 12));
      const revokes = await Promise.all([store.revokeInvite('inv-page-3', at), peer.revokeInvite('inv-page-3', at)]);
      expect(revokes.filter(Boolean)).toHaveLength(1);
      expect(revokes.find(Boolean)).toMatchObject({ id: 'inv-page-3', revokedAt: at.toISOString(), expiresAt: at.toISOString(), usedAt: null });
      expect(await peer.useInvite('inv-page-3', at, 'x@example.com')).toBeUndefined();
      expect((await store.listInvites(1, 2))[0]).toMatchObject({ id: 'inv-page-3', revokedAt: at.toISOString() });
      // Used, expired or unknown: nothing to revoke.
      expect(await store.useInvite('inv-page-4', at, 'y@example.com')).toBeTruthy();
      expect(await peer.revokeInvite('inv-page-4', at)).toBeUndefined();
      expect(await store.revokeInvite('inv-page-5', new Date(Date.UTC(2040, 0, 3)))).toBeUndefined();
      expect(await store.revokeInvite('inv-none', at)).toBeUndefined();
      // Unchanged by the refused revokes.
      expect((await store.listInvites(2)).map((i) => [i.id, i.revokedAt ?? null])).toEqual([['inv-page-5', null], ['inv-page-4', null]]);
    } finally {
      if (peer !== store) await peer.close();
    }
  });

  it('keeps everything across a close and reopen', async () => {
    const p = push({ ownerId: 'reopen-owner' });
    await store.insertPush(p, audit('creation'));
    await store.blobs.write(p.token, 'f', Readable.from([Buffer.from('kept bytes')]));
    const before = await store.countPushes();
    await store.close();
    store = await backend.open();
    expect(await store.getPush(p.token)).toEqual(p);
    expect(await store.countPushes()).toEqual(before);
    expect((await readAll(await store.blobs.read(p.token, 'f', 0, 10))).toString()).toBe('kept bytes');
  });

  it('checkReady resolves while the store takes writes, and rejects with StoreNotReady once closed', async () => {
    await expect(store.checkReady()).resolves.toBeUndefined();
    const other = await backend.open().catch(() => undefined);
    // The embedded store's directory lock refuses a second handle; PostgreSQL opens a second pool.
    const closing = other ?? store;
    await closing.close();
    const refused = await closing.checkReady().then(() => null, (e: unknown) => e);
    expect(refused).toBeInstanceOf(StoreNotReady);
    expect((refused as StoreNotReady).category).toMatch(/^the store is (closed|unreachable)$/);
    if (!other) store = await backend.open();
  });
});
