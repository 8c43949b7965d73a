import { createTRPCClient, httpLink, TRPCClientError } from '@trpc/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppRouter } from '../../../server/http/trpc/app-router';
import { api, BASE_KEYS, OWNER_KEYS, createPush } from '../../support/http.js';
import { createUserWithToken, startServer, type TestServer } from '../../support/server.js';

let server: TestServer;
let owner: string;
let other: string;

function client(token?: string, headers: Record<string, string> = {}) {
  return createTRPCClient<AppRouter>({
    links: [httpLink({ url: `${server.url}/trpc`, headers: () => ({ ...headers, ...(token ? { authorization: `Bearer ${token}` } : {}) }) })],
  });
}

/** The tRPC error of a call that must fail. */
async function trpcError(call: Promise<unknown>): Promise<TRPCClientError<AppRouter>> {
  try {
    await call;
  } catch (e) {
    if (e instanceof TRPCClientError) return e as TRPCClientError<AppRouter>;
    throw e;
  }
  throw new Error('expected the call to fail');
}

/** Fields that legitimately differ between two records of the same push read at different times. */
const stable = (r: Record<string, unknown>) => {
  const { updated_at: _u, views_remaining: _v, ...rest } = r;
  return rest;
};

beforeAll(async () => {
  server = await startServer();
  ({ token: owner } = await createUserWithToken(server, 'trpc@example.com'));
  ({ token: other } = await createUserWithToken(server, 'trpc-other@example.com'));
});
afterAll(() => server.stop());

describe('tRPC gives the same results as REST', () => {
  it('version and limits', async () => {
    expect(await client().version.query()).toEqual((await api.get(server, '/api/v2/version')).body);
    expect(await client().limits.query()).toMatchObject({ days: { default: 7, min: 1, max: 90 }, views: { default: 5, min: 1, max: 100 }, max_qr_chars: 1024 });
  });

  it('create over tRPC, retrieve over REST: the same record shape and defaults as a REST create', async () => {
    const viaTrpc = await client(owner).pushes.create.mutate({ payload: 'trpc secret', note: 'n', name: 'nm' });
    const viaRest = await createPush(server, { payload: 'rest secret', note: 'n', name: 'nm' }, owner);
    expect(Object.keys(viaTrpc)).toEqual([...OWNER_KEYS]);
    const { url_token: _a, created_at: _b, updated_at: _c, json_url: _d, html_url: _e, push_id: _k, ...t } = viaTrpc as Record<string, unknown>;
    const { url_token: _f, created_at: _g, updated_at: _h, json_url: _i, html_url: _j, push_id: _l, ...r } = viaRest;
    expect(t).toEqual(r);
    expect(viaTrpc.html_url).toBe(`${server.url}/p/${viaTrpc.url_token}/r`);
    const shown = await api.get(server, `/api/v2/pushes/${viaTrpc.url_token}`);
    expect(shown.body).toMatchObject({ payload: 'trpc secret', views_remaining: 4 });
  });

  it('create over REST, retrieve over tRPC and REST: the same record, each counting a view', async () => {
    const p = await createPush(server, { payload: 'both ways', expire_after_views: 3 });
    const t = await client().pushes.retrieve.mutate({ url_token: p.url_token });
    const r = (await api.get(server, `/api/v2/pushes/${p.url_token}`)).body;
    expect(Object.keys(t)).toEqual(Object.keys(r));
    expect(stable(t)).toEqual(stable(r));
    expect([t.views_remaining, r.views_remaining]).toEqual([2, 1]);
    // The last view over tRPC still delivers; then both say expired.
    const last = await client().pushes.retrieve.mutate({ url_token: p.url_token });
    expect(last).toMatchObject({ payload: 'both ways', expired: false, views_remaining: 0 });
    const afterT = await client().pushes.retrieve.mutate({ url_token: p.url_token });
    const afterR = (await api.get(server, `/api/v2/pushes/${p.url_token}`)).body;
    expect(afterT).toMatchObject({ expired: true, payload: null, files: [] });
    expect(stable(afterT)).toEqual(stable(afterR));
  });

  it('preview, audit, expire and lists', async () => {
    const p = await createPush(server, { payload: 'x', deletable_by_viewer: false }, owner);
    expect(await client().pushes.preview.query({ url_token: p.url_token })).toEqual((await api.get(server, `/api/v2/pushes/${p.url_token}/preview`)).body);
    expect(await client(owner).pushes.audit.query({ url_token: p.url_token, page: 1 })).toEqual(
      (await api.get(server, `/api/v2/pushes/${p.url_token}/audit`, { token: owner })).body,
    );
    expect(await client(owner).pushes.active.query()).toEqual((await api.get(server, '/api/v2/pushes/active', { token: owner })).body);
    expect(await client(owner).pushes.active.query({ page: 2 })).toEqual((await api.get(server, '/api/v2/pushes/active?page=2', { token: owner })).body);

    expect((await trpcError(client().pushes.expire.mutate({ url_token: p.url_token }))).data?.code).toBe('UNAUTHORIZED');
    expect((await trpcError(client(other).pushes.expire.mutate({ url_token: p.url_token }))).data?.code).toBe('FORBIDDEN');
    const expired = await client(owner).pushes.expire.mutate({ url_token: p.url_token });
    expect(Object.keys(expired)).toEqual([...BASE_KEYS]);
    expect(expired).toMatchObject({ expired: true, deleted: true });
    expect(await client(owner).pushes.expired.query()).toEqual((await api.get(server, '/api/v2/pushes/expired', { token: owner })).body);
    expect((await client(owner).pushes.expired.query()).map((r) => r.url_token)).toContain(p.url_token);
  });

  it('the audit entries made over tRPC carry the client’s user agent and referrer', async () => {
    const p = await createPush(server, { payload: 'x' }, owner);
    await client(undefined, { 'user-agent': 'TrpcAgent/1', referer: 'https://ext.example/' }).pushes.retrieve.mutate({ url_token: p.url_token });
    const logs = (await client(owner).pushes.audit.query({ url_token: p.url_token, page: 1 })).logs;
    expect(logs[1]).toMatchObject({ kind: 'view', user_agent: 'TrpcAgent/1', referrer: 'https://ext.example/' });
  });
});

