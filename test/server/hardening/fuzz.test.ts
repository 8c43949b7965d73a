import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUserWithToken, startServer, type TestServer } from '../../support/server.js';
import { Browser, csrfFrom } from '../pages/browser.js';
import { seededRandom, type SeededRandom } from '../../support/seeded-random.js';

/**
 * Fuzz: thousands of random and malformed requests (paths, methods, headers, bodies, content
 * types, Unicode, prototype-pollution keys) against a real server. Never a 5xx, never a hang or
 * a crash, no prototype polluted in the server's process (it runs in this one), and no secret in
 * a response it does not belong to: a few pushes with known payloads are made first and their
 * tokens never appear in the fuzz traffic, so no fuzz response may contain those payloads.
 *
 * Reproduce a failure with the printed seed: FUZZ_SEED=<seed> npx vitest run test/server/hardening/fuzz.test.ts
 * (FUZZ_SEED=random draws a new seed: use it to explore, not in CI).
 * (FUZZ_REQUESTS changes the count).
 */

// A fixed seed by default, so `npm test` (and CI) is repeatable; FUZZ_SEED=random explores.
const SEED = process.env.FUZZ_SEED === 'random' ? Date.now() % 2 ** 31 : Number(process.env.FUZZ_SEED ?? 20261121);
const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 4000);
const CONCURRENCY = Number(process.env.FUZZ_CONCURRENCY ?? 16);
// Only a guard against a run that never ends: each request has its own timeout (a hang fails it),
// and every planned request must be sent. At 40 s the cap itself failed the test when the suite
// loaded the machine (the clean-clone CI of 5ce788b sent 3,253 and 3,618 of 4,000 in 40 s; alone
// it takes 16–22 s), which made a speed of the machine a test result.
const TIME_CAP_MS = 170_000;
const REQUEST_TIMEOUT_MS = 10_000;


// ---------------------------------------------------------------- building blocks

const ODD = [
  '\u202e', // right-to-left override
  '\u200f', // right-to-left mark
  '\u200b', // zero width space
  '\u200d', // zero width joiner
  '\ufeff', // BOM
  '\u0000',
  '\ud800', // lone high surrogate
  '\udfff', // lone low surrogate
  '\ud83d\ude00',
  'é',
  'e\u0301',
  'Ω',
  'ß',
  '\u0627\u0644\u0639\u0631\u0628\u064a\u0629',
  '𝕏',
  '\r\n',
  '\t',
  '"',
  "'",
  '<script>',
  '&amp;',
  '%',
  '\\',
  '/',
  '..',
  '[',
  ']',
  '{',
  '}',
  '$',
  '`',
  '\u2028',
];

function randomString(r: SeededRandom, max = 40): string {
  const n = r.int(max + 1);
  let s = '';
  for (let i = 0; i < n; i++) {
    const k = r.int(10);
    if (k < 5) s += String.fromCharCode(0x61 + r.int(26));
    else if (k < 6) s += String.fromCharCode(0x30 + r.int(10));
    else if (k < 8) s += r.pick(ODD);
    else if (k < 9) s += String.fromCharCode(r.int(0x80));
    else s += String.fromCharCode(r.int(0x10000));
  }
  return s;
}

/** Junk for a URL path segment: valid and broken percent-escapes, raw odd characters, long runs. */
function junkSegment(r: SeededRandom): string {
  switch (r.int(9)) {
    case 0:
      return encodeURIComponent(randomString(r, 30).replace(/[\ud800-\udfff]/g, 'x'));
    case 1:
      return r.pick(['%', '%Z', '%ZZ', '%C0%AF', '%00', '%E0%A4%A', '%F0%9F', '%ED%A0%80', '%2e%2e', '%2F', '%5C', '%uD800', '%25']);
    case 2:
      return 'a'.repeat(r.int(3000) + 60);
    case 3:
      return r.pick(['..', '.', '...', '%2e%2e%2f', 'CON', 'null', 'undefined', '__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty']);
    case 4:
      return Array.from({ length: r.int(20) + 1 }, () => r.pick('abcdefghijklmnopqrstuvwxyz0123456789_-'.split(''))).join('');
    case 5:
      return Array.from({ length: 19 }, () => r.pick('abcdefghijklmnopqrstuvwxyz0123456789_-'.split(''))).join('');
    case 6:
      return `${junkSegment(r)}.json`;
    case 7:
      return String(r.pick([-1, 0, 1e21, 1.5, Number.MAX_SAFE_INTEGER, 'NaN', 'Infinity']));
    default:
      return encodeURIComponent(r.pick(ODD.filter((c) => !/[\ud800-\udfff]/.test(c)))) + r.int(100);
  }
}

