import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { api, createPush, secret, waitFor } from '../../support/http.js';
import { storedBlobs, storedContaining } from '../../support/stored-data.js';
import { createUserWithToken, startServer, type TestServer } from '../../support/server.js';

/**
 * Expiry by time. The server runs in this process, so faking only `Date` (timers stay real)
 * moves the server's clock: pushes age without waiting, over real HTTP, and the real expiry
 * sweeper (every second here) sees the same clock.
 */
const MINUTE = 60_000;
const DAY = 1440 * MINUTE;

let server: TestServer;
let owner: string;

beforeAll(async () => {
  vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
  server = await startServer({ EXPIRY_SWEEP_SECONDS: '1', PURGE_COMPACTION_SECONDS: '0' });
  ({ token: owner } = await createUserWithToken(server, 'expiry@example.com'));
});
afterAll(async () => {
  await server.stop();
  vi.useRealTimers();
});

const advance = (ms: number) => vi.setSystemTime(Date.now() + ms);
const kinds = async (token: string) => (await api.get(server, `/api/v2/pushes/${token}/audit`, { token: owner })).body.logs.map((l: any) => l.kind);

/** The sealed payload as the store holds it. */
async function sealedPayloadOf(token: string): Promise<string> {
  return (await server.server.store.getPush(server.server.pushes.storageId(token)))!.payload!;
}

const storeHolds = async (needle: string) => (await storedContaining(server, needle)).length > 0;

describe('expiry by days', () => {
  it('days_remaining counts whole days elapsed; the push expires when its days are up (checked on access)', async () => {
    const p = await createPush(server, { payload: 'three days', expire_after_days: 3, expire_after_views: 50 }, owner);
    expect(p.days_remaining).toBe(3);
    advance(DAY + MINUTE);
    expect((await api.get(server, `/api/v2/pushes/${p.url_token}`)).body).toMatchObject({ payload: 'three days', days_remaining: 2, expired: false });
    advance(DAY);
    expect((await api.get(server, `/api/v2/pushes/${p.url_token}`)).body).toMatchObject({ days_remaining: 1, expired: false });
    advance(DAY - 2 * MINUTE); // 3 days minus a minute after creation
    expect((await api.get(server, `/api/v2/pushes/${p.url_token}`)).body).toMatchObject({ payload: 'three days', days_remaining: 1, expired: false });
    advance(2 * MINUTE);
    const gone = await api.get(server, `/api/v2/pushes/${p.url_token}`);
    expect(gone.status).toBe(200);
    expect(gone.body).toMatchObject({ payload: null, files: [], expired: true, days_remaining: 0, deleted: false });
    expect(gone.body.expired_on).not.toBeNull();
    const k = await kinds(p.url_token);
    expect(k.slice(0, 4)).toEqual(['creation', 'view', 'view', 'view']);
    expect(k.slice(4)).toEqual(['expire', 'failed_view']);
  });

  it('the active list applies time expiry on access: a push past its days moves to the expired list before any sweep', async () => {
    const p = await createPush(server, { payload: 'list me', expire_after_days: 1 }, owner);
    const tokens = async (state: string) => (await api.get(server, `/api/v2/pushes/${state}`, { token: owner })).body.map((r: any) => r.url_token);
    expect(await tokens('active')).toContain(p.url_token);
    advance(DAY + MINUTE);
    expect(await tokens('active')).not.toContain(p.url_token);
    expect(await tokens('expired')).toContain(p.url_token);
  });

  it('the legacy duration code 0 means 15 minutes', async () => {
    const p = await createPush(server, { payload: 'quarter hour', expire_after_duration: 0, expire_after_views: 50 });
    advance(14 * MINUTE);
    expect((await api.get(server, `/api/v2/pushes/${p.url_token}`)).body).toMatchObject({ payload: 'quarter hour', expired: false });
    advance(2 * MINUTE);
    expect((await api.get(server, `/api/v2/pushes/${p.url_token}`)).body).toMatchObject({ payload: null, expired: true });
  });

  it('the periodic sweep expires pushes nobody opens, keeps name, note and audit, and purges the sealed payload from the store', async () => {
    const payload = secret('sweep-payload');
    const p = await createPush(server, { payload, note: 'sweep note', name: 'sweep name', expire_after_days: 1 }, owner);
    const sealed = await sealedPayloadOf(p.url_token);
    expect(await storeHolds(sealed)).toBe(true);
    advance(DAY + MINUTE);
    // No retrieval: only the sweeper can move it to the expired list.
    await waitFor(
      async () => (await api.get(server, '/api/v2/pushes/expired', { token: owner })).body.some((r: any) => r.url_token === p.url_token),
      5000,
      'the sweeper to expire the push',
    );
    const listed = (await api.get(server, '/api/v2/pushes/expired', { token: owner })).body.find((r: any) => r.url_token === p.url_token);
    expect(listed).toMatchObject({ expired: true, note: 'sweep note', name: 'sweep name', deleted: false });
    expect((await api.get(server, '/api/v2/pushes/active', { token: owner })).body.map((r: any) => r.url_token)).not.toContain(p.url_token);
    expect(await kinds(p.url_token)).toEqual(['creation', 'expire']);
    // After expiry a compaction rewrites the snapshot and empties the journal: the sealed
    // payload is then in neither file.
    await waitFor(async () => !(await storeHolds(sealed)), 5000, 'compaction to drop the sealed payload');
    expect(await storedContaining(server, payload)).toEqual([]);
  });

  it('files of a push expired by days are deleted from disk by the sweep', async () => {
    const fd = new FormData();
    fd.append('push[expire_after_days]', '1');
    fd.append('push[files][]', new Blob(['day file']), 'day.txt');
    const res = await api.post(server, '/api/v2/pushes', { token: owner, raw: fd });
    expect(res.status).toBe(201);
    expect(await storedBlobs(server, res.body.url_token)).toHaveLength(1);
    advance(DAY + MINUTE);
    await waitFor(async () => (await storedBlobs(server, res.body.url_token)).length === 0, 5000, 'the sweeper to delete the files');
    expect((await api.get(server, `/api/v2/pushes/${res.body.url_token}`)).body).toMatchObject({ expired: true, files: [] });
  });

  it('files kept for the last viewer are purged after their grace window', async () => {
    const fd = new FormData();
    fd.append('push[expire_after_views]', '1');
    fd.append('push[files][]', new Blob(['grace file']), 'grace.txt');
    const res = await api.post(server, '/api/v2/pushes', { token: owner, raw: fd });
    const last = await api.get(server, `/api/v2/pushes/${res.body.url_token}`);
    const url = last.body.files[0].url as string;
    expect((await fetch(url)).status).toBe(200);
    advance(16 * MINUTE);
    await waitFor(async () => (await storedBlobs(server, res.body.url_token)).length === 0, 5000, 'the sweeper to purge the files');
    expect([403, 404]).toContain((await fetch(url)).status);
  });

  it('a push expired by time can still be deleted by its owner (200, deleted: true)', async () => {
    const p = await createPush(server, { payload: 'old', expire_after_days: 1 }, owner);
    advance(2 * DAY);
    const del = await api.delete(server, `/api/v2/pushes/${p.url_token}`, { token: owner });
    expect(del.status).toBe(200);
    expect(del.body).toMatchObject({ expired: true, deleted: true, days_remaining: 0 });
  });
});