describe('tRPC errors', () => {
  it('lists and audit without a token: UNAUTHORIZED (401); audit of another user: FORBIDDEN', async () => {
    for (const call of [() => client().pushes.active.query(), () => client().pushes.expired.query()]) {
      const e = await trpcError(call());
      expect(e.data?.code).toBe('UNAUTHORIZED');
      expect(e.data?.httpStatus).toBe(401);
    }
    const p = await createPush(server, { payload: 'x' }, owner);
    expect((await trpcError(client().pushes.audit.query({ url_token: p.url_token, page: 1 }))).data?.code).toBe('UNAUTHORIZED');
    expect((await trpcError(client(other).pushes.audit.query({ url_token: p.url_token, page: 1 }))).data?.code).toBe('FORBIDDEN');
  });

  it('an invalid token is UNAUTHORIZED even on retrieve and preview', async () => {
    const p = await createPush(server, { payload: 'x' });
    expect((await trpcError(client('bogus').pushes.retrieve.mutate({ url_token: p.url_token }))).data?.code).toBe('UNAUTHORIZED');
    expect((await trpcError(client('bogus').pushes.preview.query({ url_token: p.url_token }))).data?.code).toBe('UNAUTHORIZED');
    expect((await api.get(server, `/api/v2/pushes/${p.url_token}`)).body.views_remaining).toBe(4);
  });

  it('unknown tokens are NOT_FOUND', async () => {
    for (const t of ['abcdefghijklmnopqrs', '__proto__', 'constructor']) {
      const e = await trpcError(client().pushes.retrieve.mutate({ url_token: t }));
      expect.soft([t, e.data?.code]).toEqual([t, 'NOT_FOUND']);
    }
  });

  it('a wrong passphrase is UNAUTHORIZED with the reference message; too many attempts TOO_MANY_REQUESTS', async () => {
    const p = await createPush(server, { payload: 'x', passphrase: 'pw' });
    const e = await trpcError(client().pushes.retrieve.mutate({ url_token: p.url_token, passphrase: 'nope' }));
    expect(e.data?.code).toBe('UNAUTHORIZED');
    expect(e.message).toBe('That passphrase is incorrect.');
    for (let i = 0; i < 4; i++) await trpcError(client().pushes.retrieve.mutate({ url_token: p.url_token, passphrase: 'nope' }));
    // The limit is per push, whichever adapter the attempts came through.
    const rest = await api.get(server, `/api/v2/pushes/${p.url_token}?passphrase=pw`);
    expect(rest.status).toBe(429);
    expect((await trpcError(client().pushes.retrieve.mutate({ url_token: p.url_token, passphrase: 'pw' }))).data?.code).toBe('TOO_MANY_REQUESTS');
  });

  it.each([
    [{ payload: 'x', expire_after_days: 0 }],
    [{ payload: 'x', expire_after_views: 101 }],
    [{ payload: 'x', kind: 'banana' }],
    [{ payload: '' }],
    [{ payload: 'javascript:alert(1)', kind: 'url' }],
    [{ payload: 'q'.repeat(1025), kind: 'qr' }],
    [{ payload: 'x', expire_after_days: 0, expire_after_views: 0 }],
  ])('validation of %j: 422 UNPROCESSABLE_CONTENT with the REST body in data.fieldErrors', async (push) => {
    const rest = await api.post(server, '/api/v2/pushes', { json: { push } });
    expect(rest.status).toBe(422);
    const e = await trpcError(client().pushes.create.mutate(push as never));
    expect(e.data?.code).toBe('UNPROCESSABLE_CONTENT');
    expect(e.data?.httpStatus).toBe(422);
    expect((e.data as { fieldErrors?: unknown }).fieldErrors).toEqual(rest.body);
  });

  it.each([[{ payload: 123 }], [{ payload: 'x', expire_after_views: 'abc' }], [{ payload: 'x', retrieval_step: { a: 1 } }]])(
    'wrong types %j: REST answers 422 on the field; tRPC names the same field in data.fieldErrors',
    async (push) => {
      const rest = await api.post(server, '/api/v2/pushes', { json: { push } });
      expect(rest.status).toBe(422);
      const e = await trpcError(client().pushes.create.mutate(push as never));
      const fieldErrors = (e.data as { fieldErrors?: Record<string, string[]> }).fieldErrors;
      expect(Object.keys(fieldErrors ?? {})).toEqual(Object.keys(rest.body));
      expect(e.data?.httpStatus).toBe(422);
    },
  );

  it('files need authentication over tRPC too (FILES_REQUIRE_AUTH): kind file or a files key', async () => {
    expect((await trpcError(client().pushes.create.mutate({ payload: 'x', kind: 'file' }))).data?.code).toBe('UNAUTHORIZED');
    expect((await trpcError(client().pushes.create.mutate({ payload: 'x', files: [] } as never))).data?.code).toBe('UNAUTHORIZED');
  });

  it('concurrent retrievals of a one-view push over both adapters deliver once', async () => {
    const p = await createPush(server, { payload: 'once across adapters', expire_after_views: 1 });
    const results = await Promise.all([
      ...Array.from({ length: 8 }, () => client().pushes.retrieve.mutate({ url_token: p.url_token })),
      ...Array.from({ length: 8 }, async () => (await api.get(server, `/api/v2/pushes/${p.url_token}`)).body),
    ]);
    expect(results.filter((r) => r.payload === 'once across adapters')).toHaveLength(1);
  });
});