const QUERY_KEYS = [
  'passphrase',
  'page',
  'input',
  'batch',
  'exp',
  'ticket',
  'return_to',
  'state',
  'action',
  'modules',
  'format',
  'formatversion',
  'errorformat',
  'list',
  'prop',
  'meta',
  'generator',
  'aplimit',
  'gaplimit',
  'group',
  'deprecated',
  'q',
  'revoked',
  '__proto__',
  '__proto__[polluted]',
  'constructor[prototype][polluted]',
  'push[__proto__][polluted]',
  'a[]',
  'a[b][c][d][e][f]',
];

function junkQuery(r: SeededRandom): string {
  const parts: string[] = [];
  const n = r.int(6);
  for (let i = 0; i < n; i++) {
    const key = r.chance(0.8) ? r.pick(QUERY_KEYS) : junkSegment(r);
    const value = r.pick([junkSegment(r), '', 'max', '0', '-1', '1', '201', '99999999999999999999', 'true', 'query+*', 'query+allpages|query+links', 'allpages', JSON.stringify(junkJsonValue(r, 2))]);
    parts.push(`${encodeURIComponent(key)}=${/^[\w.+|*-]*$/.test(value) ? value : encodeURIComponent(value.replace(/[\ud800-\udfff]/g, '?'))}`);
  }
  if (r.chance(0.05)) parts.push('%zz=%zz', '&&&', '=', 'x=%');
  return parts.length ? `?${parts.join('&')}` : '';
}

const TRPC_PROCEDURES = [
  'version',
  'limits',
  'pushes.create',
  'pushes.retrieve',
  'pushes.preview',
  'pushes.audit',
  'pushes.expire',
  'pushes.active',
  'pushes.expired',
  'catalogue.list',
  'catalogue.get',
  'catalogue.paraminfo',
  'catalogue.validate',
  'nope',
  '__proto__',
  'pushes.__proto__',
  'constructor',
];

function junkPath(r: SeededRandom): string {
  const seg = () => junkSegment(r);
  const templates: (() => string)[] = [
    () => '/api/v2/pushes',
    () => `/api/v2/pushes/${seg()}`,
    () => `/api/v2/pushes/${seg()}/${r.pick(['preview', 'audit', 'preview.json', 'audit.json', seg()])}`,
    () => `/api/v2/pushes/${r.pick(['active', 'expired', 'active.json', 'expired.json'])}`,
    () => r.pick(['/api/v2/version', '/api/v2/version.json', '/api/v1/version', '/api/v1/version.json', '/api/v2/openapi.json', '/api/v2', '/api/v3/pushes']),
    () => `/${r.pick(['p', 'f', 'r'])}.json`,
    () => `/${r.pick(['p', 'f', 'r'])}/${seg()}${r.pick(['', '.json', '/preview.json', '/audit.json'])}`,
    () => `/${r.pick(['p', 'f', 'r'])}/${r.pick(['active.json', 'expired.json'])}`,
    () => `/p/${seg()}`,
    () => `/p/${seg()}/r`,
    () => `/p/${seg()}/delete`,
    () => `/p/${seg()}/files/${seg()}`,
    () => '/api.php',
    () => `/api/catalogue/modules${r.chance(0.5) ? `/${seg()}` : ''}`,
    () => '/api/catalogue/validate',
    () => `/catalogue${r.chance(0.6) ? `/${seg()}` : ''}`,
    () => `/trpc/${r.chance(0.85) ? r.pick(TRPC_PROCEDURES) : seg()}`,
    () => `/trpc/${r.pick(TRPC_PROCEDURES)},${r.pick(TRPC_PROCEDURES)}`,
    () => `/users/${r.pick(['sign_in', 'sign_up', 'sign_out', 'token', 'token/revoke', seg()])}`,
    () => r.pick(['/', '/dashboard', '/assets/style.css', '/assets/pages.js', '/assets/create.js', '/favicon.ico', '/robots.txt']),
    () => `/assets/${seg()}`,
    () => `/${seg()}${r.chance(0.5) ? `/${seg()}` : ''}`,
    () => `//${seg()}`,
    () => `/api/v2/pushes/${seg()}/../../${seg()}`,
  ];
  return r.pick(templates)() + (r.chance(0.6) ? junkQuery(r) : '');
}

