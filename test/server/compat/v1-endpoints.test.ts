import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, BASE_KEYS, OWNER_KEYS, createPush } from '../../support/http.js';
import { createUserWithToken, startServer, type TestServer } from '../../support/server.js';

/**
 * The legacy v1 JSON API that most third-party Password Pusher clients speak: `POST /p.json`
 * (`password`), `/f.json` (`file_push`), `/r.json` (`url`), show/delete/preview/audit/lists under
 * `/<prefix>/…json`, and `/api/v1/version`. Same rules as v2: same service methods.
 */

let server: TestServer;
let token: string;
let otherToken: string;

beforeAll(async () => {
  server = await startServer();
  ({ token } = await createUserWithToken(server, 'v1-owner@example.com'));
  ({ token: otherToken } = await createUserWithToken(server, 'v1-other@example.com'));
});
afterAll(() => server.stop());

function form(fields: Record<string, string>) {
  return { raw: new URLSearchParams(fields).toString(), contentType: 'application/x-www-form-urlencoded' };
}

async function v1Create(prefix: 'p' | 'f' | 'r', body: unknown, tok?: string) {
  return api.post(server, `/${prefix}.json`, { json: body, token: tok });
}

describe('GET /api/v1/version', () => {
  it.each(['/api/v1/version', '/api/v1/version.json'])('%s answers application_version, api_version 1.5, edition oss (+ our own version)', async (path) => {
    const res = await api.get(server, path);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(Object.keys(res.body)).toEqual(['application_version', 'api_version', 'edition', 'secret_push_version']);
    expect(res.body.api_version).toBe('1.5');
    expect(res.body.edition).toBe('oss');
    const v2 = await api.get(server, '/api/v2/version');
    expect(res.body.application_version).toBe(v2.body.application_version);
    expect(res.body.secret_push_version).toBe(v2.body.secret_push_version);
  });

  it('is public even with an invalid token', async () => {
    const res = await api.get(server, '/api/v1/version.json', { token: 'not-a-real-token' });
    expect(res.status).toBe(200);
    expect(res.body.api_version).toBe('1.5');
  });
});