describe('retention (PURGE_EXPIRED_AFTER_DAYS)', () => {
  it('deletes an expired push, its audit trail and its files that many days after expiry; keeps younger ones', async () => {
    const s = await startServer({ EXPIRY_SWEEP_SECONDS: '1', PURGE_EXPIRED_AFTER_DAYS: '3' });
    try {
      const { token } = await createUserWithToken(s, 'retention@example.com');
      const fd = new FormData();
      fd.append('push[files][]', new Blob(['retained file']), 'r.txt');
      fd.append('push[expire_after_views]', '1');
      const old = (await api.post(s, '/api/v2/pushes', { token, raw: fd })).body.url_token as string;
      await api.delete(s, `/api/v2/pushes/${old}`, { token }); // expired now
      advance(2 * DAY);
      const younger = (await createPush(s, { payload: 'younger', expire_after_views: 1 }, token)).url_token as string;
      await api.delete(s, `/api/v2/pushes/${younger}`, { token });
      advance(DAY + MINUTE); // `old` expired 3 days and a minute ago, `younger` a day ago
      await waitFor(async () => (await api.get(s, `/api/v2/pushes/${old}`)).status === 404, 5000, 'retention to delete the old push');
      expect((await api.get(s, `/api/v2/pushes/${old}/audit`, { token })).status).toBe(404);
      expect((await api.get(s, '/api/v2/pushes/expired', { token })).body.map((r: any) => r.url_token)).toEqual([younger]);
      expect(await storedBlobs(s, old)).toEqual([]);
      // Not even the token is left, once the compaction the deletion asked for has run (it runs
      // beside requests, so a compaction already under way, e.g. started by the failed views'
      // writes above, may finish first).
      await waitFor(async () => (await storedContaining(s, old)).length === 0, 5000, 'the compaction to erase every trace of the old push');
      expect((await api.get(s, `/api/v2/pushes/${younger}`)).body).toMatchObject({ expired: true });
    } finally {
      await s.stop();
    }
  });
});
