import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createPush, filesContaining } from '../../support/http.js';
import { startServer, type TestServer } from '../../support/server.js';

const MAX_JSON_BODY_BYTES = 64 * 1024;
let server: TestServer;

beforeAll(async () => {
  server = await startServer({ MAX_JSON_BODY_BYTES: String(MAX_JSON_BODY_BYTES), MAX_PAYLOAD_CHARS: '20000' });
});
afterAll(() => server.stop());

const post = (raw: string, contentType = 'application/json') => api.post(server, '/api/v2/pushes', { raw, contentType });
const MISSING_PUSH = { error: 'param is missing or the value is empty or invalid: push' };

describe('malformed and non-object bodies', () => {
  it.each(['{', '{"push": {"payload": "x"', "{'push': 1}", 'nul', '{"push": {"payload": "x"}} trailing', '\u0000'])('malformed JSON %j is 400 JSON, never 500', async (raw) => {
    const res = await post(raw);
    expect(res.status).toBe(400);
    expect(typeof res.body.error).toBe('string');
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  });

  it.each(['[]', '[{"push": {"payload": "x"}}]', '"push"', '42', 'null', 'true'])('a non-object JSON body %s is 400', async (raw) => {
    const res = await post(raw);
    expect(res.status).toBe(400);
    expect(typeof res.body.error).toBe('string');
  });

  it.each([
    ['empty body', ''],
    ['{}', '{}'],
    ['push missing', '{"payload": "x"}'],
    ['push null', '{"push": null}'],
    ['push empty object', '{"push": {}}'],
    ['push empty string', '{"push": ""}'],
    ['push a string', '{"push": "x"}'],
    ['push an array', '{"push": ["x"]}'],
    ['push a number', '{"push": 5}'],
  ])('%s: 400 with the reference message', async (_label, raw) => {
    const res = await post(raw);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(MISSING_PUSH);
  });

  it('an unsupported content type is 400', async () => {
    const res = await post('{"push": {"payload": "x"}}', 'text/plain');
    expect(res.status).toBe(400);
  });

  it('JSON with a charset or +json type is accepted', async () => {
    expect((await post('{"push": {"payload": "x"}}', 'application/json; charset=utf-8')).status).toBe(201);
    expect((await post('{"push": {"payload": "x"}}', 'application/vnd.api+json')).status).toBe(201);
  });

  it('__proto__ keys cannot pollute anything', async () => {
    const res = await post('{"push": {"payload": "x", "__proto__": {"expire_after_views": 99, "passphrase": "p"}}, "__proto__": {"push": 1}}');
    expect(res.status).toBe(201);
    expect(res.body.expire_after_views).toBe(5);
    expect(res.body.passphrase).toBe('');
    expect(({} as Record<string, unknown>).expire_after_views).toBeUndefined();
    // The same key spelled with JSON escapes is the same key once parsed.
    const escaped = await post('{"push": {"payload": "x", "\\u005f_proto__": {"expire_after_views": 99, "passphrase": "p"}}, "\\u005F\\u005Fproto\\u005F\\u005F": {"push": 1}}');
    expect(escaped.status).toBe(201);
    expect(escaped.body.expire_after_views).toBe(5);
    expect(escaped.body.passphrase).toBe('');
    expect(({} as Record<string, unknown>).expire_after_views).toBeUndefined();
  });
});