describe('POST /p.json (body key `password`)', () => {
  it('creates a text push from the pwpush CLI JSON body and answers the v2 create record', async () => {
    const res = await v1Create('p', {
      password: { payload: 'cli secret', expire_after_days: 2, expire_after_views: 3, deletable_by_viewer: false, retrieval_step: true },
    });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body)).toEqual([...OWNER_KEYS]);
    expect(res.body).toMatchObject({
      expire_after_days: 2,
      expire_after_views: 3,
      views_remaining: 3,
      deletable_by_viewer: false,
      retrieval_step: true,
      expired: false,
      passphrase: '',
    });
    expect(res.body.url_token).toMatch(/^[a-z0-9_-]{11,19}$/);
    expect(res.body.html_url).toBe(`${server.url}/p/${res.body.url_token}/r`);
    expect(res.body).not.toHaveProperty('payload');
  });

  it('creates from a form-encoded body (PowerShell modules) with bracket keys', async () => {
    const res = await api.post(server, '/p.json', {
      ...form({
        'password[payload]': 'ps secret',
        'password[expire_after_days]': '4',
        'password[expire_after_views]': '6',
        'password[retrieval_step]': 'false',
        'password[deletable_by_viewer]': 'on',
        'password[note]': 'ticket 42',
        'password[name]': 'PS',
      }),
      token,
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ expire_after_days: 4, expire_after_views: 6, retrieval_step: false, deletable_by_viewer: true, note: 'ticket 42', name: 'PS' });
    const shown = await api.get(server, `/p/${res.body.url_token}.json`);
    expect(shown.body.payload).toBe('ps secret');
  });

  it('takes a kind from the body (url, qr), applying the same rules as v2', async () => {
    const url = await v1Create('p', { password: { payload: 'https://example.com/x', kind: 'url' } });
    expect(url.status).toBe(201);
    expect(url.body.deletable_by_viewer).toBeNull();
    const badUrl = await v1Create('p', { password: { payload: 'not a url', kind: 'url' } });
    expect(badUrl.status).toBe(422);
    expect(badUrl.body).toHaveProperty('payload');
    const longQr = await v1Create('p', { password: { payload: 'q'.repeat(1025), kind: 'qr' } });
    expect(longQr.status).toBe(422);
    expect(longQr.body.payload.join(' ')).toMatch(/1024/);
    const unknown = await v1Create('p', { password: { payload: 'x', kind: 'banana' } });
    expect(unknown.status).toBe(422);
    expect(unknown.body).toHaveProperty('kind');
  });

  it('applies the v2 validation: out-of-range days and views → 422 naming the range; blank payload', async () => {
    const res = await v1Create('p', { password: { payload: 'x', expire_after_days: 91, expire_after_views: 0 } });
    expect(res.status).toBe(422);
    expect(res.body.expire_after_days.join(' ')).toMatch(/1.*90/);
    expect(res.body.expire_after_views.join(' ')).toMatch(/1.*100/);
    const blank = await v1Create('p', { password: { payload: '' } });
    expect(blank.status).toBe(422);
    expect(blank.body).toEqual({ payload: ["can't be blank"] });
  });

  it.each([
    ['p', 'password'],
    ['f', 'file_push'],
    ['r', 'url'],
  ] as const)('/%s.json without its body key (%s) → 400 param is missing', async (prefix, key) => {
    const expected = { error: `param is missing or the value is empty or invalid: ${key}` };
    for (const body of [{}, { push: { payload: 'https://example.com' } }, { [key]: null }, { [key]: '' }, { [key]: {} }, { [key]: 'https://example.com' }, { [key]: ['x'] }]) {
      const res = await v1Create(prefix, body, token);
      expect.soft([body, res.status, res.body]).toEqual([body, 400, expected]);
    }
    const empty = await api.post(server, `/${prefix}.json`, { token });
    expect(empty.status).toBe(400);
    expect(empty.body).toEqual(expected);
    const formMissing = await api.post(server, `/${prefix}.json`, { ...form({ other: 'x' }), token });
    expect(formMissing.status).toBe(400);
    expect(formMissing.body).toEqual(expected);
  });

  it('a malformed JSON body is 400 with a JSON error', async () => {
    const res = await api.post(server, '/p.json', { raw: '{"password": {', contentType: 'application/json' });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/JSON/);
  });
});

describe('POST /r.json (body key `url`)', () => {
  it('creates a url push (kind implied), never deletable by viewers', async () => {
    const res = await api.post(server, '/r.json', { ...form({ 'url[payload]': 'https://example.com/target', 'url[deletable_by_viewer]': 'true' }), token });
    expect(res.status).toBe(201);
    expect(res.body.deletable_by_viewer).toBeNull();
    const shown = await api.get(server, `/r/${res.body.url_token}.json`);
    expect(shown.status).toBe(200);
    expect(shown.body.payload).toBe('https://example.com/target');
  });

  it('the kind is url whatever the body says; only http(s) URLs', async () => {
    const asText = await v1Create('r', { url: { payload: 'plain words', kind: 'text' } }, token);
    expect(asText.status).toBe(422);
    expect(asText.body).toHaveProperty('payload');
    for (const payload of ['javascript:alert(1)', 'data:text/html,x', 'ftp://example.com/f']) {
      const res = await v1Create('r', { url: { payload } }, token);
      expect.soft([payload, res.status]).toEqual([payload, 422]);
    }
  });
});

