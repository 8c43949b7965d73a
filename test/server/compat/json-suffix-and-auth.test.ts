import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, BASE_KEYS, OWNER_KEYS, createPush } from '../../support/http.js';
import { createUserWithToken, startServer, type TestServer } from '../../support/server.js';

/**
 * `.json` on every v2 path (some clients always send it), and the authentication forms of
 * Password Pusher clients: `Authorization: Bearer <token>` (last word is the token), legacy
 * `X-User-Email` + `X-User-Token` (both required, taking precedence over Bearer), and 401 for a
 * present-but-invalid token everywhere but the version documents.
 */

let server: TestServer;
let alice: string;
let bob: string;

beforeAll(async () => {
  server = await startServer();
  ({ token: alice } = await createUserWithToken(server, 'alice@example.com'));
  ({ token: bob } = await createUserWithToken(server, 'bob@example.com'));
});
afterAll(() => server.stop());

describe('.json suffix on every v2 path', () => {
  it('version, create, show, preview, audit, active, expired and delete all accept .json', async () => {
    const version = await api.get(server, '/api/v2/version.json');
    expect(version.status).toBe(200);
    expect(version.body.api_version).toBe('2.1');

    const created = await api.post(server, '/api/v2/pushes.json', { json: { push: { payload: 'suffixed', expire_after_views: 3 } }, token: alice });
    expect(created.status).toBe(201);
    expect(Object.keys(created.body)).toEqual([...OWNER_KEYS]);
    const t = created.body.url_token;

    const preview = await api.get(server, `/api/v2/pushes/${t}/preview.json`);
    expect(preview.status).toBe(200);
    expect(preview.body).toEqual({ url: `${server.url}/p/${t}/r` });

    const shown = await api.get(server, `/api/v2/pushes/${t}.json`);
    expect(shown.status).toBe(200);
    expect(shown.body).toMatchObject({ payload: 'suffixed', views_remaining: 2 });

    const audit = await api.get(server, `/api/v2/pushes/${t}/audit.json`, { token: alice });
    expect(audit.status).toBe(200);
    expect(audit.body.logs.map((l: { kind: string }) => l.kind)).toEqual(['creation', 'view']);

    const active = await api.get(server, '/api/v2/pushes/active.json', { token: alice });
    expect(active.status).toBe(200);
    expect(active.body.map((r: { url_token: string }) => r.url_token)).toContain(t);

    const deleted = await api.delete(server, `/api/v2/pushes/${t}.json`, { token: alice });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toMatchObject({ deleted: true, expired: true });

    const expired = await api.get(server, '/api/v2/pushes/expired.json', { token: alice });
    expect(expired.status).toBe(200);
    expect(expired.body.map((r: { url_token: string }) => r.url_token)).toContain(t);
  });

  it('form-encoded and multipart creates through /api/v2/pushes.json (the body survives the rewrite)', async () => {
    const form = await api.post(server, '/api/v2/pushes.json', { raw: 'push%5Bpayload%5D=form+suffix', contentType: 'application/x-www-form-urlencoded' });
    expect(form.status).toBe(201);
    expect((await api.get(server, `/api/v2/pushes/${form.body.url_token}.json`)).body.payload).toBe('form suffix');
    const fd = new FormData();
    fd.append('push[payload]', 'multi suffix');
    fd.append('push[files][]', new Blob(['f']), 'f.txt');
    const multi = await api.post(server, '/api/v2/pushes.json', { raw: fd, token: alice });
    expect(multi.status).toBe(201);
    expect((await api.get(server, `/api/v2/pushes/${multi.body.url_token}.json`)).body.files).toHaveLength(1);
  });

  it('unknown tokens with .json → 404 not-found; openapi.json is still the document; accounts.json 404', async () => {
    const unknown = await api.get(server, '/api/v2/pushes/nosuchtoken123.json');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ error: 'not-found' });
    const openapi = await api.get(server, '/api/v2/openapi.json');
    expect(openapi.status).toBe(200);
    expect(openapi.body).toHaveProperty('openapi');
    for (const path of ['/api/v2/accounts.json', '/api/v2/requests.json']) {
      expect.soft([path, (await api.get(server, path)).status]).toEqual([path, 404]);
    }
  });
});