describe('wrong types are 422 naming the field', () => {
  it.each([
    [{ payload: 123 }, 'payload'],
    [{ payload: ['x'] }, 'payload'],
    [{ payload: { a: 1 } }, 'payload'],
    [{ payload: 'x', expire_after_views: 'abc' }, 'expire_after_views'],
    [{ payload: 'x', expire_after_views: 1.5 }, 'expire_after_views'],
    [{ payload: 'x', expire_after_views: '1e2' }, 'expire_after_views'],
    [{ payload: 'x', expire_after_views: true }, 'expire_after_views'],
    [{ payload: 'x', expire_after_views: null }, 'expire_after_views'],
    [{ payload: 'x', expire_after_days: [3] }, 'expire_after_days'],
    [{ payload: 'x', expire_after_days: 1e300 }, 'expire_after_days'],
    [{ payload: 'x', retrieval_step: { yes: true } }, 'retrieval_step'],
    [{ payload: 'x', deletable_by_viewer: [true] }, 'deletable_by_viewer'],
    [{ payload: 'x', passphrase: 1234 }, 'passphrase'],
    [{ payload: 'x', name: false }, 'name'],
    [{ payload: 'x', note: {} }, 'note'],
    [{ payload: 'x', kind: 7 }, 'kind'],
  ])('%j → 422 on %s', async (push, field) => {
    const res = await api.post(server, '/api/v2/pushes', { json: { push } });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body)).toEqual([field]);
    expect(Array.isArray(res.body[field])).toBe(true);
    expect(typeof res.body[field][0]).toBe('string');
  });

  it('unknown fields are ignored', async () => {
    const res = await api.post(server, '/api/v2/pushes', { json: { push: { payload: 'x', colour: 'blue', views: 99 } } });
    expect(res.status).toBe(201);
    expect(res.body.expire_after_views).toBe(5);
  });

  it('payloads over MAX_PAYLOAD_CHARS are 422 naming the maximum', async () => {
    const res = await api.post(server, '/api/v2/pushes', { json: { push: { payload: 'x'.repeat(20001) } } });
    expect(res.status).toBe(422);
    expect(res.body.payload.join(' ')).toMatch(/20000/);
    expect((await api.post(server, '/api/v2/pushes', { json: { push: { payload: 'x'.repeat(20000) } } })).status).toBe(201);
  });
});

describe('body size limit (MAX_JSON_BODY_BYTES)', () => {
  it('a JSON body over the limit is 413 with a JSON error', async () => {
    const res = await api.post(server, '/api/v2/pushes', { json: { push: { payload: 'x'.repeat(MAX_JSON_BODY_BYTES) } } });
    expect(res.status).toBe(413);
    expect(typeof res.body.error).toBe('string');
    expect(res.headers.get('x-robots-tag')).toBe('noindex, nofollow');
  });

  it('also without a Content-Length (chunked upload)', async () => {
    const chunk = new TextEncoder().encode('x'.repeat(16 * 1024));
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(new TextEncoder().encode('{"push": {"payload": "'));
      },
      pull(c) {
        if (sent++ < 8) c.enqueue(chunk);
        else {
          c.enqueue(new TextEncoder().encode('"}}'));
          c.close();
        }
      },
    });
    const res = await fetch(`${server.url}/api/v2/pushes`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
      duplex: 'half',
      signal: AbortSignal.timeout(5000),
    } as RequestInit);
    expect(res.status).toBe(413);
    expect(typeof (await res.json()).error).toBe('string');
  });

  it('multipart bodies: the non-file fields are capped too (only files are streamed to disk)', async () => {
    // Five 4 MiB text fields: without a cap these are all held in memory.
    const fd = new FormData();
    fd.append('push[payload]', 'x');
    for (let i = 0; i < 5; i++) fd.append(`push[junk${i}]`, 'y'.repeat(4 * 1024 * 1024));
    const res = await api.post(server, '/api/v2/pushes', { raw: fd, timeoutMs: 10_000 });
    expect(res.status).toBe(413);
    expect(typeof res.body.error).toBe('string');
  });

  it('multipart text fields are capped at MAX_JSON_BODY_BYTES, files aside', async () => {
    const fd = new FormData();
    fd.append('push[payload]', 'x');
    fd.append('push[unknown]', 'p'.repeat(MAX_JSON_BODY_BYTES + 1024));
    const res = await api.post(server, '/api/v2/pushes', { raw: fd, timeoutMs: 10_000 });
    expect(res.status).toBe(413);
    // Just under the cap is fine.
    const ok = new FormData();
    ok.append('push[payload]', 'x');
    ok.append('push[unknown]', 'p'.repeat(MAX_JSON_BODY_BYTES - 1024));
    expect((await api.post(server, '/api/v2/pushes', { raw: ok })).status).toBe(201);
  });

  it('form-encoded bodies are capped too', async () => {
    const res = await post(`push%5Bpayload%5D=${'x'.repeat(MAX_JSON_BODY_BYTES)}`, 'application/x-www-form-urlencoded');
    expect(res.status).toBe(413);
  });
});

