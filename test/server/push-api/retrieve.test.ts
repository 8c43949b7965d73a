import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, BASE_KEYS, createPush, ISO_MS } from '../../support/http.js';
import { createUserWithToken, startServer, type TestServer } from '../../support/server.js';

let server: TestServer;
let owner: string;
let other: string;

beforeAll(async () => {
  server = await startServer();
  ({ token: owner } = await createUserWithToken(server, 'owner@example.com'));
  ({ token: other } = await createUserWithToken(server, 'other@example.com'));
});
afterAll(() => server.stop());

const audit = async (token: string) => {
  const res = await api.get(server, `/api/v2/pushes/${token}/audit`, { token: owner });
  expect(res.status).toBe(200);
  return (res.body.logs as { kind: string }[]).map((l) => l.kind);
};

describe('GET /api/v2/pushes/:token', () => {
  it('delivers the payload with the base keys then payload and files, counting a view', async () => {
    const p = await createPush(server, { payload: 'the secret', expire_after_views: 3 });
    const res = await api.get(server, `/api/v2/pushes/${p.url_token}`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual([...BASE_KEYS, 'payload', 'files']);
    expect(res.body).toMatchObject({ payload: 'the secret', files: [], expired: false, views_remaining: 2, expire_after_views: 3, url_token: p.url_token });
    expect(res.body.updated_at).toMatch(ISO_MS);
    const again = await api.get(server, `/api/v2/pushes/${p.url_token}`);
    expect(again.body.views_remaining).toBe(1);
  });

  it('the last allowed view still delivers the payload, then the push is expired without payload', async () => {
    const p = await createPush(server, { payload: 'two views', expire_after_views: 2 }, owner);
    const first = await api.get(server, `/api/v2/pushes/${p.url_token}`);
    expect(first.body).toMatchObject({ payload: 'two views', expired: false, views_remaining: 1 });
    const last = await api.get(server, `/api/v2/pushes/${p.url_token}`);
    expect(last.status).toBe(200);
    expect(last.body).toMatchObject({ payload: 'two views', expired: false, views_remaining: 0, expired_on: null, deleted: false });
    const after = await api.get(server, `/api/v2/pushes/${p.url_token}`);
    expect(after.status).toBe(200);
    expect(after.body).toMatchObject({ payload: null, files: [], expired: true, views_remaining: 0, days_remaining: 7, deleted: false });
    expect(after.body.expired_on).toMatch(ISO_MS);
    expect(Object.keys(after.body)).toEqual([...BASE_KEYS, 'payload', 'files']);
    expect(await audit(p.url_token)).toEqual(['creation', 'view', 'view', 'failed_view']);
    // Also in the owner's expired list, not in the active one.
    const expiredList = await api.get(server, '/api/v2/pushes/expired', { token: owner });
    expect(expiredList.body.map((r: any) => r.url_token)).toContain(p.url_token);
    const activeList = await api.get(server, '/api/v2/pushes/active', { token: owner });
    expect(activeList.body.map((r: any) => r.url_token)).not.toContain(p.url_token);
  });

  it('views by the owner are not counted and are audited as owner_view', async () => {
    const p = await createPush(server, { payload: 'owned', expire_after_views: 1 }, owner);
    for (let i = 0; i < 3; i++) {
      const res = await api.get(server, `/api/v2/pushes/${p.url_token}`, { token: owner });
      expect(res.body).toMatchObject({ payload: 'owned', expired: false, views_remaining: 1 });
    }
    // Another signed-in user is an ordinary viewer.
    const res = await api.get(server, `/api/v2/pushes/${p.url_token}`, { token: other });
    expect(res.body).toMatchObject({ payload: 'owned', views_remaining: 0 });
    const gone = await api.get(server, `/api/v2/pushes/${p.url_token}`, { token: owner });
    expect(gone.body).toMatchObject({ payload: null, expired: true });
    expect(await audit(p.url_token)).toEqual(['creation', 'owner_view', 'owner_view', 'owner_view', 'view', 'failed_view']);
  });

  it('HEAD counts no view (link checkers must not burn a one-view push)', async () => {
    const p = await createPush(server, { payload: 'headless', expire_after_views: 1 });
    for (const path of [`/api/v2/pushes/${p.url_token}`, `/api/v2/pushes/${p.url_token}.json`]) {
      const head = await fetch(server.url + path, { method: 'HEAD' });
      expect(head.status).toBe(200);
    }
    expect((await fetch(`${server.url}/api/v2/pushes/abcdefghijklmnopqrs`, { method: 'HEAD' })).status).toBe(404);
    const shown = await api.get(server, `/api/v2/pushes/${p.url_token}`);
    expect(shown.body).toMatchObject({ payload: 'headless', views_remaining: 0 });
  });

  it('HEAD on the legacy JSON address (json_url) counts no view either', async () => {
    const p = await createPush(server, { payload: 'headless v1', expire_after_views: 1 });
    expect((await fetch(p.json_url, { method: 'HEAD' })).status).toBe(200);
    expect((await api.get(server, `/api/v2/pushes/${p.url_token}`)).body.payload).toBe('headless v1');
  });

  it('unknown and malformed tokens are 404 not-found', async () => {
    for (const t of ['abcdefghijklmnopqrs', 'UPPERCASE', 'a'.repeat(65), '%2e%2e', 'has%20space', 'x.y', '%00']) {
      for (const suffix of ['', '/preview']) {
        const res = await api.get(server, `/api/v2/pushes/${t}${suffix}`);
        expect.soft([t, suffix, res.status, res.body]).toEqual([t, suffix, 404, { error: 'not-found' }]);
      }
      const del = await api.delete(server, `/api/v2/pushes/${t}`);
      expect.soft([t, 'DELETE', del.status]).toEqual([t, 'DELETE', 404]);
    }
  });

  it('concurrent retrievals of a one-view push deliver the payload exactly once', async () => {
    const p = await createPush(server, { payload: 'only once', expire_after_views: 1 });
    const results = await Promise.all(Array.from({ length: 20 }, () => api.get(server, `/api/v2/pushes/${p.url_token}`)));
    expect(results.every((r) => r.status === 200)).toBe(true);
    const delivered = results.filter((r) => r.body.payload === 'only once');
    expect(delivered).toHaveLength(1);
    expect(delivered[0]!.body).toMatchObject({ expired: false, views_remaining: 0 });
    for (const r of results.filter((x) => x !== delivered[0])) expect(r.body).toMatchObject({ payload: null, expired: true });
  });

  it('concurrent retrievals of a three-view push deliver exactly three times', async () => {
    const p = await createPush(server, { payload: 'thrice', expire_after_views: 3 });
    const results = await Promise.all(Array.from({ length: 15 }, () => api.get(server, `/api/v2/pushes/${p.url_token}`)));
    expect(results.filter((r) => r.body.payload === 'thrice')).toHaveLength(3);
    expect(results.filter((r) => r.body.payload === 'thrice').map((r) => r.body.views_remaining).sort()).toEqual([0, 1, 2]);
  });
});

describe('the record’s URLs work', () => {
  it('json_url answers JSON with the payload (a working address, unlike the reference), html_url a page', async () => {
    const p = await createPush(server, { payload: 'via json_url', expire_after_views: 3 });
    const page = await fetch(p.html_url);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    await page.text();
    const res = await api.get(server, new URL(p.json_url).pathname);
    expect(res.status).toBe(200);
    expect(res.body.payload).toBe('via json_url');
    // The retrieval-step page counts no view; the JSON retrieval counts one.
    expect((await api.get(server, `/api/v2/pushes/${p.url_token}`)).body.views_remaining).toBe(1);
  });
});

describe('GET /api/v2/pushes/:token/preview', () => {
  it('gives only the secret URL and counts no view', async () => {
    const p = await createPush(server, { payload: 'preview me', expire_after_views: 1 });
    for (let i = 0; i < 3; i++) {
      const res = await api.get(server, `/api/v2/pushes/${p.url_token}/preview`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ url: `${server.url}/p/${p.url_token}/r` });
    }
    const shown = await api.get(server, `/api/v2/pushes/${p.url_token}`);
    expect(shown.body.payload).toBe('preview me');
    const p2 = await createPush(server, { payload: 'x', retrieval_step: false });
    expect((await api.get(server, `/api/v2/pushes/${p2.url_token}/preview`)).body).toEqual({ url: `${server.url}/p/${p2.url_token}` });
  });

  it('accepts a trailing .json', async () => {
    const p = await createPush(server, { payload: 'x' });
    const res = await api.get(server, `/api/v2/pushes/${p.url_token}/preview.json`);
    expect(res.status).toBe(200);
    expect(res.body.url).toContain(p.url_token);
  });
});

