import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, filesUnder, waitFor } from '../../support/http.js';
import { createUserWithToken, startServer, type TestServer } from '../../support/server.js';

/**
 * The body forms Password Pusher clients send: JSON, form-encoded and multipart with Rails
 * bracket keys; Rails-style booleans; legacy `expire_after_duration` codes. Each is checked on
 * v2 (`push`) and on v1 (`password`).
 */

let server: TestServer;
let token: string;

beforeAll(async () => {
  server = await startServer();
  ({ token } = await createUserWithToken(server, 'bodies@example.com'));
});
afterAll(() => server.stop());

const FORM = 'application/x-www-form-urlencoded';

function postForm(path: string, fields: Array<[string, string]> | Record<string, string>, tok?: string) {
  const params = new URLSearchParams(Array.isArray(fields) ? fields : Object.entries(fields));
  return api.post(server, path, { raw: params.toString(), contentType: FORM, token: tok });
}

const ENDPOINTS = [
  ['/api/v2/pushes', 'push'],
  ['/p.json', 'password'],
] as const;

describe('form-encoded bodies with bracket keys', () => {
  it.each(ENDPOINTS)('%s: every field under %s[...]', async (path, key) => {
    const res = await postForm(
      path,
      {
        [`${key}[payload]`]: 'form payload & = + %',
        [`${key}[expire_after_days]`]: '3',
        [`${key}[expire_after_views]`]: '7',
        [`${key}[retrieval_step]`]: 'off',
        [`${key}[deletable_by_viewer]`]: 'checked',
        [`${key}[passphrase]`]: 'pass phrase',
        [`${key}[name]`]: 'Form push',
        [`${key}[note]`]: 'form note',
      },
      token,
    );
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      expire_after_days: 3,
      expire_after_views: 7,
      retrieval_step: false,
      deletable_by_viewer: true,
      passphrase: '[FILTERED]',
      name: 'Form push',
      note: 'form note',
    });
    const shown = await api.get(server, `/api/v2/pushes/${res.body.url_token}?passphrase=${encodeURIComponent('pass phrase')}`);
    expect(shown.body.payload).toBe('form payload & = + %');
  });

  it('drops keys that could pollute prototypes and still reads the rest', async () => {
    const res = await postForm('/api/v2/pushes', [
      ['push[__proto__][polluted]', 'yes'],
      ['push[constructor][prototype][polluted]', 'yes'],
      ['__proto__[polluted]', 'yes'],
      ['push[payload]', 'safe'],
    ]);
    expect(res.status).toBe(201);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const shown = await api.get(server, `/api/v2/pushes/${res.body.url_token}`);
    expect(shown.body.payload).toBe('safe');
  });

  it('a files key, even empty, needs authentication when files do', async () => {
    const anon = await postForm('/api/v2/pushes', [
      ['push[payload]', 'x'],
      ['push[files][]', ''],
    ]);
    expect(anon.status).toBe(401);
    const anonV1 = await postForm('/p.json', [
      ['password[payload]', 'x'],
      ['password[files][]', ''],
    ]);
    expect(anonV1.status).toBe(401);
  });

  it('missing `push` in a form body → 400 naming push', async () => {
    const res = await postForm('/api/v2/pushes', { payload: 'x' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'param is missing or the value is empty or invalid: push' });
  });
});

