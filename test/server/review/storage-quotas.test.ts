import { afterAll, describe, expect, it } from 'vitest';
import { api, createPush, secret, type ApiResponse } from '../../support/http.js';
import { createUserWithToken, startServer, type TestServer } from '../../support/server.js';
import { storedBlobs, storedContaining } from '../../support/stored-data.js';
import { Browser } from '../pages/browser.js';

/**
 * Finding 2: anonymous clients filled 1 GB in seconds and left a store the server could not
 * restart from. The store has a cap (MAX_STORAGE_MB: 507), accounts and anonymous addresses a
 * rolling daily quota (429 with Retry-After); a refused write stores nothing.
 */
const servers: TestServer[] = [];
afterAll(async () => {
  for (const s of servers) await s.stop();
});
const start = async (env: Record<string, string>) => {
  const s = await startServer(env);
  servers.push(s);
  return s;
};

/** ~200 KB of text (~270 KB sealed), marked so it can be looked for in what was stored. */
const big = (marker: string) => `${marker} ${'x'.repeat(200_000)}`;

describe('MAX_STORAGE_MB', () => {
  it('once the store is at its cap: 507 naming the limit, nothing stored (text, files, tRPC, the page); the server still restarts and serves what it holds', async () => {
    const server = await start({ MAX_STORAGE_MB: '1', FILES_REQUIRE_AUTH: 'false' });
    const kept: { url_token: string }[] = [];
    let refused: ApiResponse | undefined;
    const marker = secret('over-cap');
    for (let i = 0; i < 10 && !refused; i++) {
      const res = await api.post(server, '/api/v2/pushes', { json: { push: { payload: big(`${marker}-${i}`) } } });
      if (res.status === 201) kept.push(res.body);
      else refused = res;
    }
    expect(kept.length).toBeGreaterThan(0);
    expect(refused!.status).toBe(507);
    expect(refused!.body.error).toMatch(/storage is full \(the limit is 1 MB, MAX_STORAGE_MB\)/);
    const count = await server.server.store.countPushes();
    expect(count.total).toBe(kept.length);
    expect(await storedContaining(server, `${marker}-${kept.length}`)).toEqual([]);

    // A file upload over the cap is refused, and what was streamed in is removed.
    const fd = new FormData();
    fd.append('push[payload]', 'file');
    fd.append('push[files][]', new Blob([`${marker}-file `, 'y'.repeat(400_000)]), 'f.txt');
    const file = await api.post(server, '/api/v2/pushes', { raw: fd });
    expect(file.status).toBe(507);
    expect(await storedBlobs(server)).toEqual([]);
    const trpc = await api.post(server, '/trpc/pushes.create', { json: { payload: big(`${marker}-trpc`) } });
    expect(trpc.status).toBe(503); // tRPC has no 507
    expect(trpc.body.error.message).toMatch(/MAX_STORAGE_MB/);
    const page = await new Browser(server).submit('/', '/', { 'push[kind]': 'text', 'push[payload]': big(`${marker}-page`) });
    expect(page.status).toBe(507);
    expect(page.text).toContain('MAX_STORAGE_MB');
    expect(await server.server.store.countPushes()).toEqual(count);
    expect(await storedContaining(server, `${marker}-page`)).toEqual([]);

    await server.close();
    const again = await startServer({ DATA_DIR: server.dataDir, MAX_STORAGE_MB: '1' });
    try {
      expect((await api.get(again, `/api/v2/pushes/${kept[0]!.url_token}`)).body.payload).toContain(`${marker}-0`);
    } finally {
      await again.close();
    }
  });
});

describe('daily quotas', () => {
  it('ANONYMOUS_STORAGE_MB_PER_IP_PER_DAY: one address is refused with 429 + Retry-After naming the limit; another address is not', async () => {
    const server = await start({ ANONYMOUS_STORAGE_MB_PER_IP_PER_DAY: '1', TRUST_PROXY: 'true' });
    const from = (ip: string, payload: string) => api.post(server, '/api/v2/pushes', { json: { push: { payload } }, headers: { 'x-forwarded-for': ip } });
    const marker = secret('anon');
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await from('198.51.100.20', big(`${marker}-${i}`))).status);
    expect(statuses).toEqual([201, 201, 201, 429]);
    const refused = await from('198.51.100.20', big(`${marker}-again`));
    expect(refused.status).toBe(429);
    expect(refused.body.error).toMatch(/Your address has stored too much in the last 24 hours \(the limit is 1 MB a day, ANONYMOUS_STORAGE_MB_PER_IP_PER_DAY\)/);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(80_000);
    expect(await storedContaining(server, `${marker}-3`)).toEqual([]);
    // The same client written as an IPv4-mapped IPv6 address is the same client.
    expect((await from('::ffff:198.51.100.20', big(`${marker}-mapped`))).status).toBe(429);
    expect((await from('198.51.100.21', big(`${marker}-other`))).status).toBe(201);
    expect((await server.server.store.countPushes()).total).toBe(4);
  });

  it('ACCOUNT_STORAGE_MB_PER_DAY: an account is held to its quota whichever address it uses', async () => {
    const server = await start({ ACCOUNT_STORAGE_MB_PER_DAY: '1', TRUST_PROXY: 'true' });
    const { token } = await createUserWithToken(server, 'quota@example.com');
    const statuses = [];
    for (let i = 0; i < 4; i++) {
      const res = await api.post(server, '/api/v2/pushes', { token, json: { push: { payload: big(`acct-${i}`) } }, headers: { 'x-forwarded-for': `192.0.2.${i + 1}` } });
      statuses.push(res.status);
      if (res.status === 429) expect(res.body.error).toMatch(/This account has stored too much .*ACCOUNT_STORAGE_MB_PER_DAY/);
    }
    expect(statuses).toEqual([201, 201, 201, 429]);
    // Anonymous creation from those addresses is not this account's quota.
    expect((await createPush(server, { payload: 'anonymous' })).url_token).toBeTruthy();
  });
});
