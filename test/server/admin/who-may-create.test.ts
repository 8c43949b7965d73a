import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createPush } from '../../support/http.js';
import { startServer, type TestServer } from '../../support/server.js';
import { Browser } from '../pages/browser.js';

/** Issue 32 item 4: CREATE_REQUIRES_ACCOUNT, and SIGN_UP=invite with single-use invite links. */
let server: TestServer;
let adminToken: string;

beforeAll(async () => {
  server = await startServer({ CREATE_REQUIRES_ACCOUNT: 'true', SIGN_UP: 'invite', ADMIN_EMAILS: 'boss@example.com' });
  const { user } = await server.server.accounts.ensureUser('boss@example.com');
  adminToken = (await server.server.accounts.createApiToken(user)).token;
});
afterAll(() => server.stop());

describe('CREATE_REQUIRES_ACCOUNT', () => {
  it('refuses anonymous creation on the API and the create page; an account creates; anyone retrieves', async () => {
    const anonymous = await api.post(server, '/api/v2/pushes', { json: { push: { payload: 'x' } } });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.error).toContain('does not allow anonymous creation');
    const trpc = await api.post(server, '/trpc/pushes.create', { json: { payload: 'x' } });
    expect(trpc.status).toBe(401);
    const made = await createPush(server, { payload: 'for anyone with the link' }, adminToken);
    expect((await api.get(server, `/p/${made.url_token}.json`)).body.payload).toBe('for anyone with the link');
    // The create page asks a signed-out visitor to sign in instead of showing a form it would refuse.
    const home = await new Browser(server).get('/');
    expect(home.text).toContain('href="/users/sign_in?return_to=%2F"');
    expect(home.text).not.toContain('id="payload"');
    const b = new Browser(server);
    const page = await b.post('/', { csrf_token: 'x', payload: 'x', kind: 'text' });
    expect(page.status).toBe(403); // a forged form: refused before anything else
    // With this browser's own form token (as a create page loaded before the setting changed would post): the rule's sentence.
    const stale = await b.submit('/users/sign_in', '/', { payload: 'x', kind: 'text' });
    expect(stale.status).toBe(401);
    expect(stale.text).toContain('does not allow anonymous creation');
    // Signed in, the form is there.
    const { user } = await server.server.accounts.ensureUser('boss@example.com');
    const signedIn = new Browser(server);
    await server.server.accounts.setPassword('boss@example.com', 'correct horse battery');
    await signedIn.submit('/users/sign_in', '/users/sign_in', { email: user.email, password: 'correct horse battery' });
    expect((await signedIn.get('/')).text).toContain('id="payload"');
  });
});

describe('in the page’s language', () => {
  it('the refused create form and a refused invite read in German', async () => {
    const b = new Browser(server, { 'accept-language': 'de' });
    // The form token of another of this browser's pages: the create page itself offers no form (see above).
    const page = await b.submit('/users/sign_in', '/', { payload: 'x', kind: 'text' });
    expect(page.status).toBe(401);
    expect(page.text).toContain('Melden Sie sich an, um einen Push zu erstellen');
    const made = await api.post(server, '/api/v2/admin/invites', { token: adminToken, json: { email: 'only@example.com' } });
    const url = new URL(made.body.link);
    const invite = url.searchParams.get('invite')!;
    const refused = await b.submit(url.pathname + url.search, '/users/sign_up', { invite, email: 'not-only@example.com', password: 'correct horse battery' });
    expect(refused.status).toBe(422);
    expect(refused.text).toContain('Dieser Einladungslink ist nicht gültig');
  });
});

describe('SIGN_UP=invite', () => {
  it('no sign-up without an invite; an invite makes one account, only for its address, and only once', async () => {
    const b = new Browser(server);
    expect((await b.get('/users/sign_up')).status).toBe(403);
    const noInvite = await b.post('/users/sign_up', { csrf_token: 'x', email: 'a@example.com', password: 'correct horse battery' });
    expect(noInvite.status).toBe(403);

    const made = await api.post(server, '/api/v2/admin/invites', { token: adminToken, json: { email: 'Invited@Example.com', days: 2 } });
    expect(made.status).toBe(201);
    expect(made.body.email).toBe('invited@example.com');
    const path = new URL(made.body.link).pathname + new URL(made.body.link).search;
    expect(path).toMatch(/^\/users\/sign_up\?invite=[\w-]+$/);
    const invite = new URL(made.body.link).searchParams.get('invite')!;
    // The form carries the invite as a hidden field (Browser.submit sends only the fields given).
    expect((await new Browser(server).get(path)).text).toContain(`<input type="hidden" name="invite" value="${invite}"/>`);

    const other = await new Browser(server).submit(path, '/users/sign_up', { invite, email: 'someone-else@example.com', password: 'correct horse battery' });
    expect(other.status, other.text.slice(0, 3000)).toBe(422);
    expect(other.text).toContain('This invite link is not valid');
    // A refused form (short password) does not use the invite up.
    const short = await new Browser(server).submit(path, '/users/sign_up', { invite, email: 'invited@example.com', password: 'short' });
    expect(short.status).toBe(422);
    const ok = await new Browser(server).submit(path, '/users/sign_up', { invite, email: 'invited@example.com', password: 'correct horse battery' });
    expect(ok.status).toBe(303);
    const again = await new Browser(server).submit(path, '/users/sign_up', { invite, email: 'second@example.com', password: 'correct horse battery' });
    expect(again.status).toBe(422);
    expect(await server.server.store.getUserByEmail('second@example.com')).toBeUndefined();

    const listed = await api.get(server, '/api/v2/admin/invites', { token: adminToken });
    expect(listed.body[0]).toMatchObject({ email: 'invited@example.com', createdBy: 'boss@example.com' });
    expect(listed.body[0].usedAt).not.toBeNull();
    expect(JSON.stringify(listed.body)).not.toContain(invite);
    const bad = await api.post(server, '/api/v2/admin/invites', { token: adminToken, json: { days: 365 } });
    expect(bad.status).toBe(422);
  });

  it('an administrator makes an invite on the invites page; it is shown once', async () => {
    const b = new Browser(server);
    b.cookies.clear();
    const { user } = await server.server.accounts.ensureUser('boss@example.com');
    await server.server.accounts.setPassword('boss@example.com', 'correct horse battery');
    const signIn = await b.submit('/users/sign_in', '/users/sign_in', { email: user.email, password: 'correct horse battery' });
    expect(signIn.status).toBe(303);
    const page = await b.submit('/admin/invites', '/admin/invites', { email: '', days: '3' });
    expect(page.status).toBe(201);
    expect(page.text).toMatch(/\/users\/sign_up\?invite=[\w-]+/);
    expect(page.text).toContain('by invite only');
    expect((await b.get('/admin/invites')).text).not.toMatch(/\/users\/sign_up\?invite=[\w-]+/);
  });
});