describe('Authorization header forms', () => {
  it.each([
    ['Bearer <token>', (t: string) => `Bearer ${t}`],
    ['Bearer   <token> (several spaces)', (t: string) => `Bearer   ${t}`],
    ['bearer <token> (lower case)', (t: string) => `bearer ${t}`],
    ['a bare token', (t: string) => t],
    ['Token <token>', (t: string) => `Token ${t}`],
    ['surrounding whitespace', (t: string) => `  Bearer ${t}  `],
  ])('%s authenticates', async (_label, header) => {
    const res = await api.get(server, '/api/v2/pushes/active', { headers: { authorization: header(alice) } });
    expect(res.status).toBe(200);
    expect(Array.isArray(res.body)).toBe(true);
  });

  it('an empty Authorization header is anonymous, not a bad token', async () => {
    const p = await createPush(server, { payload: 'public' });
    const res = await api.get(server, `/api/v2/pushes/${p.url_token}`, { headers: { authorization: '   ' } });
    expect(res.status).toBe(200);
  });
});

describe('X-User-Email + X-User-Token', () => {
  const legacy = (email: string, token: string) => ({ 'x-user-email': email, 'x-user-token': token });

  it('authenticate on v2 and v1 (the account owns what it creates)', async () => {
    const created = await api.post(server, '/p.json', { json: { password: { payload: 'legacy', name: 'legacy-made' } }, headers: legacy('alice@example.com', alice) });
    expect(created.status).toBe(201);
    const active = await api.get(server, '/api/v2/pushes/active', { headers: legacy('alice@example.com', alice) });
    expect(active.status).toBe(200);
    expect(active.body.map((r: { url_token: string }) => r.url_token)).toContain(created.body.url_token);
    const v1Active = await api.get(server, '/p/active.json', { headers: legacy('alice@example.com', alice) });
    expect(v1Active.body.map((r: { url_token: string }) => r.url_token)).toContain(created.body.url_token);
  });

  it('take precedence over Bearer: legacy Alice + Bearer Bob acts as Alice', async () => {
    const mine = await createPush(server, { payload: 'alice only', deletable_by_viewer: false }, alice);
    const audit = await api.get(server, `/api/v2/pushes/${mine.url_token}/audit`, {
      headers: { ...legacy('alice@example.com', alice), authorization: `Bearer ${bob}` },
    });
    expect(audit.status).toBe(200);
    const asBob = await api.get(server, `/api/v2/pushes/${mine.url_token}/audit`, { token: bob });
    expect(asBob.status).toBe(403);
  });

  it('take precedence over Bearer even when wrong: bad legacy headers + valid Bearer → 401', async () => {
    const res = await api.get(server, '/api/v2/pushes/active', { headers: { ...legacy('alice@example.com', 'wrong-token'), authorization: `Bearer ${alice}` } });
    expect(res.status).toBe(401);
    expect(res.body).toHaveProperty('error');
  });

  it("the token alone decides the account, as in Password Pusher: Bob's email with Alice's token acts as Alice", async () => {
    const mine = await createPush(server, { payload: 'alice, whatever the email says' }, alice);
    const mismatch = await api.get(server, '/api/v2/pushes/active', { headers: legacy('bob@example.com', alice) });
    expect(mismatch.status).toBe(200);
    expect(mismatch.body.map((r: { url_token: string }) => r.url_token)).toContain(mine.url_token);
    const created = await api.post(server, '/p.json', { json: { password: { payload: 'made with a wrong email' } }, headers: legacy('nobody@example.com', alice) });
    expect(created.status).toBe(201);
    const audit = await api.get(server, `/api/v2/pushes/${created.body.url_token}/audit`, { token: alice });
    expect(audit.status).toBe(200); // Alice owns it
  });

  it('X-User-Token without X-User-Email is a token header that finds no user: 401 everywhere but version, never an anonymous push', async () => {
    const p = await createPush(server, { payload: 'lone token header', expire_after_views: 1 });
    const cases: Array<[string, string, unknown?]> = [
      ['POST', '/api/v2/pushes', { push: { payload: 'would be anonymous' } }],
      ['POST', '/p.json', { password: { payload: 'would be anonymous' } }],
      ['GET', `/api/v2/pushes/${p.url_token}`],
      ['GET', `/api/v2/pushes/${p.url_token}/preview`],
      ['GET', '/api/v2/pushes/active'],
    ];
    for (const [method, path, json] of cases) {
      const answer = await fetch(server.url + path, {
        method,
        headers: { 'x-user-token': alice, ...(json ? { 'content-type': 'application/json' } : {}) },
        body: json ? JSON.stringify(json) : undefined,
      });
      const body = (await answer.json()) as { error?: unknown };
      expect.soft([method, path, answer.status, typeof body.error]).toEqual([method, path, 401, 'string']);
    }
    expect((await api.get(server, '/api/v2/version', { headers: { 'x-user-token': alice } })).status).toBe(200);
    // Nothing above counted the push's one view.
    expect((await api.get(server, `/api/v2/pushes/${p.url_token}`)).body.payload).toBe('lone token header');
  });

  it('X-User-Email alone is no credential (anonymous); a lone X-User-Token leaves a valid Bearer in charge', async () => {
    const emailOnly = await api.get(server, '/api/v2/pushes/active', { headers: { 'x-user-email': 'alice@example.com' } });
    expect(emailOnly.status).toBe(401);
    // A lone legacy header leaves Bearer in charge.
    const withBearer = await api.get(server, '/api/v2/pushes/active', { headers: { 'x-user-token': 'garbage', authorization: `Bearer ${bob}` } });
    expect(withBearer.status).toBe(200);
    // Anonymous public endpoints still work with a lone header.
    const p = await createPush(server, { payload: 'lone header' });
    expect((await api.get(server, `/api/v2/pushes/${p.url_token}`, { headers: { 'x-user-email': 'alice@example.com' } })).status).toBe(200);
  });
});

