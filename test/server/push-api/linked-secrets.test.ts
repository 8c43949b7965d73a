import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { api, createPush } from '../../support/http.js';
import { createUserWithToken, startServer, type TestServer } from '../../support/server.js';
import { Browser } from '../pages/browser.js';

/**
 * Linked secrets (issue 35 item 3): a push that `follows` another opens only for a recipient who
 * opened that one first (a proof: the API's Secret-Push-Opened header, the page's cookie), or from
 * `follows_until`. Only Date is faked (as in scheduled-release.test.ts): no sleeps.
 */
let server: TestServer;
let owner: string;
let stranger: string;

beforeAll(async () => {
  vi.useFakeTimers({ toFake: ['Date'], now: Date.parse('2027-02-27T12:00:00Z') });
  server = await startServer();
  ({ token: owner } = await createUserWithToken(server, 'linked@example.com'));
  ({ token: stranger } = await createUserWithToken(server, 'other@example.com'));
});
afterAll(async () => {
  await server.stop();
  vi.useRealTimers();
});

const kinds = async (token: string) => (await api.get(server, `/api/v2/pushes/${token}/audit`, { token: owner })).body.logs.map((l: any) => l.kind);

describe('linked secrets on the API', () => {
  it('out of order: 425 and nothing counted; in order with the proof of the first: opens', async () => {
    const password = await createPush(server, { payload: 'the password', expire_after_views: 2 }, owner);
    const seed = await createPush(server, { payload: 'TOTP seed', follows: password.html_url, expire_after_views: 1 }, owner);
    expect(seed.follows).toBe(password.push_id);

    const early = await api.get(server, `/api/v2/pushes/${seed.url_token}`);
    expect(early.status).toBe(425);
    expect(early.body).toMatchObject({ follows: true });
    expect(early.headers.get('retry-after')).toBeNull();
    expect(early.text).not.toContain('TOTP seed');
    expect(early.text).not.toContain(password.url_token);

    const first = await api.get(server, `/api/v2/pushes/${password.url_token}`);
    expect(first.body.payload).toBe('the password');
    const proof = first.headers.get('secret-push-opened');
    expect(proof).toMatch(/^H[\w-]+\.[\w-]+$/);

    // Another client without the proof, and a forged one, still wait.
    expect((await api.get(server, `/api/v2/pushes/${seed.url_token}`, { headers: { 'secret-push-opened': `${proof!.split('.')[0]}.forged` } })).status).toBe(425);
    const opened = await api.get(server, `/api/v2/pushes/${seed.url_token}`, { headers: { 'secret-push-opened': proof! } });
    expect(opened.status).toBe(200);
    expect(opened.body).toMatchObject({ payload: 'TOTP seed', views_remaining: 0 });

    // Both audits show the link; the refused tries counted nothing.
    expect(await kinds(password.url_token)).toEqual(['creation', 'linked', 'view']);
    expect(await kinds(seed.url_token)).toEqual(['creation', 'linked', 'view']);
    // The owner opens either at any time.
    expect((await api.get(server, `/api/v2/pushes/${seed.url_token}`, { token: owner })).status).toBe(200);
  });

  it('follows_until: without the first, the push opens from that time (425 with Retry-After until then)', async () => {
    const a = await createPush(server, { payload: 'a' }, owner);
    const b = await createPush(server, { payload: 'b', follows: a.url_token, follows_until: new Date(Date.now() + 3_600_000).toISOString() }, owner);
    const early = await api.get(server, `/api/v2/pushes/${b.url_token}`);
    expect(early.status).toBe(425);
    expect(early.headers.get('retry-after')).toBe('3600');
    vi.setSystemTime(Date.now() + 3_600_000);
    expect((await api.get(server, `/api/v2/pushes/${b.url_token}`)).body).toMatchObject({ payload: 'b' });
  });

  it("only one's own push can be followed: someone else's and a link that does not exist get the same 422", async () => {
    const theirs = await createPush(server, { payload: 'theirs' }, stranger);
    const refused = await api.post(server, '/api/v2/pushes', { token: owner, json: { push: { payload: 'x', follows: theirs.url_token } } });
    const unknown = await api.post(server, '/api/v2/pushes', { token: owner, json: { push: { payload: 'x', follows: 'nosuchtokenatall' } } });
    expect(refused.status).toBe(422);
    expect(unknown.body).toEqual(refused.body);
    expect(refused.body).toEqual({ follows: ['must be the link of one of your own pushes'] });
    expect((await api.post(server, '/api/v2/pushes', { json: { push: { payload: 'x', follows: theirs.url_token } } })).status).toBe(422);
    expect((await api.post(server, '/api/v2/pushes', { token: owner, json: { push: { payload: 'x', follows: 'http://x/not a link' } } })).status).toBe(422);
  });
});

describe('linked secrets on the recipient pages: two browsers are two recipients', () => {
  it('the second link says "open the first link first" until this browser opened the first; the other browser still waits', async () => {
    const first = await createPush(server, { payload: 'first secret', expire_after_views: 5 }, owner);
    const second = await createPush(server, { payload: 'second secret', follows: first.url_token, expire_after_views: 5 }, owner);
    const alice = new Browser(server, { accept: 'text/html' });
    const bob = new Browser(server, { accept: 'text/html' });

    const waiting = await alice.get(`/p/${second.url_token}`);
    expect(waiting.status).toBe(425);
    expect(waiting.text).toContain('Open the first link first');
    expect(waiting.text).not.toContain(first.url_token);
    expect(waiting.text).not.toContain('second secret');

    const opened = await alice.get(`/p/${first.url_token}`);
    expect(opened.text).toContain('first secret');
    const cookie = opened.setCookies.find((c) => c.startsWith('sp_opened_'));
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/Path=\/p\//);
    expect(cookie).not.toMatch(/Max-Age|Expires/i);

    const now = await alice.get(`/p/${second.url_token}`);
    expect(now.status).toBe(200);
    expect(now.text).toContain('second secret');
    expect((await bob.get(`/p/${second.url_token}`)).status).toBe(425);
    const german = await bob.get(`/p/${second.url_token}`, { 'accept-language': 'de' });
    expect(german.text).toContain('Zuerst den ersten Link öffnen');
  });
});