function junkJsonValue(r: SeededRandom, depth: number): unknown {
  const k = r.int(depth > 0 ? 11 : 7);
  switch (k) {
    case 0:
      return randomString(r, 60);
    case 1:
      return r.pick([0, -1, 1, 1.5, 1e308, -1e308, 2 ** 53, 5, 90, 100, 101, 3650, 17, 18]);
    case 2:
      return r.pick([true, false, null]);
    case 3:
      return r.pick(['text', 'url', 'qr', 'file', 'https://example.com/x', 'javascript:alert(1)', '', ' ', 'true', '5']);
    case 4:
      return randomString(r, 3) + 'x'.repeat(r.chance(0.1) ? r.int(200_000) : r.int(300));
    case 5:
      return r.pick(['__proto__', 'constructor', 'prototype', 'toString', 'valueOf']);
    case 6:
      return [];
    case 7:
    case 8:
      return Array.from({ length: r.int(4) }, () => junkJsonValue(r, depth - 1));
    default: {
      const o: Record<string, unknown> = {};
      for (let i = r.int(5); i > 0; i--) o[r.chance(0.7) ? r.pick(PUSH_FIELDS) : randomString(r, 10)] = junkJsonValue(r, depth - 1);
      return o;
    }
  }
}

const PUSH_FIELDS = [
  'payload',
  'kind',
  'expire_after_days',
  'expire_after_views',
  'expire_after_duration',
  'deletable_by_viewer',
  'retrieval_step',
  'passphrase',
  'name',
  'note',
  'files',
  'url_token',
  'page',
  'email',
  'password',
  'csrf_token',
  'id',
  'label',
];

/** Prototype-pollution attempts, as JSON text (JSON.stringify would not keep `__proto__` keys). */
const POLLUTION_JSON = [
  '{"push":{"__proto__":{"polluted":1}}}',
  '{"__proto__":{"polluted":1}}',
  '{"push":{"payload":"x","__proto__":{"polluted":1}}}',
  '{"constructor":{"prototype":{"polluted":1}}}',
  '{"push":{"constructor":{"prototype":{"polluted":1}}}}',
  '{"push":{"payload":"x","constructor":{"prototype":{"polluted":1}}}}',
  '{"password":{"__proto__":{"polluted":1},"payload":"x"}}',
  '{"payload":"x","__proto__":{"polluted":1}}',
  '{"0":{"__proto__":{"polluted":1}}}',
  '{"0":{"json":{"__proto__":{"polluted":1}}}}',
  '{"json":{"payload":"x","__proto__":{"polluted":1}}}',
  '{"push":{"__proto__":{"__proto__":{"polluted":1}}}}',
  '{"push":{"files":{"__proto__":{"polluted":1}}}}',
  '[{"__proto__":{"polluted":1}}]',
];
const POLLUTION_FORM = [
  'push[__proto__][polluted]=1',
  'push[constructor][prototype][polluted]=1',
  '__proto__[polluted]=1',
  'constructor[prototype][polluted]=1',
  'push[payload]=x&push[__proto__][polluted]=1',
  'password[__proto__][polluted]=1&password[payload]=x',
  '__proto__.polluted=1',
  'push[__proto__]=1',
  'email=a%40b.c&__proto__[polluted]=1',
];

const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=utf-16',
  'APPLICATION/JSON',
  'application/vnd.api+json',
  'text/plain',
  'text/json',
  'application/x-www-form-urlencoded',
  'application/x-www-form-urlencoded; charset=iso-8859-1',
  'multipart/form-data',
  'multipart/form-data; boundary=',
  'multipart/form-data; boundary=XyZ',
  'multipart/form-data; boundary="a b"',
  'multipart/mixed; boundary=XyZ',
  'application/xml',
  'application/octet-stream',
  'a/b/c; ;;',
  ';',
  '',
  'application/json, text/plain',
  'multipart/form-data; boundary=' + 'b'.repeat(200),
];

