import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminActions } from '../../../server/admin/admin-actions.js';
import { loadConfig } from '../../../server/config.js';
import { adminPageRoutes } from '../../../server/http/pages/admin/admin-routes.js';
import { adminApiRoutes } from '../../../server/http/rest/admin-routes.js';
import { api, createPush } from '../../support/http.js';
import { startServer, type TestServer } from '../../support/server.js';
import { Browser, csrfFrom } from '../pages/browser.js';
import { enrolled, PASSWORD } from '../sign-in/totp-enrolment.js';

/**
 * The administration area over real HTTP: the role (ADMIN_EMAILS and the stored flag), the
 * pages and the API refusing everyone else, each action in the admin log, locking, pushes as
 * metadata only, the audit's filters and exports.
 */
let server: TestServer;
let adminBrowser: Browser;
let adminToken: string;
let userToken: string;
const ADMIN = 'boss@example.com';

async function tokenFor(email: string): Promise<string> {
  const { user } = await server.server.accounts.ensureUser(email);
  return (await server.server.accounts.createApiToken(user)).token;
}

beforeAll(async () => {
  server = await startServer({ ADMIN_EMAILS: ` ${ADMIN.toUpperCase()} `, METRICS_TOKEN: 'metrics-token-that-is-long-enough' });
  adminBrowser = new Browser(server);
  await adminBrowser.signUp(ADMIN);
  adminToken = await tokenFor(ADMIN);
  userToken = await tokenFor('someone@example.com');
});
afterAll(() => server.stop());

describe('who is an administrator', () => {
  it('ADMIN_EMAILS grants the role (case and spaces aside): the header links to /admin, which shows storage against MAX_STORAGE_MB', async () => {
    const home = await adminBrowser.get('/dashboard');
    expect(home.text).toContain('href="/admin"');
    const page = await adminBrowser.get('/admin');
    expect(page.status).toBe(200);
    expect(page.text).toMatch(/used of 1\.0 GiB/);
  });

  it('a signed-in non-administrator gets 403 on /admin and no link to it; signed out, sign-in first', async () => {
    const b = new Browser(server);
    await b.signUp('plain@example.com');
    expect((await b.get('/dashboard')).text).not.toContain('href="/admin"');
    expect((await b.get('/admin')).status).toBe(403);
    const anonymous = await new Browser(server).get('/admin/users');
    expect(anonymous.status).toBe(303);
    expect(anonymous.headers.get('location')).toBe('/users/sign_in?return_to=%2Fadmin%2Fusers');
  });

  it('the stored flag (npm run users -- admin) grants it, and revoking takes it away at the next request', async () => {
    const b = new Browser(server);
    await b.signUp('promoted@example.com');
    expect((await b.get('/admin')).status).toBe(403);
    const { commandLineActor } = await import('../../../server/admin/admin-service.js');
    await server.server.admin.setAdmin(commandLineActor(), 'promoted@example.com', true);
    expect((await b.get('/admin')).status).toBe(200);
    await server.server.admin.setAdmin(commandLineActor(), 'promoted@example.com', false);
    expect((await b.get('/admin')).status).toBe(403);
    const log = await api.get(server, '/api/v2/admin/log', { token: adminToken });
    expect(log.body.slice(0, 2).map((e: any) => [e.action, e.actorEmail, e.target])).toEqual([
      ['user.revoke-admin', 'command line', 'promoted@example.com'],
      ['user.grant-admin', 'command line', 'promoted@example.com'],
    ]);
  });
});

