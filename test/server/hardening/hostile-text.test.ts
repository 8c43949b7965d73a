import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppRouter } from '../../../server/http/trpc/app-router.js';
import { api } from '../../support/http.js';
import { createUserWithToken, startServer, testStore, type TestServer } from '../../support/server.js';
import { Browser, csrfFrom } from '../pages/browser.js';

/**
 * Every route, with text no store can keep as it is: a NUL (PostgreSQL's text refuses it,
 * SQLSTATE 22021) and lone UTF-16 surrogates (no UTF-8 spelling), in each path parameter, query
 * parameter and body field, and huge `key[]` lists in every form body. No answer may be a 5xx, on
 * either store (this file runs on both). REST v2's routes and body fields come from the served
 * OpenAPI document, tRPC's procedures from the router itself (a procedure without a case here
 * fails the test), so a new route or field is covered without editing this file.
 *
 * A bounded, deterministic form of the 35,000-request review fuzz (issue 28); the random fuzz
 * beside it (fuzz.test.ts) explores, this one is exhaustive over the routes' text inputs.
 */

/** Values a JSON body can carry (JSON's \u escapes reach the server as these exact strings). */
const HOSTILE = ['a\u0000b', '\ud800', 'x\udfffy'];
/**
 * The same in a URL or a form body: %00, and the UTF-8 bytes a lone surrogate would have
 * (CESU-8; invalid UTF-8, so decoders replace or refuse them), and a raw percent run.
 */
const HOSTILE_ESCAPED = ['a%00b', '%ED%A0%80', '%C0%80'];

/** Entries in each huge form body: enough to take seconds per request with a quadratic parser. */
const HUGE_LIST_ENTRIES = 60_000;

interface Case {
  label: string;
  method: string;
  path: string;
  json?: unknown;
  form?: string;
  /** Multipart fields (a FormData is made per send: it is consumed). */
  multipart?: [string, string][];
  token?: string;
  browser?: Browser;
  headers?: Record<string, string>;
}

type JsonSchema = Record<string, any>;

