import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createPush } from '../../support/http.js';
import { connect } from 'node:net';
import { createUserWithToken, startServer, type TestServer } from '../../support/server.js';

/** Sends a request exactly as written (headers a client library would merge, too) and returns the raw answer. */
function rawRequest(url: string, lines: string[]): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.end(`${lines.join('\r\n')}\r\n\r\n`));
    let answer = '';
    socket.setEncoding('utf8').on('data', (d) => (answer += d)).on('end', () => resolve(answer)).on('error', reject);
  });
}

describe('API tokens', () => {
  let server: TestServer;
  let token: string;
  let pushToken: string;

  beforeAll(async () => {
    server = await startServer();
    ({ token } = await createUserWithToken(server, 'auth@example.com'));
    pushToken = (await createPush(server, { payload: 'auth test', expire_after_views: 100 }, token)).url_token;
  });
  afterAll(() => server.stop());

  it('an invalid Bearer token is 401 on every endpoint but version, including the public show and preview', async () => {
    const bad = 'sp_definitely-not-a-token';
    const calls: [string, string, object?][] = [
      ['GET', `/api/v2/pushes/${pushToken}`],
      ['GET', `/api/v2/pushes/${pushToken}/preview`],
      ['GET', `/api/v2/pushes/${pushToken}/audit`],
      ['DELETE', `/api/v2/pushes/${pushToken}`],
      ['GET', '/api/v2/pushes/active'],
      ['GET', '/api/v2/pushes/expired'],
      ['POST', '/api/v2/pushes', { push: { payload: 'x' } }],
      ['GET', `/api/v2/pushes/${pushToken}.json`],
    ];
    for (const [method, path, json] of calls) {
      const r = await (method === 'GET' ? api.get : method === 'DELETE' ? api.delete : api.post)(server, path, { token: bad, json });
      expect.soft([method, path, r.status]).toEqual([method, path, 401]);
      expect.soft(typeof r.body?.error).toBe('string');
    }
    const version = await api.get(server, '/api/v2/version', { token: bad });
    expect(version.status).toBe(200);
    // The push was not touched by any of these.
    const shown = await api.get(server, `/api/v2/pushes/${pushToken}`, { token });
    expect(shown.body).toMatchObject({ payload: 'auth test', expired: false });
  });

  it('the last word of Authorization is the token: Bearer with extra spaces, or a bare token', async () => {
    for (const header of [`Bearer ${token}`, `Bearer    ${token}`, token, `  Bearer ${token}  `]) {
      const res = await api.get(server, '/api/v2/pushes/active', { headers: { authorization: header } });
      expect.soft([header.length, res.status]).toEqual([header.length, 200]);
    }
  });

  it('a repeated Authorization header is read as the Fetch API reads it: all its values joined, the last word the token', async () => {
    // Node keeps only the first of repeated Authorization headers; the answer must not depend on
    // which of the two the server happens to read.
    const statusWith = async (first: string, second: string) => {
      const raw = await rawRequest(server.url, ['GET /api/v2/pushes/active HTTP/1.1', 'Host: x', `Authorization: Bearer ${first}`, `Authorization: Bearer ${second}`, 'Connection: close']);
      return Number(raw.split(' ')[1]);
    };
    expect(await statusWith(token, 'sp_not-a-token')).toBe(401);
    expect(await statusWith('sp_not-a-token', token)).toBe(200);
  });

  it('an empty Authorization header counts as anonymous, not as a bad token', async () => {
    const res = await api.get(server, `/api/v2/pushes/${pushToken}/preview`, { headers: { authorization: '' } });
    expect(res.status).toBe(200);
  });

  it('legacy X-User-Email + X-User-Token work and take precedence over Bearer', async () => {
    const ok = await api.get(server, '/api/v2/pushes/active', { headers: { 'x-user-email': 'auth@example.com', 'x-user-token': token } });
    expect(ok.status).toBe(200);
    expect(ok.body.map((r: any) => r.url_token)).toContain(pushToken);
    // As in Password Pusher, the token alone decides the account; the email is not checked.
    const wrongEmail = await api.get(server, '/api/v2/pushes/active', { headers: { 'x-user-email': 'someone@example.com', 'x-user-token': token } });
    expect(wrongEmail.status).toBe(200);
    const precedence = await api.get(server, '/api/v2/pushes/active', { token, headers: { 'x-user-email': 'auth@example.com', 'x-user-token': 'wrong' } });
    expect(precedence.status).toBe(401);
  });

  it('a revoked token stops working (401), other tokens of the account keep working', async () => {
    const accounts = server.server.accounts;
    const { user } = await accounts.ensureUser('revoke@example.com');
    const { token: t1, info } = await accounts.createApiToken(user, 'one');
    const { token: t2 } = await accounts.createApiToken(user, 'two');
    expect((await api.get(server, '/api/v2/pushes/active', { token: t1 })).status).toBe(200);
    await accounts.revokeApiToken(user, info.id);
    expect((await api.get(server, '/api/v2/pushes/active', { token: t1 })).status).toBe(401);
    expect((await api.get(server, '/api/v2/pushes/active', { token: t2 })).status).toBe(200);
  });
});