describe('every admin route refuses everyone else', () => {
  it('walks the whole route table of the admin pages and the admin API: 403 for a signed-in non-administrator, 401 for an API call without an account', async () => {
    const config = loadConfig({});
    const { accounts, admin, invites } = server.server;
    const pageRoutes = adminPageRoutes(config, accounts, admin, invites).routes.filter((r) => r.method !== 'ALL');
    const apiRoutes = adminApiRoutes(admin, invites, 1024).routes.filter((r) => r.method !== 'ALL');
    expect(pageRoutes.length).toBeGreaterThanOrEqual(15);
    expect(apiRoutes.length).toBeGreaterThanOrEqual(14);
    const victim = (await accounts.ensureUser('victim@example.com')).user;
    const b = new Browser(server);
    await b.signUp('intruder@example.com');
    const csrf = csrfFrom((await b.get('/dashboard')).text, '/users/sign_out');
    for (const r of pageRoutes) {
      const path = r.path.replace(':id', victim.id);
      const res = r.method === 'GET' ? await b.get(path) : await b.post(path, { csrf_token: csrf, id: victim.id, email: 'x@example.com' });
      expect({ route: `${r.method} ${r.path}`, status: res.status }).toEqual({ route: `${r.method} ${r.path}`, status: 403 });
    }
    for (const r of apiRoutes) {
      const path = '/api/v2/admin' + r.path.replace(':id', victim.id);
      const asUser = await api[r.method.toLowerCase() as 'get' | 'post' | 'delete'](server, path, { token: userToken, json: r.method === 'GET' ? undefined : {} });
      expect({ route: `${r.method} ${r.path}`, status: asUser.status }).toEqual({ route: `${r.method} ${r.path}`, status: 403 });
      const anonymous = await api[r.method.toLowerCase() as 'get' | 'post' | 'delete'](server, path, { json: r.method === 'GET' ? undefined : {} });
      expect({ route: `${r.method} ${r.path}`, status: anonymous.status }).toEqual({ route: `${r.method} ${r.path}`, status: 401 });
    }
    // Nothing was done to the account, and nothing was logged.
    expect((await server.server.store.getUser(victim.id))?.lockedAt ?? null).toBeNull();
    expect((await server.server.store.listAdminLog(0, 100)).some((e) => e.target === 'victim@example.com')).toBe(false);
  });
});