describe('multipart bodies with bracket keys', () => {
  it.each(ENDPOINTS)('%s: fields and %s[files][] stream into a file push', async (path, key) => {
    const fd = new FormData();
    fd.append(`${key}[payload]`, 'multipart payload');
    fd.append(`${key}[expire_after_views]`, '4');
    fd.append(`${key}[retrieval_step]`, 'yes');
    fd.append(`${key}[deletable_by_viewer]`, '0');
    fd.append(`${key}[files][]`, new Blob(['first file']), 'one.txt');
    fd.append(`${key}[files][]`, new Blob([new Uint8Array([0, 1, 2, 255])], { type: 'application/octet-stream' }), 'two.bin');
    const res = await api.post(server, path, { raw: fd, token });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ expire_after_views: 4, retrieval_step: true, deletable_by_viewer: false });
    const shown = await api.get(server, `/api/v2/pushes/${res.body.url_token}`);
    expect(shown.body.payload).toBe('multipart payload');
    // Sorted: FileUpload records files in the order their writes complete (reported).
    expect(shown.body.files.map((f: { filename: string }) => f.filename).sort()).toEqual(['one.txt', 'two.bin']);
    const bin = await fetch(shown.body.files.find((f: { filename: string }) => f.filename === 'two.bin').url);
    expect(Buffer.from(await bin.arrayBuffer())).toEqual(Buffer.from([0, 1, 2, 255]));
  });

  it('multipart text push without files', async () => {
    const fd = new FormData();
    fd.append('push[payload]', 'multipart text');
    fd.append('push[expire_after_days]', '2');
    const res = await api.post(server, '/api/v2/pushes', { raw: fd });
    expect(res.status).toBe(201);
    expect(res.body.expire_after_days).toBe(2);
    const shown = await api.get(server, `/api/v2/pushes/${res.body.url_token}`);
    expect(shown.body).toMatchObject({ payload: 'multipart text', files: [] });
  });

  it('v2: push[files][] alone is a present push (Rails params.require sees the key)', async () => {
    const fd = new FormData();
    fd.append('push[files][]', new Blob(['lonely']), 'lonely.txt');
    const res = await api.post(server, '/api/v2/pushes', { raw: fd, token });
    expect(res.status).toBe(201);
    const shown = await api.get(server, `/api/v2/pushes/${res.body.url_token}`);
    expect(shown.body.files.map((f: { filename: string }) => f.filename)).toEqual(['lonely.txt']);
  });

  it('anonymous multipart with a file → 401 before the file is stored', async () => {
    const fd = new FormData();
    fd.append('push[payload]', 'x');
    fd.append('push[files][]', new Blob(['nope']), 'nope.txt');
    const res = await api.post(server, '/api/v2/pushes', { raw: fd });
    expect(res.status).toBe(401);
    expect(res.body).toHaveProperty('error');
  });
});

describe('Rails-style booleans', () => {
  const TRUE = ['true', 'on', 'yes', '1', 'checked', 'TRUE', 'On', ' yes '];
  const FALSE = ['false', 'off', '0', 'no', 'nonsense', ''];

  it.each(TRUE)('%j is true (form, v2 and v1)', async (value) => {
    for (const [path, key] of ENDPOINTS) {
      const res = await postForm(path, { [`${key}[payload]`]: 'x', [`${key}[retrieval_step]`]: value, [`${key}[deletable_by_viewer]`]: value });
      expect.soft([path, res.status, res.body.retrieval_step, res.body.deletable_by_viewer]).toEqual([path, 201, true, true]);
    }
  });

  it.each(FALSE)('%j is false (form, v2 and v1)', async (value) => {
    for (const [path, key] of ENDPOINTS) {
      const res = await postForm(path, { [`${key}[payload]`]: 'x', [`${key}[retrieval_step]`]: value, [`${key}[deletable_by_viewer]`]: value });
      expect.soft([path, res.status, res.body.retrieval_step, res.body.deletable_by_viewer]).toEqual([path, 201, false, false]);
    }
  });

  it('JSON: real booleans and truthy strings alike', async () => {
    for (const [value, expected] of [
      [true, true],
      [false, false],
      ['on', true],
      ['checked', true],
      ['1', true],
      ['off', false],
      ['0', false],
      ['false', false],
    ] as const) {
      const res = await api.post(server, '/p.json', { json: { password: { payload: 'x', retrieval_step: value, deletable_by_viewer: value } } });
      expect.soft([value, res.status, res.body.retrieval_step, res.body.deletable_by_viewer]).toEqual([value, 201, expected, expected]);
    }
  });

  it('absent booleans take the defaults (retrieval step and deletable both true)', async () => {
    const res = await postForm('/p.json', { 'password[payload]': 'x' });
    expect(res.body).toMatchObject({ retrieval_step: true, deletable_by_viewer: true });
  });
});