describe(`hostile text on every route (${testStore})`, () => {
  let server: TestServer;
  let token: string;
  let pushToken: string;
  let browser: Browser;
  const failures: string[] = [];
  let sent = 0;

  beforeAll(async () => {
    server = await startServer({ WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_POLL_SECONDS: '3600' });
    ({ token } = await createUserWithToken(server, 'hostile@example.com'));
    pushToken = (await api.post(server, '/api/v2/pushes', { token, json: { push: { payload: 'fixture' } } })).body.url_token;
    browser = new Browser(server);
    await browser.signUp('hostile-pages@example.com');
  });
  afterAll(async () => {
    await server?.stop();
  });

  async function send(c: Case): Promise<void> {
    sent++;
    const headers: Record<string, string> = { ...c.headers };
    let body: string | FormData | undefined;
    if (c.multipart) {
      body = new FormData();
      for (const [k, v] of c.multipart) body.append(k, v);
    } else if (c.json !== undefined) {
      body = JSON.stringify(c.json);
      headers['content-type'] = 'application/json';
    } else if (c.form !== undefined) {
      body = c.form;
      headers['content-type'] = 'application/x-www-form-urlencoded';
    }
    if (c.token) headers.authorization = `Bearer ${c.token}`;
    let status: number;
    let text: string;
    if (c.browser) {
      const res = await c.browser.request(c.method, c.path, { body, headers });
      status = res.status;
      text = res.text;
    } else {
      const res = await fetch(server.url + c.path, { method: c.method, headers, body, redirect: 'manual' });
      status = res.status;
      text = await res.text();
    }
    if (status >= 500) failures.push(`${status} ${c.label}: ${c.method} ${c.path.slice(0, 120)} → ${text.slice(0, 160)}`);
  }

  /** Runs the cases a few at a time (some race each other, as a fuzzer's do). */
  async function run(cases: Case[]) {
    const queue = [...cases];
    await Promise.all(Array.from({ length: 6 }, async () => {
      for (let c = queue.shift(); c; c = queue.shift()) await send(c);
    }));
  }

  function report() {
    const found = [...failures];
    failures.length = 0;
    expect(found, `${found.length} of ${sent} requests answered 5xx`).toEqual([]);
  }

  it('REST v2, from the served OpenAPI document: each path parameter, query parameter and body field', async () => {
    const doc = (await api.get(server, '/api/v2/openapi.json')).body;
    const resolve = (s: JsonSchema): JsonSchema => (s?.$ref ? resolve(doc.components.schemas[s.$ref.split('/').pop()]) : s);
    /** Paths to every string in a schema (a record's key is 'k'; an array's item is 0). */
    const leaves = (s: JsonSchema, at: (string | number)[] = [], depth = 0): (string | number)[][] => {
      s = resolve(s);
      if (!s || depth > 6) return [];
      const out: (string | number)[][] = [];
      for (const alt of [...(s.anyOf ?? []), ...(s.oneOf ?? []), ...(s.allOf ?? [])]) out.push(...leaves(alt, at, depth + 1));
      const types = [s.type].flat();
      if (types.includes('string') || s.const !== undefined || s.enum) out.push(at);
      for (const [k, v] of Object.entries<JsonSchema>(s.properties ?? {})) out.push(...leaves(v, [...at, k], depth + 1));
      if (typeof s.additionalProperties === 'object') out.push(...leaves(s.additionalProperties, [...at, 'k'], depth + 1));
      if (s.items) out.push(...leaves(s.items, [...at, 0], depth + 1));
      return out;
    };
    const setAt = (base: unknown, at: (string | number)[], value: unknown): unknown => {
      if (at.length === 0) return value;
      const [head, ...rest] = at;
      const copy: any = typeof head === 'number' ? [] : { ...(base && typeof base === 'object' ? base : {}) };
      copy[head!] = setAt(copy[head!], rest, value);
      return copy;
    };
    // What makes each body otherwise acceptable, so that a hostile field reaches as far as it can.
    const valid: Record<string, unknown> = {
      '/pushes': { push: { payload: 'fuzz' } },
      '/webhooks': { url: 'http://127.0.0.1:9/hook' },
      '/secret-requests': { title: 'fuzz' },
      '/secret-requests/{url_token}/answer': { payload: 'fuzz' },
    };
    const paramValue = async (name: string): Promise<string> => {
      if (name === 'url_token') return pushToken;
      if (name === 'upload') return 'up_nothing';
      return 'x';
    };
    const cases: Case[] = [];
    for (const [path, ops] of Object.entries<Record<string, JsonSchema>>(doc.paths)) {
      // A path may name its own server (the extension's token endpoint is at the site's root).
      const prefix = ops.servers ? new URL(ops.servers[0].url).pathname.replace(/\/$/, '') : '/api/v2';
      for (const [method, op] of Object.entries(ops)) {
        if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
        const params: JsonSchema[] = op.parameters ?? [];
        const pathParams = params.filter((p) => p.in === 'path').map((p) => p.name as string);
        const queryParams = [...new Set([...params.filter((p) => p.in === 'query').map((p) => p.name as string), 'passphrase', 'page'])];
        const fill = async (hostileName?: string, hostile?: string) => {
          let p = path;
          for (const name of pathParams) p = p.replace(`{${name}}`, name === hostileName ? hostile! : encodeURIComponent(await paramValue(name)));
          return `${prefix}${p}`;
        };
        const schema = op.requestBody?.content?.['application/json']?.schema;
        const base = valid[path] ?? {};
        for (const who of [token, undefined]) {
          for (const h of HOSTILE_ESCAPED) {
            for (const name of pathParams) cases.push({ label: `path ${name}`, method: method.toUpperCase(), path: await fill(name, h), token: who, json: schema ? base : undefined });
            for (const q of queryParams) cases.push({ label: `query ${q}`, method: method.toUpperCase(), path: `${await fill()}?${q}=${h}`, token: who, json: schema ? base : undefined });
          }
          if (!schema) continue;
          for (const leaf of leaves(schema)) {
            for (const h of HOSTILE) cases.push({ label: `body ${leaf.join('.')}`, method: method.toUpperCase(), path: await fill(), token: who, json: setAt(base, leaf, h) });
          }
          for (const h of HOSTILE) cases.push({ label: 'body key', method: method.toUpperCase(), path: await fill(), token: who, json: setAt(base, [...(path === '/pushes' ? ['push'] : []), h], 'x') });
        }
      }
    }
    // A request's answer needs an open request: each hostile answer gets its own.
    const answers = cases.filter((c) => c.path.includes('/answer') && c.json !== undefined && c.path.includes(pushToken));
    for (const c of answers) {
      const made = await api.post(server, '/api/v2/secret-requests', { token, json: { title: 'to answer' } });
      c.path = c.path.replace(pushToken, made.body.url_token);
    }
    expect(cases.length).toBeGreaterThan(300);
    await run(cases);
    report();
  });

  it('REST v1 and form bodies of the create routes', async () => {
    const cases: Case[] = [];
    for (const prefix of ['p', 'f', 'r']) {
      const bodyKey = prefix === 'p' ? 'password' : prefix === 'f' ? 'file_push' : 'url';
      for (const h of HOSTILE_ESCAPED) {
        for (const path of [`/${prefix}/${h}.json`, `/${prefix}/${h}/preview.json`, `/${prefix}/${h}/audit.json`, `/${prefix}/active.json?page=${h}`, `/${prefix}/${pushToken}.json?passphrase=${h}`]) {
          cases.push({ label: 'v1 get', method: 'GET', path, token });
        }
        cases.push({ label: 'v1 delete', method: 'DELETE', path: `/${prefix}/${h}.json`, token });
        for (const field of ['payload', 'name', 'note', 'passphrase', 'kind', 'expire_after_days', h]) {
          cases.push({ label: `v1 form ${field}`, method: 'POST', path: `/${prefix}.json`, token, form: `${bodyKey}[payload]=https%3A%2F%2Fexample.com&${bodyKey}[${field}]=${h}` });
          cases.push({ label: `v2 form ${field}`, method: 'POST', path: '/api/v2/pushes', token, form: `push[payload]=x&push[${field}]=${h}` });
        }
      }
      for (const h of HOSTILE) cases.push({ label: 'v1 json', method: 'POST', path: `/${prefix}.json`, token, json: { [bodyKey]: { payload: 'https://example.com', name: h, note: h, passphrase: h } } });
      // Multipart text fields (a NUL as it is; FormData spells a lone surrogate as U+FFFD).
      for (const field of ['payload', 'name', 'note', 'passphrase', 'kind']) {
        for (const h of HOSTILE) {
          cases.push({ label: `v1 multipart ${field}`, method: 'POST', path: `/${prefix}.json`, token, multipart: [[`${bodyKey}[payload]`, 'https://example.com'], [`${bodyKey}[${field}]`, h]] });
          cases.push({ label: `v2 multipart ${field}`, method: 'POST', path: '/api/v2/pushes', token, multipart: [['push[payload]', 'x'], [`push[${field}]`, h], [`push[${h}]`, h]] });
        }
      }
    }
    await run(cases);
    report();
  });

  it('tRPC: every procedure of the router, each string of its input', async () => {
    // Inputs that pass each procedure's schema; every string in them is made hostile in turn.
    const inputs: Record<string, unknown> = {
      version: undefined,
      limits: undefined,
      'pushes.create': { payload: 'fuzz', name: 'n', note: 'n', passphrase: 'p', kind: 'text' },
      'pushes.retrieve': { url_token: pushToken, passphrase: 'p' },
      'pushes.retrieveWithProof': { url_token: pushToken, passphrase: 'p' },
      'pushes.batch': { push: { expire_after_views: 1 }, recipients: [{ name: 'fuzz', payload: 'x' }] },
      'pushes.emailLink': { url_token: pushToken, notify_emails: ['fuzz@example.com'], notify_note: 'n' },
      'pushes.preview': { url_token: pushToken },
      'pushes.audit': { url_token: pushToken },
      'pushes.expire': { url_token: 'nothing', passphrase: 'p' },
      'pushes.active': { page: 1 },
      'pushes.expired': { page: 1 },
      'webhooks.list': undefined,
      'webhooks.deliveries': undefined,
      'webhooks.create': { url: 'http://127.0.0.1:9/hook', events: ['pushes.created'], secret: 'whsec_x' },
      'webhooks.remove': { id: 'wh_nothing' },
      'requests.create': { title: 'fuzz' },
      'requests.list': undefined,
      'requests.show': { url_token: 'nothing' },
      'requests.answer': { url_token: 'nothing', answer: { payload: 'x' } },
      'requests.close': { url_token: 'nothing' },
      'catalogue.list': { q: 'x', group: 'x' },
      'catalogue.get': { name: 'x' },
      'catalogue.paraminfo': { modules: ['x'] },
      'catalogue.validate': { query: 'action=query' },
    };
    // Only the procedures' names and kinds are read; the server under test has its own router.
    const router = createAppRouter(server.server.pushes, undefined as never, server.server.webhooks, server.server.requests, undefined as never) as any;
    const procedures = Object.entries<any>(router._def.procedures);
    expect(procedures.map(([name]) => name).filter((name) => !(name in inputs)), 'tRPC procedures without a case here').toEqual([]);
    const strings = (v: unknown, at: (string | number)[] = []): (string | number)[][] =>
      typeof v === 'string' ? [at] : v && typeof v === 'object' ? Object.entries(v).flatMap(([k, x]) => strings(x, [...at, Array.isArray(v) ? Number(k) : k])) : [];
    const setAt = (v: any, at: (string | number)[], value: unknown): any => {
      if (at.length === 0) return value;
      const copy = Array.isArray(v) ? [...v] : { ...v };
      copy[at[0]!] = setAt(copy[at[0]!], at.slice(1), value);
      return copy;
    };
    const cases: Case[] = [];
    for (const [name, procedure] of procedures) {
      const type = procedure._def.type as 'query' | 'mutation';
      const base = inputs[name];
      const variants: unknown[] = [];
      for (const leaf of strings(base)) for (const h of HOSTILE) variants.push(setAt(base, leaf, h));
      // An input that is itself hostile text, and one with a hostile key.
      for (const h of HOSTILE) variants.push(h, { [h]: h });
      for (const input of variants) {
        for (const who of [token, undefined]) {
          if (type === 'query') cases.push({ label: `tRPC ${name}`, method: 'GET', path: `/trpc/${name}?input=${encodeURIComponent(JSON.stringify(input)).replace(/%EF%BF%BD/g, '')}`, token: who });
          cases.push({ label: `tRPC ${name}`, method: 'POST', path: `/trpc/${name}`, token: who, json: input });
        }
      }
      // The lone surrogate spelled as JSON escapes in a query string (encodeURIComponent cannot spell it).
      if (type === 'query' && base && typeof base === 'object') {
        const key = Object.keys(base)[0]!;
        cases.push({ label: `tRPC ${name} escaped`, method: 'GET', path: `/trpc/${name}?input=${encodeURIComponent(`{"${key}":"\\ud800"}`)}`, token });
      }
    }
    await run(cases);
    report();
  });

  it('api.php and the catalogue routes', async () => {
    const cases: Case[] = [];
    for (const h of HOSTILE_ESCAPED) {
      for (const q of [`action=${h}`, `action=query&list=${h}`, `action=query&list=allpages&apfrom=${h}`, `action=query&meta=siteinfo&siprop=${h}`, `action=paraminfo&modules=${h}`, `action=query&titles=${h}`, `action=help&modules=${h}`, `format=${h}`, `${h}=${h}`]) {
        cases.push({ label: 'api.php get', method: 'GET', path: `/api.php?${q}` });
        cases.push({ label: 'api.php post', method: 'POST', path: '/api.php', form: q });
      }
      for (const path of [`/api/catalogue/modules?q=${h}`, `/api/catalogue/modules?group=${h}`, `/api/catalogue/modules/${h}`, `/api/catalogue/validate?query=${h}`, `/catalogue?q=${h}`, `/catalogue/${h}`, `/assets/${h}`, `/api/v2/${h}`, `/${h}`]) {
        cases.push({ label: 'catalogue', method: 'GET', path });
      }
    }
    await run(cases);
    report();
  });

  it('pages: each form field and path parameter, signed in and not', async () => {
    const anonymous = new Browser(server);
    await anonymous.get('/users/sign_in');
    const forms: { action: string; fields: string[] }[] = [
      { action: '/users/sign_in', fields: ['email', 'password', 'return_to'] },
      { action: '/users/sign_up', fields: ['email', 'password', 'return_to'] },
      { action: '/', fields: ['push[payload]', 'push[name]', 'push[note]', 'push[passphrase]', 'push[kind]', 'push[expire_after_days]', 'push[sliced_upload]'] },
      { action: '/users/webhooks', fields: ['url', 'events'] },
      { action: '/users/webhooks/remove', fields: ['id'] },
      { action: '/users/requests', fields: ['title', 'note', 'expire_after_days'] },
      { action: '/users/requests/close', fields: ['token'] },
      { action: '/users/password', fields: ['current_password', 'password'] },
      { action: '/users/token/revoke', fields: ['id'] },
      { action: '/users/two_factor', fields: ['code'] },
      { action: '/users/two_factor/setup', fields: ['code'] },
      { action: '/users/passkeys/sign_in', fields: ['ticket', 'response', 'return_to'] },
      { action: '/users/security/totp', fields: ['code', 'action'] },
      { action: '/users/security/passkeys', fields: ['ticket', 'response', 'name'] },
      { action: '/users/security/passkeys/rename', fields: ['id', 'name'] },
      { action: '/users/security/passkeys/remove', fields: ['id'] },
      { action: '/users/sign_out', fields: ['x'] },
    ];
    const cases: Case[] = [];
    for (const who of [browser, anonymous]) {
      // One token serves every form of a browser (it is bound to the session, or the pre-session nonce).
      const front = (await who.get('/')).text;
      const csrf = front.includes('csrf_token') ? csrfFrom(front) : csrfFrom((await who.get('/users/sign_in')).text);
      for (const f of forms) {
        if (f.action === '/users/sign_out') continue; // would end the session the other cases use
        for (const field of f.fields) {
          for (const h of HOSTILE_ESCAPED) {
            cases.push({ label: `page ${f.action} ${field}`, method: 'POST', path: f.action, browser: who, form: `csrf_token=${encodeURIComponent(csrf)}&${field}=${h}` });
          }
        }
      }
      for (const h of HOSTILE_ESCAPED) {
        for (const path of [`/p/${h}`, `/p/${h}/r`, `/p/${h}/preview`, `/p/${pushToken}/files/${h}`, `/p/${h}/files/x`, `/req/${h}`, `/dashboard/audit/${h}`, `/users/sign_in?return_to=${h}`, `/users/webhooks?removed=${h}`, `/dashboard?page=${h}`, `/users/security?done=${h}`, `/users/sign_in?passkey_refused=${h}`]) {
          cases.push({ label: 'page get', method: 'GET', path, browser: who });
        }
        for (const path of [`/p/${h}`, `/p/${h}/open`, `/p/${h}/delete`, `/req/${h}`]) {
          cases.push({ label: 'page post', method: 'POST', path, browser: who, form: `csrf_token=${encodeURIComponent(csrf)}&passphrase=${h}` });
        }
        cases.push({ label: 'page post passphrase', method: 'POST', path: `/p/${pushToken}`, browser: who, form: `passphrase=${h}` });
      }
    }
    await run(cases);
    report();
  });

  it('huge key[] lists in every form body answer in bounded work, never a 5xx', async () => {
    const list = (key: string) => `&${key}=`.repeat(HUGE_LIST_ENTRIES);
    const csrf = csrfFrom((await browser.get('/')).text);
    const cases: Case[] = [
      { label: 'v2 create', method: 'POST', path: '/api/v2/pushes', form: `push[payload]=x${list('push[x][]')}` },
      { label: 'v2 create, deep', method: 'POST', path: '/api/v2/pushes', form: `push[payload]=x${list('push[a][b][c][]')}` },
      { label: 'v1 create', method: 'POST', path: '/p.json', form: `password[payload]=x${list('password[x][]')}` },
      { label: 'request answer', method: 'POST', path: '/api/v2/secret-requests/nothing/answer', form: `payload=x${list('x[]')}` },
      { label: 'create page', method: 'POST', path: '/', browser, form: `csrf_token=${encodeURIComponent(csrf)}&push[payload]=x${list('push[x][]')}` },
      { label: 'create page, no token', method: 'POST', path: '/', browser, form: `push[payload]=x${list('push[x][]')}` },
      { label: 'api.php', method: 'POST', path: '/api.php', form: `action=query${list('list[]')}` },
      { label: 'sign-in page', method: 'POST', path: '/users/sign_in', browser, form: `email=x${list('email[]')}` },
      { label: 'answer page', method: 'POST', path: '/req/nothing', browser, form: `payload=x${list('x[]')}` },
    ];
    await run(cases);
    report();
  });
});