describe('passphrases', () => {
  it('wrong or missing passphrase: 401 with the reference message and a failed_passphrase entry; the right one delivers', async () => {
    const p = await createPush(server, { payload: 'locked', passphrase: 'open sesame', expire_after_views: 2 }, owner);
    expect(p.passphrase).toBe('[FILTERED]');
    const missing = await api.get(server, `/api/v2/pushes/${p.url_token}`);
    expect(missing.status).toBe(401);
    // Password Pusher's whole body: clients show `message`, which says how to give the passphrase.
    expect(missing.body).toEqual({
      error: 'That passphrase is incorrect.',
      message: "This push requires a passphrase. Please provide it using the 'passphrase' parameter (e.g. ?passphrase=mysecret)",
      status: 'unauthorized',
    });
    expect(missing.text).not.toContain('locked');
    const empty = await api.get(server, `/api/v2/pushes/${p.url_token}?passphrase=`);
    expect(empty.status).toBe(401);
    const wrong = await api.get(server, `/api/v2/pushes/${p.url_token}?passphrase=open%20sesam`);
    expect(wrong.status).toBe(401);
    expect(wrong.body.error).toBe('That passphrase is incorrect.');
    // Wrong passphrases count no view.
    const right = await api.get(server, `/api/v2/pushes/${p.url_token}?passphrase=${encodeURIComponent('open sesame')}`);
    expect(right.status).toBe(200);
    expect(right.body).toMatchObject({ payload: 'locked', views_remaining: 1, passphrase: '[FILTERED]' });
    expect(await audit(p.url_token)).toEqual(['creation', 'failed_passphrase', 'failed_passphrase', 'failed_passphrase', 'view']);
  });

  it('the sixth attempt within a minute is 429, even with the right passphrase', async () => {
    const p = await createPush(server, { payload: 'brute', passphrase: 'pw' });
    for (let i = 0; i < 5; i++) expect((await api.get(server, `/api/v2/pushes/${p.url_token}?passphrase=nope${i}`)).status).toBe(401);
    const sixth = await api.get(server, `/api/v2/pushes/${p.url_token}?passphrase=pw`);
    expect(sixth.status).toBe(429);
    expect(sixth.body).toEqual({ error: 'Too many passphrase attempts. Please try again in a minute.' });
    expect(sixth.headers.get('retry-after')).toBeTruthy();
    // Limited per push: another push is unaffected.
    const q = await createPush(server, { payload: 'other', passphrase: 'pw' });
    expect((await api.get(server, `/api/v2/pushes/${q.url_token}?passphrase=pw`)).body.payload).toBe('other');
  });

  it('only failed attempts count towards the limit: many viewers with the right passphrase are never locked out', async () => {
    const p = await createPush(server, { payload: 'popular', passphrase: 'pw', expire_after_views: 20 });
    for (let i = 0; i < 12; i++) {
      const res = await api.get(server, `/api/v2/pushes/${p.url_token}?passphrase=pw`);
      expect([i, res.status]).toEqual([i, 200]);
    }
    for (let i = 0; i < 5; i++) expect((await api.get(server, `/api/v2/pushes/${p.url_token}?passphrase=x`)).status).toBe(401);
    expect((await api.get(server, `/api/v2/pushes/${p.url_token}?passphrase=pw`)).status).toBe(429);
  });

  it('passphrases are compared exactly (Unicode, case)', async () => {
    const pw = 'Пароль 🔑';
    const p = await createPush(server, { payload: 'uni', passphrase: pw, expire_after_views: 3 });
    expect((await api.get(server, `/api/v2/pushes/${p.url_token}?passphrase=${encodeURIComponent(pw.toLowerCase())}`)).status).toBe(401);
    const ok = await api.get(server, `/api/v2/pushes/${p.url_token}?passphrase=${encodeURIComponent(pw)}`);
    expect(ok.body.payload).toBe('uni');
  });

  it('the owner needs no passphrase', async () => {
    const p = await createPush(server, { payload: 'mine', passphrase: 'pw' }, owner);
    const res = await api.get(server, `/api/v2/pushes/${p.url_token}`, { token: owner });
    expect(res.status).toBe(200);
    expect(res.body.payload).toBe('mine');
  });

  it('after expiry the record still says a passphrase was set, and the push answers expired without asking', async () => {
    const p = await createPush(server, { payload: 'x', passphrase: 'pw', expire_after_views: 1 });
    expect((await api.get(server, `/api/v2/pushes/${p.url_token}?passphrase=pw`)).body.payload).toBe('x');
    const after = await api.get(server, `/api/v2/pushes/${p.url_token}`);
    expect(after.status).toBe(200);
    expect(after.body).toMatchObject({ expired: true, payload: null });
    expect(after.body.passphrase).not.toBe('pw');
  });
});