describe('accounts', () => {
  it('locking ends sessions, refuses sign-in and API tokens at once; unlocking lets them work again; every step is in the admin log', async () => {
    const b = new Browser(server);
    await b.signUp('leaver@example.com');
    const token = await tokenFor('leaver@example.com');
    expect((await api.get(server, '/api/v2/pushes/active', { token })).status).toBe(200);
    const id = (await server.server.store.getUserByEmail('leaver@example.com'))!.id;

    const lock = await adminBrowser.submit('/admin/users?q=leaver', '/admin/users/lock', { id });
    expect(lock.status).toBe(303);
    expect((await api.get(server, '/api/v2/pushes/active', { token })).status).toBe(401);
    expect((await b.get('/dashboard')).status).toBe(303); // the session ended
    const signIn = await new Browser(server).submit('/users/sign_in', '/users/sign_in', { email: 'leaver@example.com', password: 'correct horse battery' });
    expect(signIn.status).toBe(403);
    expect(signIn.text).toContain('This account is locked');
    const listed = await adminBrowser.get('/admin/users?q=leaver');
    expect(listed.text).toMatch(/locked since/);

    await adminBrowser.submit('/admin/users?q=leaver', '/admin/users/unlock', { id });
    expect((await api.get(server, '/api/v2/pushes/active', { token })).status).toBe(200);
    const log = (await api.get(server, '/api/v2/admin/log', { token: adminToken })).body;
    expect(log.slice(0, 2).map((e: any) => [e.action, e.target, e.actorEmail, e.ip, e.userAgent])).toEqual([
      ['user.unlock', 'leaver@example.com', ADMIN, '127.0.0.1', 'page-test'],
      ['user.lock', 'leaver@example.com', ADMIN, '127.0.0.1', 'page-test'],
    ]);
  });

  it('a locked account’s refused sign-in and a non-administrator’s 403 read in the page’s language', async () => {
    const b = new Browser(server);
    await b.signUp('locked-fr@example.com');
    const id = (await server.server.store.getUserByEmail('locked-fr@example.com'))!.id;
    expect((await api.post(server, `/api/v2/admin/users/${id}/lock`, { token: adminToken })).status).toBe(204);
    const fr = new Browser(server, { 'accept-language': 'fr' });
    const refused = await fr.submit('/users/sign_in', '/users/sign_in', { email: 'locked-fr@example.com', password: 'correct horse battery' });
    expect(refused.status).toBe(403);
    expect(refused.text).toContain('Ce compte est verrouillé.');
    const ja = new Browser(server, { 'accept-language': 'ja' });
    await ja.signUp('plain-ja@example.com');
    const page = await ja.get('/admin/users');
    expect(page.status).toBe(403);
    expect(page.text).toContain('管理者専用です。');
    const de = await adminBrowser.get('/admin/users?lang=de');
    expect(de.text).toContain('Nach E-Mail suchen');
    await adminBrowser.get('/admin/users?lang=en'); // the choice is remembered: back to English for the other tests
  });

  it('an administrator cannot lock or delete their own account (no locking everyone out)', async () => {
    const me = (await server.server.store.getUserByEmail(ADMIN))!;
    expect((await api.post(server, `/api/v2/admin/users/${me.id}/lock`, { token: adminToken })).status).toBe(400);
    expect((await api.delete(server, `/api/v2/admin/users/${me.id}`, { token: adminToken })).status).toBe(400);
  });

  it('resets a lost second factor from the users page: the password alone signs in again, the tokens stay, the admin log says so', async () => {
    await enrolled(server, 'lost-phone@example.com');
    const token = await tokenFor('lost-phone@example.com');
    const id = (await server.server.store.getUserByEmail('lost-phone@example.com'))!.id;
    const before = new Browser(server);
    const asked = await before.submit('/users/sign_in', '/users/sign_in', { email: 'lost-phone@example.com', password: PASSWORD });
    expect(asked.headers.get('location')).toContain('/users/two_factor');

    const page = await adminBrowser.get('/admin/users?q=lost-phone');
    expect(page.text).toContain('/admin/users/reset-second-factor');
    const done = await adminBrowser.submit('/admin/users?q=lost-phone', '/admin/users/reset-second-factor', { id });
    expect(done.status).toBeLessThan(400);
    expect((await server.server.store.getUser(id))?.secondFactor).toBeUndefined();
    const after = new Browser(server);
    const signedIn = await after.submit('/users/sign_in', '/users/sign_in', { email: 'lost-phone@example.com', password: PASSWORD });
    expect(signedIn.headers.get('location') ?? '').not.toContain('/users/two_factor');
    expect((await after.get('/dashboard')).status).toBe(200);
    expect((await api.get(server, '/api/v2/pushes/active', { token })).status).toBe(200);
    // Again over the API: nothing left to remove.
    expect((await api.post(server, `/api/v2/admin/users/${id}/reset-second-factor`, { token: adminToken })).body).toMatchObject({ totp: false, passkeys: 0 });
    const log = await server.server.store.listAdminLog(0, 10);
    expect(log.filter((e) => e.action === 'user.reset-second-factor' && e.target === 'lost-phone@example.com').length).toBe(2);
  });

  it('search, end sessions, revoke tokens, delete without and with pushes', async () => {
    const b = new Browser(server);
    await b.signUp('gone@example.com');
    const token = await tokenFor('gone@example.com');
    const kept = await createPush(server, { payload: 'kept after deletion' }, token);
    const id = (await server.server.store.getUserByEmail('gone@example.com'))!.id;
    const found = await api.get(server, '/api/v2/admin/users?q=GONE@', { token: adminToken });
    expect(found.body.map((u: any) => u.email)).toEqual(['gone@example.com']);
    expect(found.body[0].apiTokens).toBe(1);

    expect((await api.post(server, `/api/v2/admin/users/${id}/end-sessions`, { token: adminToken })).body).toEqual({ ended: 1 });
    expect((await b.get('/dashboard')).status).toBe(303);
    expect((await api.post(server, `/api/v2/admin/users/${id}/revoke-tokens`, { token: adminToken })).body).toEqual({ revoked: 1 });
    expect((await api.get(server, '/api/v2/pushes/active', { token })).status).toBe(401);

    expect((await api.delete(server, `/api/v2/admin/users/${id}`, { token: adminToken })).body).toEqual({ expired_pushes: 0 });
    expect(await server.server.store.getUser(id)).toBeUndefined();
    // Without its pushes: the link still works for whoever holds it.
    expect((await api.get(server, `/p/${kept.url_token}.json`)).body.payload).toBe('kept after deletion');

    const b2 = new Browser(server);
    await b2.signUp('gone2@example.com');
    const token2 = await tokenFor('gone2@example.com');
    const erased = await createPush(server, { payload: 'erased with the account' }, token2);
    const id2 = (await server.server.store.getUserByEmail('gone2@example.com'))!.id;
    const confirm = await adminBrowser.get(`/admin/users/delete-with-pushes?id=${id2}`);
    expect(confirm.text).toContain('Delete gone2@example.com?');
    expect(confirm.text).toContain('every active push of it is expired now');
    expect(await server.server.store.getUser(id2)).toBeDefined(); // asking deleted nothing
    const del = await adminBrowser.submit(`/admin/users/delete-with-pushes?id=${id2}`, '/admin/users/delete-with-pushes', { id: id2 });
    expect(del.status).toBe(303);
    const gone = await api.get(server, `/p/${erased.url_token}.json`);
    expect(gone.body.expired).toBe(true);
    expect(gone.body.payload).toBeNull();
  });
});