describe('POST /f.json (body key `file_push`, multipart)', () => {
  function fileForm(fields: Record<string, string>, files: Array<[string, string]>) {
    const fd = new FormData();
    for (const [k, v] of Object.entries(fields)) fd.append(k, v);
    for (const [name, content] of files) fd.append('file_push[files][]', new Blob([content], { type: 'text/plain' }), name);
    return fd;
  }

  it('creates a file push for an authenticated caller; show lists the files and the link downloads', async () => {
    const res = await api.post(server, '/f.json', {
      raw: fileForm({ 'file_push[payload]': 'see attached', 'file_push[expire_after_views]': '2' }, [
        ['a.txt', 'alpha contents'],
        ['b.txt', 'beta contents'],
      ]),
      token,
    });
    expect(res.status).toBe(201);
    expect(res.body.expire_after_views).toBe(2);
    const shown = await api.get(server, `/f/${res.body.url_token}.json`);
    expect(shown.status).toBe(200);
    expect(shown.body.payload).toBe('see attached');
    // Sorted: FileUpload records files in the order their writes complete (reported).
    expect(shown.body.files.map((f: { filename: string }) => f.filename).sort()).toEqual(['a.txt', 'b.txt']);
    const alpha = shown.body.files.find((f: { filename: string }) => f.filename === 'a.txt');
    const download = await fetch(alpha.url);
    expect(download.status).toBe(200);
    expect(await download.text()).toBe('alpha contents');
  });

  it('files alone (no other field) are a present body', async () => {
    const res = await api.post(server, '/f.json', { raw: fileForm({}, [['only.txt', 'only']]), token });
    expect(res.status).toBe(201);
    const shown = await api.get(server, `/p/${res.body.url_token}.json`);
    expect(shown.body.files).toHaveLength(1);
    expect(shown.body.payload).toBe('');
  });

  it('needs authentication (files require it by default): 401, even as JSON without files', async () => {
    const multipart = await api.post(server, '/f.json', { raw: fileForm({ 'file_push[payload]': 'x' }, [['a.txt', 'a']]) });
    expect(multipart.status).toBe(401);
    expect(multipart.body).toHaveProperty('error');
    const json = await v1Create('f', { file_push: { payload: 'x' } });
    expect(json.status).toBe(401);
  });

  it('a file push needs at least one file', async () => {
    const res = await v1Create('f', { file_push: { payload: 'no files', kind: 'text' } }, token);
    expect(res.status).toBe(422);
    expect(res.body).toHaveProperty('files');
  });

  it('POST /p.json with password[files][] makes a file push (as the reference does)', async () => {
    const fd = new FormData();
    fd.append('password[payload]', 'via p.json');
    fd.append('password[files][]', new Blob(['pfile']), 'p.txt');
    const res = await api.post(server, '/p.json', { raw: fd, token });
    expect(res.status).toBe(201);
    const shown = await api.get(server, `/p/${res.body.url_token}.json`);
    expect(shown.body.files.map((f: { filename: string }) => f.filename)).toEqual(['p.txt']);
  });
});

describe('GET /:prefix/:token.json (show)', () => {
  it('returns the same record as v2 show, counts a view, and the json_url works', async () => {
    const a = await createPush(server, { payload: 'same record', expire_after_views: 3 });
    const v1 = await api.get(server, `/p/${a.url_token}.json`);
    expect(v1.status).toBe(200);
    expect(Object.keys(v1.body)).toEqual([...BASE_KEYS, 'payload', 'files']);
    expect(v1.body).toMatchObject({ payload: 'same record', files: [], views_remaining: 2, expired: false });
    const v2 = await api.get(server, `/api/v2/pushes/${a.url_token}`);
    expect(Object.keys(v2.body)).toEqual(Object.keys(v1.body));
    expect(v2.body.views_remaining).toBe(1);
    const viaJsonUrl = await fetch(a.json_url);
    expect(viaJsonUrl.status).toBe(200);
    const last = (await viaJsonUrl.json()) as { payload: string; views_remaining: number };
    expect(last).toMatchObject({ payload: 'same record', views_remaining: 0 });
    const after = await api.get(server, `/p/${a.url_token}.json`);
    expect(after.body).toMatchObject({ expired: true, payload: null, files: [] });
  });

  it('HEAD counts no view on any prefix (link checkers must not burn a one-view push); unknown → 404', async () => {
    const a = await createPush(server, { payload: 'headless', expire_after_views: 1 });
    for (const prefix of ['p', 'f', 'r']) {
      const head = await fetch(`${server.url}/${prefix}/${a.url_token}.json`, { method: 'HEAD' });
      expect.soft([prefix, head.status]).toEqual([prefix, 200]);
    }
    expect((await fetch(`${server.url}/p/nosuchtoken1234.json`, { method: 'HEAD' })).status).toBe(404);
    const shown = await api.get(server, `/p/${a.url_token}.json`);
    expect(shown.body).toMatchObject({ payload: 'headless', views_remaining: 0 });
  });

  it('works under /f/ and /r/ for any push', async () => {
    const a = await createPush(server, { payload: 'any prefix', expire_after_views: 5 });
    for (const prefix of ['f', 'r']) {
      const res = await api.get(server, `/${prefix}/${a.url_token}.json`);
      expect.soft([prefix, res.status, res.body?.payload]).toEqual([prefix, 200, 'any prefix']);
    }
  });

  it('asks for the passphrase: ?passphrase= opens it, a wrong one is 401', async () => {
    const res = await v1Create('p', { password: { payload: 'guarded', passphrase: 'open sesame' } });
    expect(res.body.passphrase).toBe('[FILTERED]');
    const t = res.body.url_token;
    const missing = await api.get(server, `/p/${t}.json`);
    expect(missing.status).toBe(401);
    expect(missing.body.error).toBe('That passphrase is incorrect.');
    const wrong = await api.get(server, `/p/${t}.json?passphrase=nope`);
    expect(wrong.status).toBe(401);
    const right = await api.get(server, `/p/${t}.json?passphrase=${encodeURIComponent('open sesame')}`);
    expect(right.status).toBe(200);
    expect(right.body.payload).toBe('guarded');
  });

  it('unknown or malformed tokens → 404 {"error":"not-found"} on every v1 token path', async () => {
    for (const [method, path] of [
      ['GET', '/p/doesnotexist123.json'],
      ['DELETE', '/p/doesnotexist123.json'],
      ['GET', '/f/doesnotexist123/preview.json'],
      ['GET', '/r/doesnotexist123/audit.json'],
      ['GET', '/p/NOT.valid.json'],
      ['GET', '/p/UPPER/preview.json'],
    ] as const) {
      const res = await api[method === 'GET' ? 'get' : 'delete'](server, path, { token });
      expect.soft([method, path, res.status, res.body]).toEqual([method, path, 404, { error: 'not-found' }]);
    }
  });
});