describe('a present but invalid token', () => {
  it('→ 401 with a JSON error on every endpoint, including public show and preview (v2 and v1)', async () => {
    const p = await createPush(server, { payload: 'should stay unseen', expire_after_views: 1 });
    const t = p.url_token;
    const cases: Array<[string, string, unknown?]> = [
      ['GET', `/api/v2/pushes/${t}`],
      ['GET', `/api/v2/pushes/${t}.json`],
      ['GET', `/api/v2/pushes/${t}/preview`],
      ['GET', `/api/v2/pushes/${t}/audit`],
      ['DELETE', `/api/v2/pushes/${t}`],
      ['GET', '/api/v2/pushes/active'],
      ['GET', '/api/v2/pushes/expired'],
      ['POST', '/api/v2/pushes', { push: { payload: 'x' } }],
      ['GET', `/p/${t}.json`],
      ['GET', `/f/${t}.json`],
      ['GET', `/p/${t}/preview.json`],
      ['GET', `/r/${t}/audit.json`],
      ['DELETE', `/p/${t}.json`],
      ['GET', '/p/active.json'],
      ['GET', '/f/expired.json'],
      ['POST', '/p.json', { password: { payload: 'x' } }],
      ['POST', '/r.json', { url: { payload: 'https://example.com' } }],
    ];
    for (const [method, path, json] of cases) {
      const badCredentials: Array<Record<string, string>> = [{ authorization: 'Bearer not-a-real-token' }, { 'x-user-email': 'alice@example.com', 'x-user-token': 'not-a-real-token' }];
      for (const headers of badCredentials) {
        const res = await fetch(server.url + path, {
          method,
          headers: { ...headers, ...(json ? { 'content-type': 'application/json' } : {}) },
          body: json ? JSON.stringify(json) : undefined,
        });
        const body = await res.json().catch(() => undefined);
        expect.soft([method, path, res.status, typeof (body as { error?: unknown })?.error]).toEqual([method, path, 401, 'string']);
      }
    }
    // Nothing above counted a view or expired the push.
    const shown = await api.get(server, `/p/${t}.json`);
    expect(shown.body).toMatchObject({ payload: 'should stay unseen', expired: false });
  });

  it('version documents stay public: 200', async () => {
    for (const path of ['/api/v2/version', '/api/v2/version.json', '/api/v1/version', '/api/v1/version.json']) {
      const res = await api.get(server, path, { token: 'not-a-real-token' });
      expect.soft([path, res.status]).toEqual([path, 200]);
    }
  });
});
