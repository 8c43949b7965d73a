import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, BASE_KEYS, OWNER_KEYS, createPush, ISO_MS } from '../../support/http.js';
import { createUserWithToken, startServer, type TestServer } from '../../support/server.js';

let server: TestServer;
let token: string;

beforeAll(async () => {
  server = await startServer();
  ({ token } = await createUserWithToken(server, 'creator@example.com'));
});
afterAll(() => server.stop());

describe('POST /api/v2/pushes', () => {
  it('answers 201 with the fifteen base keys in order, then note and name, and the defaults', async () => {
    const before = Date.now();
    const res = await api.post(server, '/api/v2/pushes', { json: { push: { payload: 'hello' } } });
    expect(res.status).toBe(201);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const r = res.body;
    expect(Object.keys(r)).toEqual([...OWNER_KEYS]);
    expect(r).toMatchObject({
      expire_after_views: 5,
      expired: false,
      deletable_by_viewer: true,
      retrieval_step: true,
      expired_on: null,
      passphrase: '',
      expire_after_days: 7,
      days_remaining: 7,
      views_remaining: 5,
      deleted: false,
      note: null,
      name: null,
    });
    expect(r.url_token).toMatch(/^[a-z0-9_-]{19}$/);
    expect(r.created_at).toMatch(ISO_MS);
    expect(r.updated_at).toBe(r.created_at);
    const created = Date.parse(r.created_at);
    expect(created).toBeGreaterThanOrEqual(before - 1000);
    expect(created).toBeLessThanOrEqual(Date.now() + 1000);
    expect(r.html_url).toBe(`${server.url}/p/${r.url_token}/r`);
    expect(r.json_url).toBe(`${server.url}/p/${r.url_token}.json`);
    expect(r).not.toHaveProperty('payload');
    expect(r).not.toHaveProperty('kind');
  });

  it('stores the given options: days, views, booleans, name, note (note shown only to the creator)', async () => {
    const r = await createPush(
      server,
      { payload: 'x', expire_after_days: 3, expire_after_views: 9, retrieval_step: false, deletable_by_viewer: false, name: '  Label  ', note: 'my note' },
      token,
    );
    expect(r).toMatchObject({
      expire_after_days: 3,
      days_remaining: 3,
      expire_after_views: 9,
      views_remaining: 9,
      retrieval_step: false,
      deletable_by_viewer: false,
      name: 'Label',
      note: 'my note',
    });
    expect(r.html_url).toBe(`${server.url}/p/${r.url_token}`);
    // The retrieval of a non-owner does not carry note or name.
    const shown = await api.get(server, `/api/v2/pushes/${r.url_token}`);
    expect(shown.status).toBe(200);
    expect(shown.body).not.toHaveProperty('note');
    expect(shown.body).not.toHaveProperty('name');
  });

  it('accepts Rails truthy strings and numeric strings', async () => {
    const r = await createPush(server, { payload: 'x', expire_after_days: '2', expire_after_views: '3', retrieval_step: 'false', deletable_by_viewer: 'on' });
    expect(r).toMatchObject({ expire_after_days: 2, expire_after_views: 3, retrieval_step: false, deletable_by_viewer: true });
    const r2 = await createPush(server, { payload: 'x', retrieval_step: 'no', deletable_by_viewer: '0' });
    expect(r2).toMatchObject({ retrieval_step: false, deletable_by_viewer: false });
  });

  it('accepts the bounds of days (1..90) and views (1..100)', async () => {
    for (const [d, v] of [
      [1, 1],
      [90, 100],
    ]) {
      const r = await createPush(server, { payload: 'x', expire_after_days: d, expire_after_views: v });
      expect(r).toMatchObject({ expire_after_days: d, expire_after_views: v });
    }
  });

  it.each([
    [{ expire_after_days: 0 }, 'expire_after_days', /1.*90/],
    [{ expire_after_days: 91 }, 'expire_after_days', /1.*90/],
    [{ expire_after_days: -1 }, 'expire_after_days', /1.*90/],
    [{ expire_after_views: 0 }, 'expire_after_views', /1.*100/],
    [{ expire_after_views: 101 }, 'expire_after_views', /1.*100/],
  ])('refuses out-of-range limits %o with 422 naming the range', async (extra, field, range) => {
    const res = await api.post(server, '/api/v2/pushes', { json: { push: { payload: 'x', ...extra } } });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body)).toEqual([field]);
    expect(res.body[field].join(' ')).toMatch(range);
  });

  it('reports every field error at once', async () => {
    const res = await api.post(server, '/api/v2/pushes', { json: { push: { payload: 'x', expire_after_days: 0, expire_after_views: 1000 } } });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body).sort()).toEqual(['expire_after_days', 'expire_after_views']);
  });

  it('refuses an unknown kind with 422 on kind (the reference crashes)', async () => {
    const res = await api.post(server, '/api/v2/pushes', { json: { push: { payload: 'x', kind: 'banana' } } });
    expect(res.status).toBe(422);
    expect(res.body).toHaveProperty('kind');
    expect(res.body.kind[0]).toMatch(/text/);
  });

  it('refuses a blank payload for a text push', async () => {
    for (const push of [{ payload: '' }, { name: 'no payload' }]) {
      const res = await api.post(server, '/api/v2/pushes', { json: { push } });
      expect(res.status).toBe(422);
      expect(res.body).toEqual({ payload: ["can't be blank"] });
    }
  });

  describe('kind url', () => {
    it('accepts http and https URLs; deletable_by_viewer is null even when asked for', async () => {
      for (const payload of ['http://example.com/a', 'https://example.com/b?c=d#e']) {
        const r = await createPush(server, { payload, kind: 'url', deletable_by_viewer: true });
        expect(r.deletable_by_viewer).toBeNull();
        const shown = await api.get(server, `/api/v2/pushes/${r.url_token}`);
        expect(shown.body.payload).toBe(payload);
        expect(shown.body.deletable_by_viewer).toBeNull();
      }
    });

    it.each(['javascript:alert(1)', 'data:text/html,<script>alert(1)</script>', 'ftp://example.com/file', 'example.com', 'JAVASCRIPT:alert(1)', ' javascript:alert(1)'])(
      'refuses %s with 422',
      async (payload) => {
        const res = await api.post(server, '/api/v2/pushes', { json: { push: { payload, kind: 'url' } } });
        expect(res.status).toBe(422);
        expect(res.body).toHaveProperty('payload');
      },
    );

    it('a url push cannot be deleted by a viewer', async () => {
      const r = await createPush(server, { payload: 'https://example.com', kind: 'url' });
      const del = await api.delete(server, `/api/v2/pushes/${r.url_token}`);
      expect(del.status).toBe(401);
    });
  });

  describe('kind qr', () => {
    it('accepts 1024 characters (counted as code points) and refuses 1025', async () => {
      const ok = await createPush(server, { payload: 'q'.repeat(1024), kind: 'qr' });
      const shown = await api.get(server, `/api/v2/pushes/${ok.url_token}`);
      expect(shown.body.payload).toHaveLength(1024);
      const emoji = await createPush(server, { payload: '😀'.repeat(1024), kind: 'qr' });
      expect(emoji.url_token).toBeTruthy();
      const res = await api.post(server, '/api/v2/pushes', { json: { push: { payload: 'q'.repeat(1025), kind: 'qr' } } });
      expect(res.status).toBe(422);
      expect(res.body.payload.join(' ')).toMatch(/1024/);
    });
  });

  it('text payloads larger than QR limit are fine for kind text', async () => {
    const r = await createPush(server, { payload: 'q'.repeat(5000) });
    const shown = await api.get(server, `/api/v2/pushes/${r.url_token}`);
    expect(shown.body.payload).toHaveLength(5000);
  });

  it('expire_after_duration (legacy code) is accepted: code 12 = 1 week, code 0 = 15 minutes (1 day shown)', async () => {
    const week = await createPush(server, { payload: 'x', expire_after_duration: 12 });
    expect(week.expire_after_days).toBe(7);
    const quarter = await createPush(server, { payload: 'x', expire_after_duration: 0 });
    expect(quarter.expire_after_days).toBe(1);
    const bad = await api.post(server, '/api/v2/pushes', { json: { push: { payload: 'x', expire_after_duration: 18 } } });
    expect(bad.status).toBe(422);
    expect(bad.body).toHaveProperty('expire_after_duration');
  });

  it('accepts form-encoded bodies with bracket keys', async () => {
    const body = new URLSearchParams({ 'push[payload]': 'form secret', 'push[expire_after_views]': '2', 'push[retrieval_step]': 'false' }).toString();
    const res = await api.post(server, '/api/v2/pushes', { raw: body, contentType: 'application/x-www-form-urlencoded' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ expire_after_views: 2, retrieval_step: false });
    const shown = await api.get(server, `/api/v2/pushes/${res.body.url_token}`);
    expect(shown.body.payload).toBe('form secret');
  });

  it('accepts a trailing .json on the path', async () => {
    const res = await api.post(server, '/api/v2/pushes.json', { json: { push: { payload: 'suffix' } } });
    expect(res.status).toBe(201);
    const shown = await api.get(server, `/api/v2/pushes/${res.body.url_token}.json`);
    expect(shown.status).toBe(200);
    expect(shown.body.payload).toBe('suffix');
  });

  it('concurrent creates all succeed with unique tokens', async () => {
    const results = await Promise.all(Array.from({ length: 40 }, (_, i) => api.post(server, '/api/v2/pushes', { json: { push: { payload: `c${i}` } } })));
    expect(results.map((r) => r.status)).toEqual(Array(40).fill(201));
    const tokens = new Set(results.map((r) => r.body.url_token));
    expect(tokens.size).toBe(40);
    // And each token holds its own payload.
    const shown = await Promise.all(results.map((r) => api.get(server, `/api/v2/pushes/${r.body.url_token}`)));
    expect(shown.map((s) => s.body.payload)).toEqual(results.map((_, i) => `c${i}`));
  });

  it('has no index, PUT or PATCH; accounts and requests are 404', async () => {
    for (const [method, path] of [
      ['GET', '/api/v2/pushes'],
      ['PUT', '/api/v2/pushes/abc'],
      ['PATCH', '/api/v2/pushes/abc'],
      ['GET', '/api/v2/accounts'],
      ['GET', '/api/v2/requests'],
      ['POST', '/api/v2/requests'],
    ] as const) {
      const res = await fetch(server.url + path, { method });
      expect.soft([method, path, res.status]).toEqual([method, path, 404]);
    }
  });

  it('BASE_URL is the origin of every secret URL (record, preview, file links), whatever the Host header', async () => {
    const s = await startServer({ BASE_URL: 'https://secrets.example.com/' });
    try {
      const { token: t } = await createUserWithToken(s, 'base@example.com');
      const r = (await api.post(s, '/api/v2/pushes', { json: { push: { payload: 'x' } }, headers: { host: 'evil.example' } })).body;
      expect(r.html_url).toBe(`https://secrets.example.com/p/${r.url_token}/r`);
      expect(r.json_url).toBe(`https://secrets.example.com/p/${r.url_token}.json`);
      expect((await api.get(s, `/api/v2/pushes/${r.url_token}/preview`)).body.url).toBe(`https://secrets.example.com/p/${r.url_token}/r`);
      const fd = new FormData();
      fd.append('push[files][]', new Blob(['f']), 'f.txt');
      const fp = (await api.post(s, '/api/v2/pushes', { token: t, raw: fd })).body;
      const shown = await api.get(s, `/api/v2/pushes/${fp.url_token}`);
      expect(shown.body.files[0].url.startsWith(`https://secrets.example.com/p/${fp.url_token}/files/`)).toBe(true);
    } finally {
      await s.stop();
    }
  });
});