describe('GET /:prefix/:token/preview.json', () => {
  it('answers only the secret URL and counts no view', async () => {
    const a = await createPush(server, { payload: 'peek', expire_after_views: 1 });
    for (const prefix of ['p', 'f', 'r']) {
      const res = await api.get(server, `/${prefix}/${a.url_token}/preview.json`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ url: `${server.url}/p/${a.url_token}/r` });
    }
    const shown = await api.get(server, `/p/${a.url_token}.json`);
    expect(shown.body.payload).toBe('peek');
  });
});

describe('DELETE /:prefix/:token.json', () => {
  it('expires a deletable push for anyone and answers the base record', async () => {
    const a = await createPush(server, { payload: 'bye', deletable_by_viewer: true });
    const res = await api.delete(server, `/p/${a.url_token}.json`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual([...BASE_KEYS]);
    // Figures are computed for expired records too, as Password Pusher does: nothing was viewed.
    expect(res.body).toMatchObject({ expired: true, deleted: true, views_remaining: 5 });
    const shown = await api.get(server, `/p/${a.url_token}.json`);
    expect(shown.body).toMatchObject({ expired: true, deleted: true, payload: null });
  });

  it('a push not deletable by viewers: 401 anonymous, 403 another account, 200 its owner', async () => {
    const a = await createPush(server, { payload: 'mine', deletable_by_viewer: false }, token);
    expect((await api.delete(server, `/r/${a.url_token}.json`)).status).toBe(401);
    expect((await api.delete(server, `/f/${a.url_token}.json`, { token: otherToken })).status).toBe(403);
    const own = await api.delete(server, `/p/${a.url_token}.json`, { token });
    expect(own.status).toBe(200);
    expect(own.body.deleted).toBe(true);
  });
});

describe('GET /:prefix/:token/audit.json', () => {
  it('answers {"views": [...]} in the v1 shape, for the owner only', async () => {
    const a = await createPush(server, { payload: 'audited', expire_after_views: 3, passphrase: 'pw' }, token);
    await api.get(server, `/p/${a.url_token}.json?passphrase=wrong`, { headers: { 'user-agent': 'bad-guess' } });
    await api.get(server, `/p/${a.url_token}.json?passphrase=pw`, { headers: { 'user-agent': 'viewer-agent', referer: 'https://chat.example/' } });
    await api.get(server, `/p/${a.url_token}.json`, { token }); // an owner view
    await api.delete(server, `/p/${a.url_token}.json`, { token });

    const res = await api.get(server, `/p/${a.url_token}/audit.json`, { token });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['views']);
    const views = res.body.views as Array<Record<string, unknown>>;
    // v1 never listed the creation or failed passphrase entries.
    expect(views).toHaveLength(3);
    for (const v of views) expect(Object.keys(v)).toEqual(['ip', 'user_agent', 'referrer', 'successful', 'created_at', 'updated_at', 'kind']);
    expect(views[0]).toMatchObject({ user_agent: 'viewer-agent', referrer: 'https://chat.example/', successful: true, kind: 0 });
    expect(views[1]).toMatchObject({ successful: false, kind: 0 }); // owner view
    expect(views[2]).toMatchObject({ successful: true, kind: 1 }); // expiry
    expect(JSON.stringify(res.body)).not.toContain('audited');

    // The v2 audit of the same push has every entry.
    const v2 = await api.get(server, `/api/v2/pushes/${a.url_token}/audit`, { token });
    expect(v2.body.logs.map((l: { kind: string }) => l.kind)).toEqual(['creation', 'failed_passphrase', 'view', 'owner_view', 'expire']);
  });

  it('anonymous → 401, another account → 403, bad page → 400', async () => {
    const a = await createPush(server, { payload: 'x' }, token);
    const anon = await api.get(server, `/f/${a.url_token}/audit.json`);
    expect(anon.status).toBe(401);
    const other = await api.get(server, `/p/${a.url_token}/audit.json`, { token: otherToken });
    expect(other.status).toBe(403);
    expect(other.body).toEqual({ error: "That push doesn't belong to you." });
    const page = await api.get(server, `/p/${a.url_token}/audit.json?page=0`, { token });
    expect(page.status).toBe(400);
    expect(page.body).toEqual({ error: 'Invalid page parameter' });
  });
});

