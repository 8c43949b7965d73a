import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../../support/http.js';
import { startServer, type TestServer } from '../../support/server.js';
import { Browser } from '../pages/browser.js';
import { inviteState } from '../../../server/admin/invite-state.js';

/**
 * The invites of SIGN_UP=invite as an administrator manages them (issue 32 leftover): every
 * invite reachable page by page (50 a page, not only the latest 100), each with its state (open,
 * used, expired, revoked), and an open one revoked on the page or through the API, after which
 * its link signs nobody up.
 */
let server: TestServer;
let adminToken: string;
let admin: Browser;

beforeAll(async () => {
  server = await startServer({ SIGN_UP: 'invite', ADMIN_EMAILS: 'keeper@example.com' });
  const { user } = await server.server.accounts.ensureUser('keeper@example.com');
  adminToken = (await server.server.accounts.createApiToken(user)).token;
  await server.server.accounts.setPassword('keeper@example.com', 'correct horse battery');
  admin = new Browser(server);
  await admin.submit('/users/sign_in', '/users/sign_in', { email: 'keeper@example.com', password: 'correct horse battery' });
});
afterAll(() => server.stop());

const makeInvite = async (email?: string) => {
  const made = await api.post(server, '/api/v2/admin/invites', { token: adminToken, json: email ? { email } : { days: 1 } });
  expect(made.status).toBe(201);
  return new URL(made.body.link as string);
};
const signUpWith = (link: URL, email: string) => new Browser(server).submit(link.pathname + link.search, '/users/sign_up', { invite: link.searchParams.get('invite')!, email, password: 'correct horse battery' });
const statesOn = (html: string) => [...html.matchAll(/data-invite-state="(\w+)"/g)].map((m) => m[1]);

