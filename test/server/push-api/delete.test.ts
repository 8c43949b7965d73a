import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, BASE_KEYS, createPush, ISO_MS } from '../../support/http.js';
import { createUserWithToken, startServer, type TestServer } from '../../support/server.js';

let server: TestServer;
let owner: string;
let other: string;

beforeAll(async () => {
  server = await startServer();
  ({ token: owner } = await createUserWithToken(server, 'del-owner@example.com'));
  ({ token: other } = await createUserWithToken(server, 'del-other@example.com'));
});
afterAll(() => server.stop());

describe('DELETE /api/v2/pushes/:token', () => {
  it('owner deletes: 200 with the base keys only, deleted and expired; then retrieval is expired', async () => {
    const p = await createPush(server, { payload: 'to delete', note: 'n', deletable_by_viewer: false }, owner);
    const res = await api.delete(server, `/api/v2/pushes/${p.url_token}`, { token: owner });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual([...BASE_KEYS]);
    // Password Pusher computes the figures for expired records too (here: nothing used up yet).
    expect(res.body).toMatchObject({ url_token: p.url_token, expired: true, deleted: true, days_remaining: 7, views_remaining: 5 });
    expect(res.body.expired_on).toMatch(ISO_MS);
    expect(res.text).not.toContain('to delete');
    const shown = await api.get(server, `/api/v2/pushes/${p.url_token}`);
    expect(shown.status).toBe(200);
    expect(shown.body).toMatchObject({ expired: true, deleted: true, payload: null, files: [] });
    // A retrieval after expiry is a failed view, and Password Pusher counts those too.
    expect(shown.body.views_remaining).toBe(4);
    // Even the owner no longer gets the payload.
    expect((await api.get(server, `/api/v2/pushes/${p.url_token}`, { token: owner })).body.payload).toBeNull();
    const logs = (await api.get(server, `/api/v2/pushes/${p.url_token}/audit`, { token: owner })).body.logs.map((l: any) => l.kind);
    expect(logs).toEqual(['creation', 'expire', 'failed_view', 'failed_view']);
  });

  it('not deletable by viewers: 401 anonymous, 403 another user, and the push stays', async () => {
    const p = await createPush(server, { payload: 'keep', deletable_by_viewer: false }, owner);
    const anon = await api.delete(server, `/api/v2/pushes/${p.url_token}`);
    expect(anon.status).toBe(401);
    expect(typeof anon.body.error).toBe('string');
    const foreign = await api.delete(server, `/api/v2/pushes/${p.url_token}`, { token: other });
    expect(foreign.status).toBe(403);
    expect(foreign.body).toEqual({ error: "That push doesn't belong to you." });
    const still = await api.get(server, `/api/v2/pushes/${p.url_token}`);
    expect(still.body).toMatchObject({ payload: 'keep', expired: false });
  });

  it('anonymous push not deletable by viewers: nobody can delete it', async () => {
    const p = await createPush(server, { payload: 'anon keep', deletable_by_viewer: false });
    expect((await api.delete(server, `/api/v2/pushes/${p.url_token}`)).status).toBe(401);
    expect((await api.delete(server, `/api/v2/pushes/${p.url_token}`, { token: other })).status).toBe(403);
  });

  it('deletable_by_viewer: anyone may delete (anonymous and other users)', async () => {
    const a = await createPush(server, { payload: 'a' }, owner);
    const resA = await api.delete(server, `/api/v2/pushes/${a.url_token}`);
    expect(resA.status).toBe(200);
    expect(resA.body).toMatchObject({ deleted: true, expired: true });
    const b = await createPush(server, { payload: 'b', deletable_by_viewer: true });
    const resB = await api.delete(server, `/api/v2/pushes/${b.url_token}`, { token: other });
    expect(resB.status).toBe(200);
    expect(resB.body.deleted).toBe(true);
  });

  it('deleting an already expired push answers 200 with the record; deleting twice too', async () => {
    const p = await createPush(server, { payload: 'x', expire_after_views: 1, deletable_by_viewer: false }, owner);
    await api.get(server, `/api/v2/pushes/${p.url_token}`);
    const expiredRec = (await api.get(server, `/api/v2/pushes/${p.url_token}`)).body;
    expect(expiredRec).toMatchObject({ expired: true, deleted: false });
    const del = await api.delete(server, `/api/v2/pushes/${p.url_token}`, { token: owner });
    expect(del.status).toBe(200);
    expect(del.body).toMatchObject({ expired: true, deleted: true });
    // The expiry time is the first one.
    expect(del.body.expired_on).toBe(expiredRec.expired_on);
    const again = await api.delete(server, `/api/v2/pushes/${p.url_token}`, { token: owner });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ expired: true, deleted: true, expired_on: expiredRec.expired_on });
    // Only one expire entry for the delete (the second delete changes nothing).
    const kinds = (await api.get(server, `/api/v2/pushes/${p.url_token}/audit`, { token: owner })).body.logs.map((l: any) => l.kind);
    expect(kinds.filter((k: string) => k === 'expire')).toHaveLength(1);
  });

  it('an invalid token on DELETE is 401, even for a deletable push', async () => {
    const p = await createPush(server, { payload: 'x' });
    const res = await api.delete(server, `/api/v2/pushes/${p.url_token}`, { token: 'not-a-real-token' });
    expect(res.status).toBe(401);
    expect((await api.get(server, `/api/v2/pushes/${p.url_token}`)).body.payload).toBe('x');
  });

  it('unknown token is 404', async () => {
    const res = await api.delete(server, '/api/v2/pushes/abcdefghijklmnopqrs', { token: owner });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'not-found' });
  });
});