describe('GET /:prefix/active.json and /:prefix/expired.json', () => {
  it("lists the caller's pushes, newest first, as the v2 lists do", async () => {
    const { token: listToken } = await createUserWithToken(server, 'v1-lists@example.com');
    const first = (await v1Create('p', { password: { payload: 'one', name: 'first' } }, listToken)).body;
    const second = (await v1Create('p', { password: { payload: 'two', name: 'second' } }, listToken)).body;
    await api.delete(server, `/p/${first.url_token}.json`, { token: listToken });

    for (const prefix of ['p', 'f', 'r']) {
      const active = await api.get(server, `/${prefix}/active.json`, { token: listToken });
      expect(active.status).toBe(200);
      expect(active.body.map((r: { url_token: string }) => r.url_token)).toEqual([second.url_token]);
      expect(Object.keys(active.body[0])).toEqual([...OWNER_KEYS]);
      const expired = await api.get(server, `/${prefix}/expired.json`, { token: listToken });
      expect(expired.body.map((r: { url_token: string }) => r.url_token)).toEqual([first.url_token]);
    }
    const v2 = await api.get(server, '/api/v2/pushes/active', { token: listToken });
    expect((await api.get(server, '/p/active.json', { token: listToken })).body).toEqual(v2.body);
  });

  it('anonymous → 401; bad page → 400', async () => {
    for (const path of ['/p/active.json', '/f/expired.json', '/r/active.json']) {
      const res = await api.get(server, path);
      expect.soft([path, res.status]).toEqual([path, 401]);
    }
    const bad = await api.get(server, '/p/active.json?page=201', { token });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: 'Invalid page parameter' });
  });
});

describe('anonymous access off', () => {
  it('v1 endpoints need an account; version stays public', async () => {
    const closed = await startServer({ ALLOW_ANONYMOUS: 'false' });
    try {
      const { token: t } = await createUserWithToken(closed, 'closed@example.com');
      const anon = await api.post(closed, '/p.json', { json: { password: { payload: 'x' } } });
      expect(anon.status).toBe(401);
      const ok = await api.post(closed, '/p.json', { json: { password: { payload: 'x' } }, token: t });
      expect(ok.status).toBe(201);
      expect((await api.get(closed, `/p/${ok.body.url_token}.json`)).status).toBe(401);
      expect((await api.get(closed, `/p/${ok.body.url_token}/preview.json`)).status).toBe(401);
      expect((await api.get(closed, '/api/v1/version')).status).toBe(200);
    } finally {
      await closed.stop();
    }
  });
});
