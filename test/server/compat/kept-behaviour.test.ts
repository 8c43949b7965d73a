import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createPush } from '../../support/http.js';
import { createUserWithToken, startServer, type TestServer } from '../../support/server.js';

/**
 * Answers that already match Password Pusher's current source (2.11.x, checked Aug 2026) and must
 * stay as they are. Releases before 1.56 (May 2025) answered some of these differently (200 with
 * an error for a wrong passphrase, 422 for deleting an expired or not deletable push); clients
 * written then (e.g. PwPush-PHP) are noted in the README's compatibility table, not followed.
 */
let server: TestServer;
let owner: string;

beforeAll(async () => {
  server = await startServer();
  ({ token: owner } = await createUserWithToken(server, 'kept@example.com'));
});
afterAll(() => server.stop());

describe('a wrong passphrase', () => {
  it.each(['/api/v2/pushes/:t', '/p/:t.json', '/api/v2/pushes/:t.json'])('is 401 with an error body and delivers nothing (%s)', async (pattern) => {
    const p = await createPush(server, { payload: 'behind a passphrase', passphrase: 'right one', expire_after_views: 2 });
    const path = pattern.replace(':t', p.url_token);
    for (const query of ['', '?passphrase=wrong', '?passphrase=']) {
      const res = await api.get(server, path + query);
      expect.soft([query, res.status]).toEqual([query, 401]);
      expect(res.body).toMatchObject({ error: 'That passphrase is incorrect.' });
      expect(res.text).not.toContain('behind a passphrase');
    }
    expect((await api.get(server, `${path}?passphrase=right%20one`)).body).toMatchObject({ payload: 'behind a passphrase', views_remaining: 1 });
  });
});

describe('DELETE', () => {
  it('of a push not deletable by viewers, by an anonymous caller: 401 with an error body (v2 and v1); the push stays', async () => {
    const p = await createPush(server, { payload: 'stays', deletable_by_viewer: false }, owner);
    for (const path of [`/api/v2/pushes/${p.url_token}`, `/p/${p.url_token}.json`]) {
      const res = await api.delete(server, path);
      expect.soft([path, res.status]).toEqual([path, 401]);
      expect(typeof res.body.error).toBe('string');
    }
    expect((await api.get(server, `/api/v2/pushes/${p.url_token}`)).body.payload).toBe('stays');
  });

  it('of an already expired push: 200 with the record, expired (by a delete, by views, by a v1 delete)', async () => {
    const deleted = await createPush(server, { payload: 'twice deleted' }, owner);
    await api.delete(server, `/api/v2/pushes/${deleted.url_token}`, { token: owner });
    const again = await api.delete(server, `/api/v2/pushes/${deleted.url_token}`, { token: owner });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ url_token: deleted.url_token, expired: true, deleted: true });

    const used = await createPush(server, { payload: 'one view', expire_after_views: 1 });
    await api.get(server, `/api/v2/pushes/${used.url_token}`);
    for (const path of [`/api/v2/pushes/${used.url_token}`, `/p/${used.url_token}.json`]) {
      const res = await api.delete(server, path);
      expect.soft([path, res.status]).toEqual([path, 200]);
      expect(res.body).toMatchObject({ url_token: used.url_token, expired: true });
      expect(res.body).not.toHaveProperty('payload');
    }
  });
});

describe('unset note and name', () => {
  it('are null in the create answer and in both lists (v2 and v1)', async () => {
    const p = await createPush(server, { payload: 'no labels' }, owner);
    expect(p).toMatchObject({ note: null, name: null });
    const v1 = await api.post(server, '/p.json', { json: { password: { payload: 'no labels either' } }, token: owner });
    expect(v1.body).toMatchObject({ note: null, name: null });
    const find = (list: Array<{ url_token: string }>, t: string) => list.find((r) => r.url_token === t);
    const active = (await api.get(server, '/api/v2/pushes/active', { token: owner })).body;
    expect(find(active, p.url_token)).toMatchObject({ note: null, name: null });
    expect(find((await api.get(server, '/p/active.json', { token: owner })).body, v1.body.url_token)).toMatchObject({ note: null, name: null });
    await api.delete(server, `/api/v2/pushes/${p.url_token}`, { token: owner });
    expect(find((await api.get(server, '/api/v2/pushes/expired', { token: owner })).body, p.url_token)).toMatchObject({ note: null, name: null });
  });

  it('set values come back as set', async () => {
    const p = await createPush(server, { payload: 'labelled', note: 'for ops', name: 'db password' }, owner);
    expect(p).toMatchObject({ note: 'for ops', name: 'db password' });
  });
});