describe('ALLOW_ANONYMOUS=false', () => {
  let server: TestServer;
  let token: string;
  let pushToken: string;

  beforeAll(async () => {
    server = await startServer({ ALLOW_ANONYMOUS: 'false' });
    ({ token } = await createUserWithToken(server, 'closed@example.com'));
    pushToken = (await createPush(server, { payload: 'closed instance', deletable_by_viewer: true }, token)).url_token;
  });
  afterAll(() => server.stop());

  it('version is public and says anonymous_access false', async () => {
    const res = await api.get(server, '/api/v2/version');
    expect(res.status).toBe(200);
    expect(res.body.features.anonymous_access).toBe(false);
  });

  it('every other endpoint is 401 for anonymous callers', async () => {
    const calls: [string, string, object?][] = [
      ['POST', '/api/v2/pushes', { push: { payload: 'x' } }],
      ['GET', `/api/v2/pushes/${pushToken}`],
      ['GET', `/api/v2/pushes/${pushToken}/preview`],
      ['GET', `/api/v2/pushes/${pushToken}/audit`],
      ['DELETE', `/api/v2/pushes/${pushToken}`],
      ['GET', '/api/v2/pushes/active'],
      ['GET', '/api/v2/pushes/expired'],
      ['GET', '/api/v2/pushes/abcdefghijklmnopqrs'],
    ];
    for (const [method, path, json] of calls) {
      const r = await (method === 'GET' ? api.get : method === 'DELETE' ? api.delete : api.post)(server, path, { json });
      expect.soft([method, path, r.status]).toEqual([method, path, 401]);
      expect.soft(typeof r.body?.error).toBe('string');
    }
    // The deletable push was not deleted, nor viewed.
    const shown = await api.get(server, `/api/v2/pushes/${pushToken}`, { token });
    expect(shown.body).toMatchObject({ payload: 'closed instance', expired: false });
  });

  it('signed-in callers use the API as usual', async () => {
    const { token: viewer } = await createUserWithToken(server, 'viewer@example.com');
    const p = await createPush(server, { payload: 'for a member', expire_after_views: 2 }, token);
    const shown = await api.get(server, `/api/v2/pushes/${p.url_token}`, { token: viewer });
    expect(shown.body).toMatchObject({ payload: 'for a member', views_remaining: 1 });
    expect((await api.get(server, `/api/v2/pushes/${p.url_token}/preview`, { token: viewer })).status).toBe(200);
  });
});

describe('disabled kinds', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ ENABLE_URL_PUSHES: 'false', ENABLE_QR_PUSHES: 'false' });
  });
  afterAll(() => server.stop());

  it('the version document says so', async () => {
    const f = (await api.get(server, '/api/v2/version')).body.features.pushes;
    expect(f.url_pushes.enabled).toBe(false);
    expect(f.qr_code_pushes.enabled).toBe(false);
  });

  it('URL pushes: 422 {"kind": ["URL pushes are disabled."]}', async () => {
    const res = await api.post(server, '/api/v2/pushes', { json: { push: { payload: 'https://example.com', kind: 'url' } } });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ kind: ['URL pushes are disabled.'] });
  });

  it('QR pushes: 422 on kind', async () => {
    const res = await api.post(server, '/api/v2/pushes', { json: { push: { payload: 'qr', kind: 'qr' } } });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body)).toEqual(['kind']);
    expect(res.body.kind[0]).toMatch(/QR.*disabled/);
  });

  it('text pushes still work', async () => {
    expect((await api.post(server, '/api/v2/pushes', { json: { push: { payload: 'text' } } })).status).toBe(201);
  });
});

describe('RATE_LIMIT_PER_MINUTE', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ RATE_LIMIT_PER_MINUTE: '5' });
  });
  afterAll(() => server.stop());

  it('answers 429 with Retry-After and a JSON error past the limit', async () => {
    const statuses: number[] = [];
    let last;
    for (let i = 0; i < 7; i++) {
      last = await api.get(server, '/api/v2/version');
      statuses.push(last.status);
    }
    expect(statuses.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
    expect(statuses.slice(5)).toEqual([429, 429]);
    expect(last!.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(typeof last!.body.error).toBe('string');
  });
});