function multipartBody(r: SeededRandom, boundary: string): Buffer {
  const parts: Buffer[] = [];
  const n = r.chance(0.05) ? 350 : r.int(6);
  const names = ['push[payload]', 'push[kind]', 'push[files][]', 'push[expire_after_views]', 'push[__proto__][polluted]', 'push[constructor][prototype][polluted]', 'payload', 'kind', 'files', 'file', 'csrf_token', 'push[note]', 'push', 'push[passphrase]', 'push[a][b][c][d][e]'];
  for (let i = 0; i < n; i++) {
    const name = r.chance(0.8) ? r.pick(names) : randomString(r, 20).replace(/[\r\n"]/g, '');
    const file = r.chance(0.3);
    const filename = r.pick(['a.txt', '../../etc/passwd', '', 'x'.repeat(300), '\u202etxt.exe', 'nul\u0000.txt', 'ü.txt']);
    let head = `--${boundary}\r\nContent-Disposition: form-data; name="${name}"${file ? `; filename="${filename}"` : ''}\r\n`;
    if (file || r.chance(0.2)) head += `Content-Type: ${r.pick(['text/plain', 'application/octet-stream', 'image/png', '', 'x/'])}\r\n`;
    if (r.chance(0.05)) head += 'Content-Transfer-Encoding: base64\r\n';
    parts.push(Buffer.from(`${head}\r\n`, 'utf8'));
    parts.push(r.chance(0.3) ? randomBytes(r, r.int(3000)) : Buffer.from(randomString(r, 80), 'utf8'));
    parts.push(Buffer.from('\r\n'));
  }
  if (r.chance(0.8)) parts.push(Buffer.from(`--${boundary}--\r\n`));
  const body = Buffer.concat(parts);
  return r.chance(0.15) ? body.subarray(0, r.int(body.length + 1)) : body;
}

function randomBytes(r: SeededRandom, n: number): Buffer {
  const b = Buffer.alloc(n);
  for (let i = 0; i < n; i++) b[i] = r.int(256);
  return b;
}

function nested(r: SeededRandom): string {
  const depth = r.pick([10, 100, 1000, 10_000, 100_000]);
  const open = r.chance(0.5) ? '[' : '{"a":';
  const close = open === '[' ? ']' : '}';
  const inner = open.repeat(depth) + '1' + close.repeat(depth);
  return r.chance(0.5) ? `{"push":{"payload":${inner}}}` : inner;
}

function junkBody(r: SeededRandom, contentType: string): Buffer | string | undefined {
  switch (r.int(12)) {
    case 0:
      return undefined;
    case 1:
      return randomBytes(r, r.int(r.chance(0.1) ? 100_000 : 2000));
    case 2: {
      const valid = JSON.stringify({ push: { payload: randomString(r, 50), expire_after_views: r.int(10) } });
      return valid.slice(0, r.int(valid.length));
    }
    case 3:
      return nested(r);
    case 4:
      return r.pick(POLLUTION_JSON);
    case 5:
      return r.pick(POLLUTION_FORM);
    case 6:
      return JSON.stringify(r.chance(0.7) ? { [r.pick(['push', 'password', 'url', 'file_push', 'json', '0'])]: junkJsonValue(r, 3) } : junkJsonValue(r, 3));
    case 7: {
      const boundary = /boundary="?([^";]*)/.exec(contentType)?.[1] || 'XyZ';
      return multipartBody(r, boundary);
    }
    case 8:
      return new URLSearchParams(
        Array.from({ length: r.int(6) }, () => [r.chance(0.7) ? `push[${r.pick(PUSH_FIELDS)}]` : r.pick(PUSH_FIELDS), randomString(r, 40)] as [string, string]),
      ).toString();
    case 9:
      // Odd Unicode in JSON strings: escaped lone surrogates, RTL and zero-width characters.
      return `{"push":{"payload":"${r.pick(['\\ud800', '\\udfff', '\\ud800\\u0041', '\u202e\u200b', '\\u0000', '\ufeff'])}${randomString(r, 20).replace(/["\\\u0000-\u001f]/g, '')}","name":"\\udc00${r.pick(['\u202e', '\u200f'])}","note":"\u200d"}}`;
    case 10:
      return r.pick(['null', '[]', '1', '"x"', 'true', '{}', '{"push":null}', '{"push":[]}', '{"push":"x"}', '{"push":1}', '', ' ', '\ufeff{}', '{"push":{"payload":null}}', '{"push":{"kind":"file"}}']);
    default:
      return Buffer.from([0xef, 0xbb, 0xbf, 0xff, 0xfe, 0xc0, 0xaf, 0xed, 0xa0, 0x80, ...Buffer.from(randomString(r, 40), 'utf8')]);
  }
}