describe('pushes, storage and configuration', () => {
  it('lists pushes as metadata only, and expires any push through the push service (audited on the push and in the admin log)', async () => {
    const push = await createPush(server, { payload: 'PAYLOAD-NEVER-SHOWN', name: 'NAME-NEVER-SHOWN', note: 'NOTE-NEVER-SHOWN' }, userToken);
    const page = await adminBrowser.get('/admin/pushes');
    const listed = await api.get(server, '/api/v2/admin/pushes', { token: adminToken });
    for (const text of [page.text, listed.text]) {
      expect(text).not.toMatch(/NEVER-SHOWN/);
      expect(text).not.toContain(push.url_token);
    }
    const storageId = server.server.pushes.storageId(push.url_token);
    const row = listed.body.find((p: any) => p.id === storageId);
    expect(row).toMatchObject({ kind: 'text', owner: 'someone@example.com', views: 0, expiredAt: null });
    expect(page.text).toContain(`data-push="${storageId}"`);

    const expire = await adminBrowser.submit('/admin/pushes', '/admin/pushes/expire', { id: storageId });
    expect(expire.headers.get('location')).toBe('/admin/pushes?expired=1');
    const after = await api.get(server, `/p/${push.url_token}.json`);
    expect(after.body.expired).toBe(true);
    const trail = await server.server.store.listAudit(storageId, 0, 10);
    expect(trail.map((e) => e.kind)).toEqual(['creation', 'expire', 'failed_view']); // the last: the view above, of an expired push
    const log = (await api.get(server, '/api/v2/admin/log', { token: adminToken })).body;
    expect(log[0]).toMatchObject({ action: 'push.expire', target: storageId });
  });

  it('shows the effective configuration with each value’s source, secrets masked', async () => {
    const page = await adminBrowser.get('/admin/config');
    expect(page.status).toBe(200);
    expect(page.text).not.toContain('metrics-token-that-is-long-enough');
    const settings = (await api.get(server, '/api/v2/admin/config', { token: adminToken })).body as { name: string; value: string; source: string }[];
    const of = (name: string) => settings.find((s) => s.name === name);
    expect(of('METRICS_TOKEN')).toEqual({ name: 'METRICS_TOKEN', value: '••••••••', source: 'environment' });
    expect(of('ADMIN_EMAILS')?.source).toBe('environment');
    expect(of('DEFAULT_EXPIRE_DAYS')).toEqual({ name: 'DEFAULT_EXPIRE_DAYS', value: '7', source: 'default' });
    if (server.databaseUrl) {
      expect(of('MASTER_KEY')?.value).toBe('••••••••');
      expect(of('DATABASE_URL')?.value).not.toContain(new URL(server.databaseUrl).password || 'no password');
    }
    const storage = (await api.get(server, '/api/v2/admin/storage', { token: adminToken })).body;
    expect(storage.max_bytes).toBe(1024 * 1_048_576);
    expect(storage.used_bytes).toBeGreaterThan(0);
  });
});