describe('expire_after_duration codes', () => {
  // code → [lifetime in minutes, expire_after_days shown]
  const CODES: Array<[number, number, number]> = [
    [0, 15, 1],
    [1, 30, 1],
    [2, 45, 1],
    [3, 60, 1],
    [4, 6 * 60, 1],
    [5, 12 * 60, 1],
    [6, 1 * 1440, 1],
    [7, 2 * 1440, 2],
    [8, 3 * 1440, 3],
    [9, 4 * 1440, 4],
    [10, 5 * 1440, 5],
    [11, 6 * 1440, 6],
    [12, 7 * 1440, 7],
    [13, 14 * 1440, 14],
    [14, 21 * 1440, 21],
    [15, 30 * 1440, 30],
    [16, 60 * 1440, 60],
    [17, 90 * 1440, 90],
  ];

  it.each(CODES)('code %i → expires after %i minutes, expire_after_days %i', async (code, minutes, days) => {
    // JSON on v2, form on v1: both carry the code.
    const v2 = await api.post(server, '/api/v2/pushes', { json: { push: { payload: 'x', expire_after_duration: code } } });
    const v1 = await postForm('/p.json', { 'password[payload]': 'x', 'password[expire_after_duration]': String(code) });
    for (const res of [v2, v1]) {
      expect(res.status).toBe(201);
      expect(res.body.expire_after_days).toBe(days);
      expect(res.body.days_remaining).toBe(days);
      const stored = await server.server.pushes.peek(res.body.url_token);
      expect(stored).toBeDefined();
      expect(Date.parse(stored!.expiresAt) - Date.parse(stored!.createdAt)).toBe(minutes * 60_000);
      expect(stored!.createdAt).toBe(res.body.created_at);
    }
  });

  it.each([18, -1, 'abc', 1.5])('code %j → 422 on expire_after_duration', async (code) => {
    const res = await api.post(server, '/p.json', { json: { password: { payload: 'x', expire_after_duration: code } } });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body)).toEqual(['expire_after_duration']);
  });
});

describe('multipart failures end the request at once (no hang), leaving nothing on disk', () => {
  const MAX_FILE_BYTES = 32 * 1024;
  let small: TestServer;
  let smallToken: string;
  beforeAll(async () => {
    small = await startServer({ MAX_FILE_BYTES: String(MAX_FILE_BYTES) });
    ({ token: smallToken } = await createUserWithToken(small, 'small@example.com'));
  });
  afterAll(() => small.stop());

  const vaultFiles = () => (existsSync(join(small.dataDir, 'files')) ? filesUnder(join(small.dataDir, 'files')) : []);

  it.each([
    ['/f.json', 'file_push'],
    ['/p.json', 'password'],
    ['/api/v2/pushes', 'push'],
  ])('%s: a file over MAX_FILE_BYTES after a good one → 413 JSON, both discarded', async (path, key) => {
    const before = vaultFiles().length;
    const fd = new FormData();
    fd.append(`${key}[payload]`, 'x');
    fd.append(`${key}[files][]`, new Blob(['fine']), 'fine.txt');
    fd.append(`${key}[files][]`, new Blob([new Uint8Array(MAX_FILE_BYTES * 4)]), 'big.bin');
    fd.append(`${key}[name]`, 'after the big file');
    const res = await api.post(small, path, { raw: fd, token: smallToken, timeoutMs: 5000 });
    expect(res.status).toBe(413);
    expect(typeof res.body.error).toBe('string');
    await waitFor(() => vaultFiles().length === before, 2000, 'upload discarded');
    // The server still answers on a new request.
    expect((await api.get(small, '/api/v1/version')).status).toBe(200);
  });

  it('exactly MAX_FILE_BYTES is accepted', async () => {
    const fd = new FormData();
    fd.append('file_push[files][]', new Blob([new Uint8Array(MAX_FILE_BYTES)]), 'exact.bin');
    const res = await api.post(small, '/f.json', { raw: fd, token: smallToken });
    expect(res.status).toBe(201);
  });

  it('a truncated multipart body (no closing boundary) → 400 JSON, not a hang', async () => {
    const boundary = 'XyZ123boundary';
    const raw = `--${boundary}\r\nContent-Disposition: form-data; name="password[payload]"\r\n\r\nhalf a bo`;
    const res = await api.post(small, '/p.json', { raw, contentType: `multipart/form-data; boundary=${boundary}`, timeoutMs: 5000 });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/multipart/i);
  });

  it('multipart without a boundary → 400 JSON', async () => {
    const res = await api.post(small, '/p.json', { raw: 'password[payload]=x', contentType: 'multipart/form-data' });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/multipart/i);
  });

  it('an anonymous multipart file upload is refused with 401 without storing anything', async () => {
    const before = vaultFiles().length;
    const fd = new FormData();
    fd.append('file_push[files][]', new Blob([new Uint8Array(16 * 1024)]), 'anon.bin');
    const res = await api.post(small, '/f.json', { raw: fd, timeoutMs: 5000 });
    expect(res.status).toBe(401);
    expect(vaultFiles().length).toBe(before);
  });

  it('non-file multipart fields are capped (v1 default 4 MiB): a 5 MiB field → 413', async () => {
    const fd = new FormData();
    fd.append('password[payload]', 'x');
    fd.append('password[note]', 'n'.repeat(5 * 1024 * 1024));
    const res = await api.post(small, '/p.json', { raw: fd, timeoutMs: 10_000 });
    expect(res.status).toBe(413);
    expect(typeof res.body.error).toBe('string');
  });
});