// ---------------------------------------------------------------- the test

interface Outcome {
  status: number;
  text: string;
  headers: string;
}

function describeRequest(method: string, path: string, headers: Record<string, string>, body: Buffer | string | undefined) {
  const b = body === undefined ? '' : typeof body === 'string' ? body : body.toString('latin1');
  const hs = Object.entries(headers).map(([k, v]) => `${k}: ${v.length > 120 ? `${v.slice(0, 120)}…(${v.length})` : v}`);
  return `${method} ${path.length > 300 ? `${path.slice(0, 300)}…(${path.length})` : path}\n  ${hs.join('\n  ')}\n  body(${b.length}): ${JSON.stringify(b.slice(0, 300))}`;
}

function headerText(headers: Headers): string {
  const lines: string[] = [];
  headers.forEach((v, k) => lines.push(`${k}: ${v}`));
  return lines.join('\n');
}

/** A raw HTTP/1.1 request over a socket: for what fetch would refuse or normalise. */
function rawRequest(port: number, head: string, body: Buffer | string | undefined): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port });
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error('raw request timed out'));
    }, REQUEST_TIMEOUT_MS);
    socket.on('data', (d) => chunks.push(d));
    socket.on('error', () => {}); // a reset after the answer is fine; no answer is judged below
    socket.on('close', () => {
      clearTimeout(timer);
      const text = Buffer.concat(chunks).toString('utf8');
      const m = /^HTTP\/1\.[01] (\d{3})/.exec(text);
      resolve({ status: m ? Number(m[1]) : 0, text, headers: '' });
    });
    socket.on('connect', () => {
      socket.write(head);
      if (body !== undefined) socket.write(body);
      socket.end();
    });
  });
}

