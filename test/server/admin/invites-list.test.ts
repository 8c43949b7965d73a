import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../../support/http.js';
import { startServer, type TestServer } from '../../support/server.js';
import { Browser } from '../pages/browser.js';

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
  it('shows every invite with its state, page by page, and revokes an open one', async () => {
    // An invite that expired (written as the service would have, a week ago) and one used.
    const weekAgo = Date.now() - 7 * 86_400_000;
    await server.server.store.insertInvite({ id: 'expired-invite-digest', email: 'late@example.com', createdBy: 'keeper@example.com', createdAt: new Date(weekAgo).toISOString(), expiresAt: new Date(weekAgo + 86_400_000).toISOString(), usedAt: null });
    expect((await signUpWith(await makeInvite('used@example.com'), 'used@example.com')).status).toBe(303);
    const toRevoke = await makeInvite('revoke-me@example.com');
    for (let i = 0; i < 55; i++) await makeInvite();

    const first = await admin.get('/admin/invites');
    expect(first.status).toBe(200);
    expect(statesOn(first.text)).toEqual(Array(50).fill('open'));
    expect(first.text).toContain('href="/admin/invites?page=2"');
    const second = await admin.get('/admin/invites?page=2');
    // Newest first: the last five of the 55, the one to revoke, the used one, the expired one.
    expect(statesOn(second.text)).toEqual([...Array(6).fill('open'), 'used', 'expired']);
    expect(second.text).toContain('used ');
    expect(second.text).toContain('expired ');
    expect(second.text).not.toContain('href="/admin/invites?page=3"');

    // Revoke the open invite for revoke-me@ on the page (a POST with the page's CSRF token).
    const id = (await server.server.store.listInvites(100)).find((i) => i.email === 'revoke-me@example.com')!.id;
    const revoked = await admin.submit('/admin/invites?page=2', '/admin/invites/revoke', { id });
    expect(revoked.status).toBe(303);
    expect(revoked.headers.get('location')).toBe('/admin/invites?revoked=1');
    expect((await admin.get('/admin/invites?revoked=1')).text).toContain('The invite was revoked');
    const afterPage = (await admin.get('/admin/invites?page=2')).text;
    const after = statesOn(afterPage);
    // (Made in the same millisecond as the first of the 55, it may sort either side of it.)
    expect(after.slice(-2)).toEqual(['used', 'expired']);
    expect(after.slice(0, -2).sort()).toEqual([...Array(5).fill('open'), 'revoked']);
    expect(afterPage).toContain('revoked ');
    // Its link signs nobody up now, and no account was made.
    const refused = await signUpWith(toRevoke, 'revoke-me@example.com');
    expect(refused.status).toBe(422);
    expect(refused.text).toContain('This invite link is not valid');
    expect(await server.server.store.getUserByEmail('revoke-me@example.com')).toBeUndefined();
    // In the admin log; a second revoke is refused with a clear message (409), not a 500.
    const log = await server.server.store.listAdminLog(0, 5);
    expect(log.find((e) => e.action === 'invite.revoke')).toMatchObject({ actorEmail: 'keeper@example.com', target: 'revoke-me@example.com' });
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
    expect(last.body.map((i: { state: string }) => i.state).slice(-2)).toEqual(['used', 'expired']);
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
