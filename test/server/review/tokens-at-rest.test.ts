import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createPush, waitFor } from '../../support/http.js';
import { createUserWithToken, startServer, type TestServer } from '../../support/server.js';
import { storedContaining } from '../../support/stored-data.js';
import { Browser } from '../pages/browser.js';

/**
 * Finding 5: URL tokens sat in plain text in the store and the journal, so a copy of the data
 * directory (or the database) listed every live link. Pushes are stored under a keyed hash of
 * the token; the token is only in the creator's answer, and every way in still works.
 */
let server: TestServer;
let owner: string;

beforeAll(async () => {
  server = await startServer();
  ({ token: owner } = await createUserWithToken(server, 'at-rest@example.com'));
});
afterAll(() => server.stop());

async function filePush(token: string) {
  const fd = new FormData();
  fd.append('push[payload]', 'see file');
  fd.append('push[files][]', new Blob(['file at rest']), 'rest.txt');
  const res = await api.post(server, '/api/v2/pushes', { token, raw: fd });
  expect(res.status).toBe(201);
  return res.body;
}

describe('URL tokens at rest', () => {
  it('no way of creating a push stores its URL token, and every way of using it still works', async () => {
    const anonymous = await createPush(server, { payload: 'anonymous at rest', passphrase: 'open sesame' });
    const owned = await createPush(server, { payload: 'owned at rest', note: 'n' }, owner);
    const withFile = await filePush(owner);
    const viaTrpc = (await api.post(server, '/trpc/pushes.create', { json: { payload: 'trpc at rest' } })).body.result.data;
    const viaV1 = (await api.post(server, '/p.json', { json: { password: { payload: 'v1 at rest' } } })).body;
    const page = await new Browser(server).submit('/', '/', { 'push[kind]': 'text', 'push[payload]': 'page at rest' });
    const pageToken = /\/p\/([a-z0-9_-]+)/.exec(page.text)![1]!;
    const tokens = [anonymous.url_token, owned.url_token, withFile.url_token, viaTrpc.url_token, viaV1.url_token, pageToken];
    for (const t of tokens) expect(t).toMatch(/^[a-z0-9_-]{19}$/);

    // Every way in still works with the token the creator was given.
    expect((await api.get(server, `/api/v2/pushes/${anonymous.url_token}?passphrase=open%20sesame`)).body.payload).toBe('anonymous at rest');
    expect((await api.get(server, `/api/v2/pushes/${owned.url_token}/preview`)).body.url).toContain(owned.url_token);
    expect((await api.get(server, `/p/${viaV1.url_token}.json`)).body.payload).toBe('v1 at rest');
    expect((await new Browser(server).get(`/p/${pageToken}/r`)).status).toBe(200);
    const shown = await api.get(server, `/api/v2/pushes/${withFile.url_token}`);
    const download = await fetch(shown.body.files[0].url);
    expect(download.status).toBe(200);
    expect(await download.text()).toBe('file at rest');
    const audit = await api.get(server, `/api/v2/pushes/${owned.url_token}/audit`, { token: owner });
    expect(audit.body.logs.map((l: any) => l.kind)).toEqual(['creation']);
    // The owner's list still names its links.
    const active = (await api.get(server, '/api/v2/pushes/active', { token: owner })).body.map((r: any) => r.url_token);
    expect(active).toEqual(expect.arrayContaining([owned.url_token, withFile.url_token]));
    expect((await api.delete(server, `/api/v2/pushes/${viaTrpc.url_token}`)).status).toBe(200);

    // …and none of the tokens is anywhere in what the server stored or logged.
    for (const t of tokens) {
      expect.soft([t, await storedContaining(server, t)]).toEqual([t, []]);
      expect(server.logs.join('\n')).not.toContain(t);
    }
  });

  it('a store written before tokens were hashed is moved on start: links, audit, files and owner lists keep working, and the tokens leave the store', async () => {
    const { token: account } = await createUserWithToken(server, 'legacy@example.com');
    const legacy = await createPush(server, { payload: 'legacy text', expire_after_views: 3 }, account);
    const legacyFile = await filePush(account);
    const anonymous = await createPush(server, { payload: 'legacy anonymous' });
    // Put them back the way an older version stored them: under the plain token, no sealed copy.
    const plain = new Map([legacy, legacyFile, anonymous].map((p) => [server.server.pushes.storageId(p.url_token), p.url_token as string]));
    const store = server.server.store;
    expect(await store.renamePushes((p) => (plain.has(p.token) ? { ...p, token: plain.get(p.token)!, urlToken: undefined } : undefined))).toBe(3);
    await store.putSetting('url-tokens', 'plain');
    expect(await storedContaining(server, legacy.url_token)).not.toEqual([]);
    await server.close();

    server = await restart(server);
    expect(server.logs.join('\n')).toMatch(/Stored 3 pushes under keyed hashes of their URL tokens/);
    expect((await api.get(server, `/api/v2/pushes/${legacy.url_token}`)).body).toMatchObject({ payload: 'legacy text', views_remaining: 2 });
    expect((await api.get(server, `/api/v2/pushes/${anonymous.url_token}`)).body.payload).toBe('legacy anonymous');
    const file = await api.get(server, `/api/v2/pushes/${legacyFile.url_token}`);
    expect(await (await fetch(file.body.files[0].url)).text()).toBe('file at rest');
    expect((await api.get(server, `/api/v2/pushes/${legacy.url_token}/audit`, { token: account })).body.logs.map((l: any) => l.kind)).toEqual(['creation', 'view']);
    const listed = (await api.get(server, '/api/v2/pushes/active', { token: account })).body.map((r: any) => r.url_token);
    expect(listed).toEqual([legacyFile.url_token, legacy.url_token]);
    // The journal lines that held the old tokens are compacted away.
    for (const p of [legacy, legacyFile, anonymous]) {
      await waitFor(async () => (await storedContaining(server, p.url_token)).length === 0, 10_000, 'the old token to leave the store');
    }
  });
});

/** The same data dir (or database) and key, a new process-level server. */
async function restart(old: TestServer): Promise<TestServer> {
  const next = await startServer({ DATA_DIR: old.dataDir });
  const stop = next.stop;
  // The suite's afterAll owns the directory now.
  next.stop = async () => {
    await stop();
    const { rmSync } = await import('node:fs');
    rmSync(old.dataDir, { recursive: true, force: true });
  };
  return next;
}