describe('fuzz', () => {
  let server: TestServer;
  let port: number;
  const secrets: string[] = [];
  let fuzzToken = '';
  let session: { cookie: string; csrf: string };

  beforeAll(async () => {
    server = await startServer({ TRUST_PROXY: 'true' });
    port = Number(new URL(server.url).port);
    // The secrets and their owner; neither the owner's token nor the push tokens are used below.
    const { token: ownerToken } = await createUserWithToken(server, 'secret-owner@example.com');
    const make = async (push: Record<string, unknown>, token?: string, files?: [string, string][]) => {
      let res: Response;
      if (files) {
        const form = new FormData();
        for (const [k, v] of Object.entries(push)) form.append(`push[${k}]`, String(v));
        for (const [name, content] of files) form.append('push[files][]', new Blob([content]), name);
        res = await fetch(`${server.url}/api/v2/pushes`, { method: 'POST', body: form, headers: { authorization: `Bearer ${ownerToken}` } });
      } else {
        res = await fetch(`${server.url}/api/v2/pushes`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
          body: JSON.stringify({ push }),
        });
      }
      if (res.status !== 201) throw new Error(`setup create failed: ${res.status} ${await res.text()}`);
    };
    const secret = (label: string) => {
      const s = `FUZZSECRET${label}${Math.random().toString(36).slice(2)}${Date.now().toString(36)}`;
      secrets.push(s);
      return s;
    };
    await make({ payload: secret('anon') });
    await make({ payload: secret('owned'), note: secret('note'), name: 'named push', expire_after_views: 50 }, ownerToken);
    await make({ payload: secret('locked'), passphrase: secret('passphrase') }, ownerToken);
    await make({ payload: `https://example.com/${secret('url')}`, kind: 'url' }, ownerToken);
    await make({ payload: secret('qr'), kind: 'qr' }, ownerToken);
    await make({ payload: secret('withfile') }, ownerToken, [[`${secret('filename')}.txt`, secret('filecontent')]]);
    // The fuzzer's own account (a valid token and a signed-in session with its CSRF token), so
    // authenticated paths get fuzzed too.
    fuzzToken = (await createUserWithToken(server, 'fuzzer@example.com')).token;
    const b = new Browser(server);
    await b.signUp('fuzz-browser@example.com');
    const page = await b.get('/');
    session = { cookie: [...b.cookies].map(([k, v]) => `${k}=${v}`).join('; '), csrf: csrfFrom(page.text) };
  });
  afterAll(() => server?.stop());

  it(`${REQUESTS} random and malformed requests: no 5xx, no hang, no polluted prototype, no foreign secret`, async () => {
    console.log(`fuzz seed ${SEED} (reproduce: FUZZ_SEED=${SEED} npx vitest run test/server/hardening/fuzz.test.ts)`);
    const r = seededRandom(SEED);
    const protoKeysBefore = Object.getOwnPropertyNames(Object.prototype).sort();
    const failures: string[] = [];
    const resets: number[] = [];
    const statuses = new Map<number, number>();
    const started = performance.now();
    let sent = 0;

    // Build every request up front from the seed, so the sequence does not depend on timing.
    const plan = Array.from({ length: REQUESTS }, (_, i) => {
      const method = r.pick(['GET', 'GET', 'GET', 'POST', 'POST', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS']);
      const path = junkPath(r);
      const headers: Record<string, string> = {};
      const contentType = r.pick(CONTENT_TYPES);
      if (r.chance(0.8)) headers['content-type'] = contentType;
      switch (r.int(8)) {
        case 0:
          headers.authorization = `Bearer ${fuzzToken}`;
          break;
        case 1:
          headers.authorization = r.pick(['Bearer', 'Bearer ', 'Basic Zm9vOmJhcg==', `Bearer ${'x'.repeat(6000)}`, 'Token token=abc', `Bearer sp_${'A'.repeat(43)}`, 'Bearer \u00e9', `Bearer ${fuzzToken} extra`]);
          break;
        case 2:
          headers['x-user-email'] = r.pick(['fuzzer@example.com', 'secret-owner@example.com', '', 'x'.repeat(400), 'a@b']);
          headers['x-user-token'] = r.pick([fuzzToken, 'junk', '', 'x'.repeat(600)]);
          break;
        case 3:
          headers.cookie = session.cookie;
          break;
        default:
      }
      if (r.chance(0.15)) headers['x-forwarded-for'] = r.pick(['203.0.113.9', '', 'junk', '1.1.1.1, 2.2.2.2', '::1', '999.999.999.999', 'x'.repeat(500)]);
      if (r.chance(0.1)) headers['x-forwarded-proto'] = r.pick(['https', 'gopher', '']);
      if (r.chance(0.1)) headers['x-forwarded-host'] = r.pick(['evil.example', 'a b', '']);
      if (r.chance(0.1)) headers['sec-fetch-site'] = r.pick(['same-origin', 'cross-site', 'none', 'junk']);
      if (r.chance(0.1)) headers.origin = r.pick([server.url, 'https://evil.example', 'null', '']);
      if (r.chance(0.05)) headers[`x-huge-${r.int(3)}`] = 'h'.repeat(r.int(12_000));
      if (r.chance(0.05)) headers.accept = r.pick(['application/json', 'text/html', '*/*', 'x'.repeat(2000)]);
      if (r.chance(0.05)) headers.referer = r.pick(['javascript:alert(1)', 'x'.repeat(3000), '']);
      let body = method === 'GET' || method === 'HEAD' ? undefined : junkBody(r, contentType);
      // With the session, page forms often carry a valid CSRF token so their handlers run.
      if (headers.cookie && method === 'POST' && r.chance(0.6)) {
        const fields = new URLSearchParams();
        fields.set('csrf_token', session.csrf);
        for (let k = r.int(5); k > 0; k--) fields.append(r.chance(0.5) ? r.pick(PUSH_FIELDS) : randomString(r, 12), randomString(r, 40));
        body = fields.toString() + (r.chance(0.3) ? `&${r.pick(POLLUTION_FORM)}` : '');
        headers['content-type'] = 'application/x-www-form-urlencoded';
      }
      const raw = r.chance(0.12);
      const rawTwist = raw ? r.int(6) : -1;
      return { i, method, path, headers, body, raw, rawTwist };
    });

    const check = (i: number, desc: string, out: Outcome) => {
      statuses.set(out.status, (statuses.get(out.status) ?? 0) + 1);
      if (out.status >= 500 || out.status === 0) failures.push(`#${i} → ${out.status || 'no answer'}: ${out.text.slice(0, 200)}\n${desc}`);
      const seen = `${out.headers}\n${out.text}`;
      for (const s of secrets) if (seen.includes(s)) failures.push(`#${i} leaked a secret (${s.slice(0, 20)}…)\n${desc}`);
    };

    const one = async (p: (typeof plan)[number]) => {
      const desc = describeRequest(p.method, p.path, p.headers, p.body);
      try {
        if (p.raw) {
          // Raw: paths with bytes fetch would escape, broken framing, odd versions.
          let path = p.path;
          const headers = { ...p.headers, host: '127.0.0.1', connection: 'close' } as Record<string, string>;
          const bodyLength = p.body === undefined ? 0 : Buffer.byteLength(p.body);
          let framing = p.body === undefined ? '' : `content-length: ${bodyLength}\r\n`;
          if (p.rawTwist === 0) path = path.replace(/%[0-9a-f]{2}/gi, () => String.fromCharCode(0x80 + (p.i % 120)));
          if (p.rawTwist === 1) path = `${path}/\u00e9\u202e`;
          if (p.rawTwist === 2) framing = `content-length: ${bodyLength + 10}\r\n`; // a lying length: the body never completes
          if (p.rawTwist === 3 && p.body !== undefined) framing = 'transfer-encoding: chunked\r\n';
          if (p.rawTwist === 4) framing += 'content-length: 5\r\n';
          if (p.rawTwist === 5) path = `http://127.0.0.1:${port}${path}`;
          const headerLines = Object.entries(headers)
            .map(([k, v]) => `${k}: ${v.replace(/[\r\n]/g, '')}`)
            .join('\r\n');
          const head = Buffer.from(`${p.method} ${path} HTTP/1.1\r\n${headerLines}\r\n${framing}\r\n`, 'latin1');
          let body = p.body;
          if (p.rawTwist === 3 && p.body !== undefined) body = `${Buffer.byteLength(p.body).toString(16)}\r\n${typeof p.body === 'string' ? p.body : p.body.toString('latin1')}\r\n0\r\n\r\n`;
          const out = await rawRequest(port, head.toString('latin1'), body);
          // A lying content-length leaves the request incomplete: the server may wait for the
          // rest until the client gives up, so no answer is fine there, a 5xx still is not.
          if (out.status === 0 && p.rawTwist === 2) return;
          check(p.i, `[raw twist ${p.rawTwist}] ${desc}`, out);
          return;
        }
        const res = await fetch(server.url + p.path, {
          method: p.method,
          headers: p.headers,
          body: p.body as BodyInit | undefined,
          redirect: 'manual',
          signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
        });
        const text = await res.text();
        check(p.i, desc, { status: res.status, text, headers: headerText(res.headers) });
      } catch (e) {
        const err = e as Error & { cause?: Error };
        // fetch refuses some header values itself; that is the client's refusal, not the server's.
        if (/invalid|not a valid|ByteString/i.test(`${err.message} ${err.cause?.message ?? ''}`) && !p.raw) return;
        // KNOWN, NOT FIXED: now and then a reused keep-alive connection is closed under a request
        // ("other side closed"; @hono/node-server force-closes a connection whose unread body it
        // could not drain within 500 ms). Count it, and judge the same request on a fresh connection.
        if (!p.raw && /other side closed|ECONNRESET/.test(`${err.cause?.message ?? ''}`)) {
          resets.push(p.i);
          const headerLines = Object.entries({ ...p.headers, host: '127.0.0.1', connection: 'close' })
            .map(([k, v]) => `${k}: ${v}`)
            .join('\r\n');
          const length = p.body === undefined ? '' : `content-length: ${Buffer.byteLength(p.body)}\r\n`;
          check(p.i, `[retried on a fresh connection] ${desc}`, await rawRequest(port, `${p.method} ${p.path} HTTP/1.1\r\n${headerLines}\r\n${length}\r\n`, p.body));
          return;
        }
        failures.push(`#${p.i} → ${err.name}: ${err.message} ${err.cause?.message ?? ''}\n${desc}${CONCURRENCY === 1 && p.i > 0 ? `\n  after #${p.i - 1}: ${describeRequest(plan[p.i - 1]!.method, plan[p.i - 1]!.path, plan[p.i - 1]!.headers, plan[p.i - 1]!.body)}` : ''}`);
      }
    };

    // Event-loop stalls: a request that blocks the server's loop starves everyone else.
    const inFlight = new Map<number, number>();
    const stalls: string[] = [];
    let tick = performance.now();
    const lagTimer = setInterval(() => {
      const now = performance.now();
      const lag = now - tick - 20;
      tick = now;
      if (process.env.FUZZ_TRACE) for (const i of inFlight.keys()) void i;
      if (lag > 200) stalls.push(`${Math.round(lag)} ms stall while in flight: ${[...inFlight.keys()].map((i) => describeRequest(plan[i]!.method, plan[i]!.path, plan[i]!.headers, plan[i]!.body).split('\n')[0] + ` body ${plan[i]!.body === undefined ? 0 : Buffer.byteLength(plan[i]!.body!)}`).join(' | ')}`);
    }, 20);
    // FUZZ_ONLY=from-to replays a slice of the plan (to narrow a failure down).
    const only = /^(\d+)-(\d+)$/.exec(process.env.FUZZ_ONLY ?? '');
    const picked = process.env.FUZZ_PICK?.split(',').map(Number);
    const run = picked ? picked.map((i) => plan[i]!) : only ? plan.slice(Number(only[1]), Number(only[2]) + 1) : plan;
    let next = 0;
    const worker = async () => {
      while (next < run.length && performance.now() - started < TIME_CAP_MS) {
        const p = run[next++]!;
        inFlight.set(p.i, performance.now());
        if (process.env.FUZZ_TRACE) console.log(`TRACE ${describeRequest(p.method, p.path, p.headers, p.body).replace(/\n/g, ' ').slice(0, 600)}`);
        await one(p);
        inFlight.delete(p.i);
        if (process.env.FUZZ_GAP_MS) await new Promise((r) => setTimeout(r, Number(process.env.FUZZ_GAP_MS)));
        sent++;
        // The server keeps answering.
        if (p.i % 250 === 0) {
          const alive = await fetch(`${server.url}/api/v2/version`, { signal: AbortSignal.timeout(5_000) });
          if (alive.status !== 200) failures.push(`#${p.i}: the server stopped answering (${alive.status})`);
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    clearInterval(lagTimer);
    if (stalls.length) console.log(`fuzz seed ${SEED}: event-loop stalls:\n${stalls.slice(0, 10).join('\n')}`);

    const elapsed = ((performance.now() - started) / 1000).toFixed(1);
    console.log(`fuzz seed ${SEED}: ${sent} requests in ${elapsed} s; statuses ${JSON.stringify(Object.fromEntries([...statuses].sort((a, b) => a[0] - b[0])))}`);
    if (resets.length) console.log(`fuzz seed ${SEED}: ${resets.length} keep-alive connection(s) closed under a request (retried on a fresh one): #${resets.join(', #')}`);
    if (failures.length) console.log(`fuzz seed ${SEED}: ${failures.length} failures, first ones:\n${failures.slice(0, 15).join('\n\n')}`);

    expect(failures.slice(0, 15)).toEqual([]);
    expect(sent).toBe(run.length);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(protoKeysBefore);
    expect((await fetch(`${server.url}/api/v2/version`)).status).toBe(200);
    // Nothing the fuzz did made the server log an unexpected error, nor any secret.
    expect(server.logs.filter((l) => / ERROR /.test(l)).slice(0, 5)).toEqual([]);
    for (const s of secrets) expect(server.logs.some((l) => l.includes(s))).toBe(false);
  }, 200_000);
});