describe('the invites list', () => {
  // A retry runs on the same server, after the failed try's invites: each try has its own
  // addresses and expired invite, and the pages are checked against the invites the store holds
  // (the try's own ones at known places), not against a count that holds on a fresh server only.
  let attempt = 0;
  const storedStates = async (limit: number, offset = 0) => {
    const now = new Date();
    return (await server.server.store.listInvites(limit, offset)).map((i) => inviteState(i, now));
  };

  it('shows every invite with its state, page by page, and revokes an open one', async () => {
    attempt++;
    const earlier = (await server.server.store.listInvites(10_000)).length;
    // An invite that expired (written as the service would have, a week ago) and one used.
    const weekAgo = Date.now() - 7 * 86_400_000;
    await server.server.store.insertInvite({ id: `expired-invite-digest-${attempt}`, email: `late-${attempt}@example.com`, createdBy: 'keeper@example.com', createdAt: new Date(weekAgo).toISOString(), expiresAt: new Date(weekAgo + 86_400_000).toISOString(), usedAt: null });
    expect((await signUpWith(await makeInvite(`used-${attempt}@example.com`), `used-${attempt}@example.com`)).status).toBe(303);
    const revokeMe = `revoke-me-${attempt}@example.com`;
    const toRevoke = await makeInvite(revokeMe);
    for (let i = 0; i < 55; i++) await makeInvite();
    const stored = await storedStates(10_000);
    expect(stored).toHaveLength(earlier + 58);
    // On a fresh server: 50 open on page 1; page 2 the last five of the 55, the one to revoke,
    // the used one, the expired one (after a failed try, its invites come between).
    if (earlier === 0) expect(stored).toEqual([...Array(56).fill('open'), 'used', 'expired']);

    const first = await admin.get('/admin/invites');
    expect(first.status).toBe(200);
    expect(statesOn(first.text)).toEqual(Array(50).fill('open'));
    expect(first.text).toContain('href="/admin/invites?page=2"');
    const second = await admin.get('/admin/invites?page=2');
    // Newest first: the last five of the 55, the one to revoke, the used one, then older ones.
    const secondStates = statesOn(second.text);
    expect(secondStates).toEqual(stored.slice(50, 100));
    expect(secondStates.slice(0, 7)).toEqual([...Array(6).fill('open'), 'used']);
    expect(second.text).toContain('used ');
    // The expired one is the oldest of this try: last on page 2 on a fresh server.
    const expiredAt = (await server.server.store.listInvites(10_000)).findIndex((i) => i.id === `expired-invite-digest-${attempt}`);
    const expiredPage = await admin.get(`/admin/invites?page=${Math.floor(expiredAt / 50) + 1}`);
    expect(statesOn(expiredPage.text)[expiredAt % 50]).toBe('expired');
    expect(expiredPage.text).toContain('expired ');
    if (stored.length <= 100) expect(second.text).not.toContain('href="/admin/invites?page=3"');
    else expect(second.text).toContain('href="/admin/invites?page=3"');

    // Revoke the open invite for revoke-me@ on the page (a POST with the page's CSRF token).
    const id = (await server.server.store.listInvites(100)).find((i) => i.email === revokeMe)!.id;
    const revoked = await admin.submit('/admin/invites?page=2', '/admin/invites/revoke', { id });
    expect(revoked.status).toBe(303);
    expect(revoked.headers.get('location')).toBe('/admin/invites?revoked=1');
    expect((await admin.get('/admin/invites?revoked=1')).text).toContain('The invite was revoked');
    const afterPage = (await admin.get('/admin/invites?page=2')).text;
    const after = statesOn(afterPage);
    expect(after).toEqual(await storedStates(50, 50));
    // (Made in the same millisecond as the first of the 55, it may sort either side of it.)
    expect(after.slice(0, 6).sort()).toEqual([...Array(5).fill('open'), 'revoked']);
    expect(after[6]).toBe('used');
    if (earlier === 0) expect(after.slice(-2)).toEqual(['used', 'expired']);
    expect(afterPage).toContain('revoked ');
    // Its link signs nobody up now, and no account was made.
    const refused = await signUpWith(toRevoke, revokeMe);
    expect(refused.status).toBe(422);
    expect(refused.text).toContain('This invite link is not valid');
    expect(await server.server.store.getUserByEmail(revokeMe)).toBeUndefined();
    // In the admin log; a second revoke is refused with a clear message (409), not a 500.
    const log = await server.server.store.listAdminLog(0, 5);
    expect(log.find((e) => e.action === 'invite.revoke')).toMatchObject({ actorEmail: 'keeper@example.com', target: revokeMe });
    const again = await admin.submit('/admin/invites', '/admin/invites/revoke', { id });
    expect(again.status).toBe(409);
    expect(again.text).toContain('This invite cannot be revoked');
    // A page past the end is empty, not an error.
    expect(statesOn((await admin.get('/admin/invites?page=9')).text)).toEqual([]);
  });

  it('the API lists a page with states and ids (never links) and revokes by id', async () => {
    const link = await makeInvite('api-revoke@example.com');
    const listed = await api.get(server, '/api/v2/admin/invites', { token: adminToken });
    expect(listed.status).toBe(200);
    expect(listed.body).toHaveLength(50);
    const mine = listed.body.find((i: { email: string }) => i.email === 'api-revoke@example.com');
    expect(mine).toMatchObject({ state: 'open', usedAt: null });
    expect(JSON.stringify(listed.body)).not.toContain(link.searchParams.get('invite')!);
    const last = await api.get(server, '/api/v2/admin/invites?page=2', { token: adminToken });
    const lastStates = last.body.map((i: { state: string }) => i.state);
    expect(lastStates).toEqual(await storedStates(50, 50));
    expect(lastStates).toContain('used');
    // Page by page to the end, the API lists every stored invite once, the expired one too.
    const everyPage: string[] = [...listed.body.map((i: { state: string }) => i.state), ...lastStates];
    for (let page = 3; ; page++) {
      const more = await api.get(server, `/api/v2/admin/invites?page=${page}`, { token: adminToken });
      if (!more.body.length) break;
      everyPage.push(...more.body.map((i: { state: string }) => i.state));
    }
    expect(everyPage).toEqual(await storedStates(10_000));
    expect(everyPage).toContain('expired');
    expect((await api.post(server, `/api/v2/admin/invites/${encodeURIComponent(mine.id)}/revoke`, { token: adminToken })).status).toBe(204);
    const again = await api.post(server, `/api/v2/admin/invites/${encodeURIComponent(mine.id)}/revoke`, { token: adminToken });
    expect(again.status).toBe(409);
    expect(again.body.error).toContain('cannot be revoked');
    expect((await api.post(server, '/api/v2/admin/invites/no-such-invite/revoke', { token: adminToken })).status).toBe(409);
    expect((await api.get(server, '/api/v2/admin/invites?page=0', { token: adminToken })).status).toBe(400);
    expect((await signUpWith(link, 'api-revoke@example.com')).status).toBe(422);
  });

  it('a person who is not an administrator can neither list nor revoke', async () => {
    const { user } = await server.server.accounts.ensureUser('plain@example.com');
    const token = (await server.server.accounts.createApiToken(user)).token;
    expect((await api.get(server, '/api/v2/admin/invites', { token })).status).toBe(403);
    expect((await api.post(server, '/api/v2/admin/invites/x/revoke', { token })).status).toBe(403);
  });
});