describe('odd Unicode round-trips exactly', () => {
  it.each([
    ['emoji and ZWJ sequences', '👩‍👩‍👧‍👦 🏳️‍🌈 🇺🇦 e\u0301 ﷽'],
    ['RTL and bidi controls', 'שלום \u202Eevil\u202C مرحبا \u200F'],
    ['NUL and control characters', 'a\u0000b\u0001c\u007f\n\r\t'],
    ['astral plane characters', '𝔘𝔫𝔦𝔠𝔬𝔡𝔢 𐍈 🀄'],
    ['BOM and non-characters', '\uFEFFx\uFFFE\uFFFF'],
    ['leading and trailing spaces', '  padded  '],
    ['HTML and JSON metacharacters', '<script>alert("x")</script> \\" \\u0000 }{'],
  ])('%s', async (_label, payload) => {
    const p = await createPush(server, { payload, note: payload, name: 'n' });
    const shown = await api.get(server, `/api/v2/pushes/${p.url_token}`);
    expect(shown.body.payload).toBe(payload);
    expect(filesContaining(server.dataDir, payload)).toEqual([]);
  });

  it('a name with NUL and control characters is kept exactly (PostgreSQL json refuses none of them)', async () => {
    const name = 'a\u0000b\u0001c \\u0000';
    const p = await createPush(server, { payload: 'x', name });
    expect(p.name).toBe(name);
    const shown = await api.get(server, `/api/v2/pushes/${p.url_token}`);
    expect([shown.status, shown.body.payload]).toEqual([200, 'x']);
  });

  it('lone surrogates (JSON escapes) are refused with 422 instead of being mangled', async () => {
    for (const raw of ['{"push": {"payload": "a\\ud800b"}}', '{"push": {"payload": "\\udc00"}}', '{"push": {"payload": "ok", "note": "\\ud83d"}}', '{"push": {"payload": "ok", "passphrase": "x\\udfff"}}']) {
      const res = await post(raw);
      expect.soft([raw, res.status]).toEqual([raw, 422]);
    }
    // A valid surrogate pair written as escapes is fine.
    const ok = await post('{"push": {"payload": "\\ud83d\\ude00"}}');
    expect(ok.status).toBe(201);
    expect((await api.get(server, `/api/v2/pushes/${ok.body.url_token}`)).body.payload).toBe('😀');
  });

  it('bytes that are not UTF-8 are refused with 400, never stored as U+FFFD', async () => {
    const cases: [Buffer, string][] = [
      [Buffer.concat([Buffer.from('{"push": {"payload": "a'), Buffer.from([0xff, 0xfe]), Buffer.from('b"}}')]), 'application/json'],
      [Buffer.concat([Buffer.from('{"push": {"payload": "'), Buffer.from([0xc0, 0xaf]), Buffer.from('"}}')]), 'application/json'],
      [Buffer.concat([Buffer.from('push[payload]=a'), Buffer.from([0xe9])]), 'application/x-www-form-urlencoded'],
    ];
    for (const [raw, contentType] of cases) {
      const res = await post(raw as unknown as string, contentType);
      expect.soft([raw.toString('latin1'), res.status, res.body.error]).toEqual([raw.toString('latin1'), 400, expect.stringMatching(/not valid UTF-8/)]);
    }
    for (const raw of ['push[payload]=a%FFb', 'push[payload]=%C0%AF', 'push[payload]=50%', 'push[payload]=%zz']) {
      const res = await post(raw, 'application/x-www-form-urlencoded');
      expect.soft([raw, res.status, res.body.error]).toEqual([raw, 400, 'The form field "push[payload]" has a malformed %-escape or one that is not UTF-8.']);
    }
    // Well-formed multi-byte text in both encodings still arrives unchanged.
    const json = await post('{"push": {"payload": "é😀\u00e9"}}');
    const form = await post(`push[payload]=${encodeURIComponent('é😀 +')}`, 'application/x-www-form-urlencoded');
    for (const made of [json, form]) expect(made.status).toBe(201);
    expect((await api.get(server, `/api/v2/pushes/${json.body.url_token}`)).body.payload).toBe('é😀é');
    expect((await api.get(server, `/api/v2/pushes/${form.body.url_token}`)).body.payload).toBe('é😀 +');
  });

  it('payload of only whitespace is kept as is', async () => {
    const p = await createPush(server, { payload: ' \n ' });
    expect((await api.get(server, `/api/v2/pushes/${p.url_token}`)).body.payload).toBe(' \n ');
  });
});
