import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../../support/http.js';
import { createUserWithToken, startServer, type TestServer } from '../../support/server.js';

/**
 * Two creation rules of Password Pusher that clients meet:
 * - `POST /r.json` (legacy URL pushes) needs a token: its Api::BaseController answers 401 to an
 *   anonymous create under `/r` before reading the body, whatever `allow_anonymous` says.
 * - A file sent without a Content-Type is listed as application/octet-stream. pwpush-cli sends
 *   every file that way (python-requests writes no part Content-Type for a bare file object).
 */
let server: TestServer;
let token: string;

beforeAll(async () => {
  server = await startServer();
  ({ token } = await createUserWithToken(server, 'legacy-create@example.com'));
});
afterAll(() => server.stop());

const pushCount = async () => (await server.server.store.countPushes()).total;

describe('POST /r.json', () => {
  it('anonymous: 401 with a JSON error naming the need for a token, before the body is read; nothing is stored', async () => {
    const before = await pushCount();
    const bodies: Array<{ raw: string; contentType: string }> = [
      { raw: JSON.stringify({ url: { payload: 'https://example.com/' } }), contentType: 'application/json' },
      { raw: 'url[payload]=https%3A%2F%2Fexample.com%2F', contentType: 'application/x-www-form-urlencoded' },
      { raw: '{}', contentType: 'application/json' }, // would be 400 "param is missing" with a token
      { raw: '{"url": {', contentType: 'application/json' }, // malformed: still 401 first
    ];
    for (const body of bodies) {
      const res = await api.post(server, '/r.json', body);
      expect.soft([body.raw, res.status]).toEqual([body.raw, 401]);
      expect(res.body.error).toMatch(/\/r\.json needs an API token/);
    }
    expect(await pushCount()).toBe(before);
  });

  it('with a token (Bearer, or the legacy headers) creates the URL push: 201', async () => {
    const bearer = await api.post(server, '/r.json', { json: { url: { payload: 'https://example.com/a' } }, token });
    expect(bearer.status).toBe(201);
    const legacy = await api.post(server, '/r.json', {
      json: { url: { payload: 'https://example.com/b' } },
      headers: { 'x-user-email': 'legacy-create@example.com', 'x-user-token': token },
    });
    expect(legacy.status).toBe(201);
    const shown = await api.get(server, `/r/${legacy.body.url_token}.json`);
    expect(shown.body.payload).toBe('https://example.com/b');
  });

  it('a token that finds no account is 401 too', async () => {
    const res = await api.post(server, '/r.json', { json: { url: { payload: 'https://example.com/' } }, token: 'not-a-token' });
    expect(res.status).toBe(401);
  });

  it('the other creates stay open to anonymous callers: /p.json and /api/v2/pushes with kind url', async () => {
    expect((await api.post(server, '/p.json', { json: { password: { payload: 'anon text' } } })).status).toBe(201);
    expect((await api.post(server, '/api/v2/pushes', { json: { push: { payload: 'https://example.com/', kind: 'url' } } })).status).toBe(201);
  });
});

/** A multipart body written the way python-requests writes it: a part has a Content-Type only if given one. */
function multipart(fileKey: string, payloadKey: string, files: Array<{ name: string; content: Buffer; type?: string }>) {
  const boundary = 'b0undary9f2e1c';
  const parts: Buffer[] = [Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${payloadKey}"\r\n\r\nsee attached\r\n`)];
  for (const f of files) {
    const type = f.type ? `Content-Type: ${f.type}\r\n` : '';
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${fileKey}"; filename="${f.name}"\r\n${type}\r\n`), f.content, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { raw: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

describe('a file part without a Content-Type', () => {
  const pdf = Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj\n', 'latin1');
  const files = [
    { name: 'report.pdf', content: pdf },
    { name: 'notes.txt', content: Buffer.from('plain notes'), type: 'text/plain' },
    { name: 'photo.png', content: Buffer.from([0x89, 0x50, 0x4e, 0x47]), type: 'image/png' },
    { name: 'second-untyped.bin', content: Buffer.from([0, 1, 2, 3]) },
  ];

  it.each([
    ['/api/v2/pushes', 'push[files][]', 'push[payload]', '/api/v2/pushes/'],
    ['/f.json', 'file_push[files][]', 'file_push[payload]', '/f/'],
  ])('is listed as application/octet-stream (%s); declared types stay as declared', async (path, fileKey, payloadKey, showPrefix) => {
    const created = await api.post(server, path, { ...multipart(fileKey, payloadKey, files), token });
    expect(created.status).toBe(201);
    const shown = await api.get(server, `${showPrefix}${created.body.url_token}${showPrefix === '/f/' ? '.json' : ''}`);
    expect(shown.body.files.map((f: { filename: string; content_type: string }) => [f.filename, f.content_type])).toEqual([
      ['report.pdf', 'application/octet-stream'],
      ['notes.txt', 'text/plain'],
      ['photo.png', 'image/png'],
      ['second-untyped.bin', 'application/octet-stream'],
    ]);
    // The bytes are intact whatever the label.
    const download = await fetch(shown.body.files[0].url);
    expect(Buffer.from(await download.arrayBuffer())).toEqual(pdf);
  });
});