describe('tRPC over raw HTTP', () => {
  it('retrieve is a mutation: a GET (a link previewer) is refused and counts no view', async () => {
    const p = await createPush(server, { payload: 'no get', expire_after_views: 1 });
    const input = encodeURIComponent(JSON.stringify({ url_token: p.url_token }));
    const res = await fetch(`${server.url}/trpc/pushes.retrieve?input=${input}`);
    expect(res.ok).toBe(false);
    expect(await res.text()).not.toContain('no get');
    expect((await api.get(server, `/api/v2/pushes/${p.url_token}`)).body.payload).toBe('no get');
  });

  it('secret responses carry the security headers', async () => {
    const p = await createPush(server, { payload: 'hdr' });
    const res = await fetch(`${server.url}/trpc/pushes.retrieve`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ url_token: p.url_token }) });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toContain('no-store');
    expect(res.headers.get('x-robots-tag')).toBe('noindex, nofollow');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(JSON.stringify(await res.json())).toContain('hdr');
  });
});

describe('tRPC with ALLOW_ANONYMOUS=false', () => {
  it('every push procedure is UNAUTHORIZED for anonymous callers; version stays public', async () => {
    const closed = await startServer({ ALLOW_ANONYMOUS: 'false' });
    try {
      const c = createTRPCClient<AppRouter>({ links: [httpLink({ url: `${closed.url}/trpc` })] });
      expect((await c.version.query()).features.anonymous_access).toBe(false);
      const calls = [
        () => c.pushes.create.mutate({ payload: 'x' }),
        () => c.pushes.retrieve.mutate({ url_token: 'abcdefghijklmnopqrs' }),
        () => c.pushes.preview.query({ url_token: 'abcdefghijklmnopqrs' }),
        () => c.pushes.active.query(),
      ];
      for (const call of calls) expect((await trpcError(call())).data?.code).toBe('UNAUTHORIZED');
    } finally {
      await closed.stop();
    }
  });
});