describe('instance-wide audit', () => {
  it('filters by account, event, push, address and time, and exports CSV and NDJSON (spreadsheet formulas neutralised)', async () => {
    const owner = await tokenFor('audited@example.com');
    const push = await createPush(server, { payload: 'x' }, owner);
    const storageId = server.server.pushes.storageId(push.url_token);
    await api.get(server, `/p/${push.url_token}.json`, { headers: { 'user-agent': '=HYPERLINK("http://evil")', 'x-forwarded-for': '203.0.113.9' } });

    const ndjson = await api.get(server, '/api/v2/admin/audit?format=ndjson&account=audited@example.com', { token: adminToken });
    expect(ndjson.headers.get('content-type')).toBe('application/x-ndjson');
    const rows = ndjson.text.trim().split('\n').map((l) => JSON.parse(l));
    expect(rows.map((r) => [r.event, r.push, r.account])).toEqual([
      ['creation', storageId, 'audited@example.com'],
      ['view', storageId, 'audited@example.com'],
    ]);
    const views = await api.get(server, `/api/v2/admin/audit?format=ndjson&event=view&push=${storageId}`, { token: adminToken });
    expect(views.text.trim().split('\n')).toHaveLength(1);
    const later = await api.get(server, `/api/v2/admin/audit?format=ndjson&push=${storageId}&from=2999-01-01`, { token: adminToken });
    expect(later.text).toBe('');
    const csv = await api.get(server, `/api/v2/admin/audit?push=${storageId}`, { token: adminToken });
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const lines = csv.text.trim().split('\r\n');
    expect(lines[0]).toBe('at,event,push,account,ip,user_agent');
    expect(lines[2]).toContain(`"'=HYPERLINK(""http://evil"")"`);
    const bad = await api.get(server, '/api/v2/admin/audit?from=yesterday', { token: adminToken });
    expect(bad.status).toBe(422);
    const page = await adminBrowser.get(`/admin/audit?push=${storageId}&event=view`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('<td>audited@example.com</td>');
    expect(page.text).toContain('/admin/audit/export?push=');
    const badPage = await adminBrowser.get('/admin/audit?to=soon');
    expect(badPage.status).toBe(422);
    const exported = await adminBrowser.get(`/admin/audit/export?push=${storageId}&format=csv`);
    expect(exported.text.split('\r\n')[0]).toBe('at,event,push,account,ip,user_agent');
    const log = (await api.get(server, '/api/v2/admin/log', { token: adminToken })).body;
    expect(log[0]).toMatchObject({ action: 'audit.export', target: `push=${storageId}` });
  });
});

describe('the OpenAPI document', () => {
  it('describes every admin API route', async () => {
    const doc = (await api.get(server, '/api/v2/openapi.json')).body;
    const routes = adminApiRoutes(server.server.admin, server.server.invites, 1024).routes.filter((r) => r.method !== 'ALL');
    for (const r of routes) {
      const path = '/admin' + r.path.replace(':id', '{id}');
      expect(doc.paths[path]?.[r.method.toLowerCase()], `${r.method} ${path}`).toBeDefined();
    }
    expect(Object.keys(doc.paths['/admin/audit'].get.responses[200].content)).toEqual(['text/csv', 'application/x-ndjson']);
  });
});

describe('bad input', () => {
  it('clear errors with the right status, never a 500, and nothing changed', async () => {
    const cases: [string, string, unknown, number][] = [
      ['POST', '/api/v2/admin/users/no-such-id/lock', undefined, 404],
      ['POST', `/api/v2/admin/users/${'x'.repeat(5000)}/lock`, undefined, 404],
      ['DELETE', '/api/v2/admin/users/no-such-id?with_pushes=maybe', undefined, 400],
      ['POST', '/api/v2/admin/pushes/no-such-push/expire', undefined, 404],
      ['GET', '/api/v2/admin/users?page=0', undefined, 400],
      ['GET', '/api/v2/admin/pushes?page=abc', undefined, 400],
      ['GET', '/api/v2/admin/audit?event=teleport', undefined, 422],
      ['GET', `/api/v2/admin/audit?account=${'a'.repeat(300)}`, undefined, 422],
      ['GET', '/api/v2/admin/audit?format=xml', undefined, 422],
      ['POST', '/api/v2/admin/invites', { email: 'not an address' }, 422],
      ['POST', '/api/v2/admin/invites', { days: 'soon' }, 422],
      ['POST', '/api/v2/admin/invites', [1, 2], 400],
    ];
    for (const [method, path, json, status] of cases) {
      const res = await api[method.toLowerCase() as 'get' | 'post' | 'delete'](server, path, { token: adminToken, json });
      expect({ path: path.slice(0, 80), status: res.status }).toEqual({ path: path.slice(0, 80), status });
      if (status >= 400) expect(res.body?.error ?? res.text).toBeTruthy();
    }
    const raw = await api.post(server, '/api/v2/admin/invites', { token: adminToken, raw: '{"days":', contentType: 'application/json' });
    expect(raw.status).toBe(400);
    // A page form without its CSRF token changes nothing.
    const victim = (await server.server.accounts.ensureUser('csrf-victim@example.com')).user;
    const forged = await adminBrowser.post('/admin/users/lock', { id: victim.id });
    expect(forged.status).toBe(403);
    expect((await server.server.store.getUser(victim.id))?.lockedAt ?? null).toBeNull();
    const bad = await adminBrowser.submit('/admin/invites', '/admin/invites', { email: '', days: '0' });
    expect(bad.status).toBe(422);
    expect(bad.text).toContain('must be a whole number of days from 1 to 90');
  });
});

describe('the admin log', () => {
  it('has an entry for every kind of admin action, and no route edits or deletes one', async () => {
    const logged = new Set((await server.server.store.listAdminLog(0, 10_000)).map((e) => e.action));
    // Invites have their own test file; the rest were done above.
    await api.post(server, '/api/v2/admin/invites', { token: adminToken, json: { days: 1 } });
    logged.add('invite.create');
    const open = (await api.get(server, '/api/v2/admin/invites', { token: adminToken })).body.find((i: { state: string }) => i.state === 'open');
    expect((await api.post(server, `/api/v2/admin/invites/${encodeURIComponent(open.id)}/revoke`, { token: adminToken })).status).toBe(204);
    const all = new Set((await server.server.store.listAdminLog(0, 10_000)).map((e) => e.action));
    expect([...adminActions].filter((a) => !all.has(a))).toEqual([]);
    const entry = (await server.server.store.listAdminLog(0, 1))[0]!;
    for (const method of ['PUT', 'PATCH', 'DELETE'] as const) {
      const res = await fetch(`${server.url}/api/v2/admin/log/${entry.id}`, { method, headers: { authorization: `Bearer ${adminToken}` } });
      expect(res.status).toBe(404);
    }
    expect((await server.server.store.listAdminLog(0, 1))[0]).toEqual(entry);
  });
});
