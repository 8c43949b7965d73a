import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../support/server.js';
import { Browser, cookieAttrs, csrfFrom, textOf } from './browser.js';

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

describe('sign up, sign in, sign out', () => {
  it('sign-up starts a session with an HttpOnly, SameSite=Lax cookie (no Secure on http)', async () => {
    const b = new Browser(server);
    const res = await b.signUp('new@example.com');
    expect(res.headers.get('location')).toBe('/dashboard?welcome=1');
    const cookie = cookieAttrs(res.setCookies, 'sp_session');
    expect(cookie).toBeDefined();
    expect(cookie).toMatch(/; HttpOnly/);
    expect(cookie).toMatch(/; SameSite=Lax/);
    expect(cookie).toMatch(/; Path=\//);
    expect(cookie).not.toMatch(/; Secure/);
    const page = await b.get('/users/token');
    expect(page.status).toBe(200);
    expect(page.text).toContain('API tokens');
    expect(page.text).toContain('action="/users/sign_out"');
  });

  it('sign-up sent twice at once (a double click) makes one account, and both answers sign into it', async () => {
    const email = 'twice@example.com';
    const password = 'correct horse battery';
    const tabs = [new Browser(server), new Browser(server), new Browser(server)];
    const forms = await Promise.all(tabs.map(async (b) => csrfFrom((await b.get('/users/sign_up')).text, '/users/sign_up')));
    const answers = await Promise.all(tabs.map((b, i) => b.post('/users/sign_up', { csrf_token: forms[i]!, email, password })));
    expect(answers.map((a) => a.status)).toEqual([303, 303, 303]);
    const account = await server.server.store.getUserByEmail(email);
    const sessionOf = (setCookies: string[]) => /^sp_session=([^;]*)/.exec(cookieAttrs(setCookies, 'sp_session') ?? '')?.[1];
    const sessions = await Promise.all(answers.map((a) => server.server.accounts.sessionUser(decodeURIComponent(sessionOf(a.setCookies) ?? ''))));
    expect(sessions.map((u) => u?.id)).toEqual([account!.id, account!.id, account!.id]);
    // The same calls on the service: one account made, the others signed in to it.
    const made = await Promise.all([0, 1, 2].map(() => server.server.accounts.signUp('twice-service@example.com', password, '192.0.2.7')));
    expect(made.filter((m) => m.created)).toHaveLength(1);
    expect(new Set(made.map((m) => m.user.id)).size).toBe(1);
  });

  it('sign-up shows validation errors next to the fields', async () => {
    const b = new Browser(server);
    const short = await b.submit('/users/sign_up', '/users/sign_up', { email: 'short@example.com', password: 'abc' });
    expect(short.status).toBe(422);
    expect(textOf(short.text, 'password-error')).toContain('Password is too short');
    const bad = await b.submit('/users/sign_up', '/users/sign_up', { email: 'not-an-email', password: 'long enough pw' });
    expect(bad.status).toBe(422);
    expect(textOf(bad.text, 'email-error')).toContain('Email is not a valid email address');
    await new Browser(server).signUp('taken@example.com');
    // An existing email: what sign-in would say (the same answer as for a wrong password).
    const taken = await b.submit('/users/sign_up', '/users/sign_up', { email: 'taken@example.com', password: 'long enough pw' });
    expect(taken.status).toBe(401);
    expect(taken.text).toContain('Invalid email or password.');
    expect(b.cookies.has('sp_session')).toBe(false);
  });

  it('sign-in with a wrong password shows an error on the form; the right one signs in and returns', async () => {
    await new Browser(server).signUp('user@example.com', 'the right password');
    const b = new Browser(server);
    const wrong = await b.submit('/users/sign_in', '/users/sign_in', { email: 'user@example.com', password: 'nope nope' });
    expect(wrong.status).toBe(401);
    expect(wrong.text).toContain('Invalid email or password.');
    expect(wrong.text).toContain('value="user@example.com"');
    const ok = await b.submit('/users/sign_in?return_to=%2Fdashboard%3Fstate%3Dexpired', '/users/sign_in', {
      email: 'user@example.com',
      password: 'the right password',
      return_to: '/dashboard?state=expired',
    });
    expect(ok.status).toBe(303);
    expect(ok.headers.get('location')).toBe('/dashboard?state=expired');
    expect((await b.get('/dashboard?state=expired')).status).toBe(200);
  });

  it('only same-site relative return paths are followed', async () => {
    await new Browser(server).signUp('redirect@example.com', 'the right password');
    for (const evil of ['//evil.example/x', 'https://evil.example/', '/\\evil.example', '\\\\evil.example', 'javascript:alert(1)', '/%0d%0aSet-Cookie:x=1']) {
      const b = new Browser(server);
      const res = await b.submit('/users/sign_in', '/users/sign_in', { email: 'redirect@example.com', password: 'the right password', return_to: evil });
      expect(res.status).toBe(303);
      const location = res.headers.get('location')!;
      expect(location.startsWith('/')).toBe(true);
      expect(location.startsWith('//')).toBe(false);
      expect(location).not.toContain('evil');
      expect(location).not.toMatch(/[\r\n]/);
    }
  });

  it('sign-out is a CSRF-checked POST that ends the session on the server', async () => {
    const b = new Browser(server);
    await b.signUp('leaver@example.com');
    const session = b.cookies.get('sp_session')!;
    const page = await b.get('/users/token');
    expect((await b.post('/users/sign_out', { csrf_token: 'forged' })).status).toBe(403);
    const res = await b.post('/users/sign_out', { csrf_token: csrfFrom(page.text, '/users/sign_out') });
    expect(res.status).toBe(303);
    expect(cookieAttrs(res.setCookies, 'sp_session')).toMatch(/Max-Age=0/);
    // The old cookie value no longer works even if replayed.
    const replay = new Browser(server);
    replay.cookies.set('sp_session', session);
    const after = await replay.get('/users/token');
    expect(after.status).toBe(303);
    expect(after.headers.get('location')).toBe('/users/sign_in?return_to=%2Fusers%2Ftoken');
  });

  it('sign-up is refused with a clear page when turned off', async () => {
    const closed = await startServer({ ALLOW_SIGNUP: 'false' });
    try {
      const b = new Browser(closed);
      const page = await b.get('/users/sign_up');
      expect(page.status).toBe(403);
      expect(page.text).toContain('Sign-up is turned off');
      const csrf = csrfFrom((await b.get('/users/sign_in')).text, '/users/sign_in');
      const post = await b.post('/users/sign_up', { csrf_token: csrf, email: 'x@example.com', password: 'long enough pw' });
      expect(post.status).toBe(403);
      expect(b.cookies.has('sp_session')).toBe(false);
      expect((await b.get('/users/sign_in')).text).not.toContain('href="/users/sign_up');
    } finally {
      await closed.stop();
    }
  });

  it('marks cookies Secure when BASE_URL is https', async () => {
    const secure = await startServer({ BASE_URL: 'https://push.example.com' });
    try {
      const b = new Browser(secure, { origin: 'https://push.example.com' });
      const page = await b.get('/users/sign_up');
      expect(cookieAttrs(page.setCookies, 'sp_nonce')).toMatch(/; Secure/);
      const res = await b.post('/users/sign_up', { csrf_token: csrfFrom(page.text, '/users/sign_up'), email: 's@example.com', password: 'long enough pw' });
      expect(res.status).toBe(303);
      expect(cookieAttrs(res.setCookies, 'sp_session')).toMatch(/; HttpOnly.*; Secure|; Secure.*; HttpOnly/);
    } finally {
      await secure.stop();
    }
  });
});

describe('/users/token', () => {
  it('redirects signed-out visitors to sign-in with a return path', async () => {
    const res = await new Browser(server).get('/users/token');
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/users/sign_in?return_to=%2Fusers%2Ftoken');
  });

  it('makes a token shown once, which then works on the API, lists it by label, and revokes it', async () => {
    const b = new Browser(server);
    await b.signUp('tokens@example.com');
    const page = await b.get('/users/token');
    expect(page.text).toContain('You have no API tokens.');
    const made = await b.post('/users/token', { csrf_token: csrfFrom(page.text, '/users/token'), label: 'Laptop <extension>' });
    expect(made.status).toBe(200);
    const token = textOf(made.text, 'api-token')!;
    expect(token).toMatch(/^sp_[A-Za-z0-9_-]{20,}$/);
    expect(made.text).toContain('data-copy="api-token"');
    expect(made.text).toContain('Laptop &lt;extension>');

    const api = await fetch(`${server.url}/api/v2/pushes/active`, { headers: { authorization: `Bearer ${token}` } });
    expect(api.status).toBe(200);

    const list = await b.get('/users/token');
    expect(list.text).toContain('Laptop &lt;extension>');
    expect(list.text).not.toContain(token);
    const id = /name="id" value="([^"]+)"/.exec(list.text)![1]!;
    expect((await b.post('/users/token/revoke', { csrf_token: 'nope', id })).status).toBe(403);
    const revoked = await b.post('/users/token/revoke', { csrf_token: csrfFrom(list.text, '/users/token/revoke'), id });
    expect(revoked.status).toBe(303);
    const after = await b.get(revoked.headers.get('location')!);
    expect(after.text).toContain('The token was revoked');
    expect(after.text).toContain('You have no API tokens.');
    expect((await fetch(`${server.url}/api/v2/pushes/active`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(401);
  });

  it('refuses to make a token without a valid CSRF token, or when signed out', async () => {
    const b = new Browser(server);
    await b.signUp('csrf-token@example.com');
    expect((await b.post('/users/token', { label: 'x' })).status).toBe(403);
    expect((await b.post('/users/token', { label: 'x', csrf_token: 'wrong' })).status).toBe(403);
    // A token from another browser (another binding) is refused too.
    const other = new Browser(server);
    const otherCsrf = csrfFrom((await other.get('/users/sign_in')).text, '/users/sign_in');
    expect((await b.post('/users/token', { label: 'x', csrf_token: otherCsrf })).status).toBe(403);
    const list = await b.get('/users/token');
    expect(list.text).toContain('You have no API tokens.');
  });

  it('a user cannot revoke another user\'s token', async () => {
    const alice = new Browser(server);
    await alice.signUp('alice@example.com');
    const aliceList = await alice.post('/users/token', { csrf_token: csrfFrom((await alice.get('/users/token')).text, '/users/token'), label: 'alice' });
    expect(aliceList.status).toBe(200);
    const aliceId = /name="id" value="([^"]+)"/.exec((await alice.get('/users/token')).text)![1]!;
    const mallory = new Browser(server);
    await mallory.signUp('mallory@example.com');
    const res = await mallory.post('/users/token/revoke', { csrf_token: csrfFrom((await mallory.get('/users/token')).text, '/users/sign_out'), id: aliceId });
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect((await alice.get('/users/token')).text).toContain(aliceId);
  });
});

describe('/dashboard', () => {
  it('lists active and expired pushes with their audit logs, escaped', async () => {
    const b = new Browser(server);
    await b.signUp('owner@example.com');
    const made = await b.post('/users/token', { csrf_token: csrfFrom((await b.get('/users/token')).text, '/users/token'), label: 'api' });
    const token = textOf(made.text, 'api-token')!;
    const create = async (push: Record<string, unknown>) => {
      const res = await fetch(`${server.url}/api/v2/pushes`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ push }),
      });
      return ((await res.json()) as { url_token: string }).url_token;
    };
    const active = await create({ payload: 'a', name: '<b>Active one</b>', note: 'note <i>x</i>' });
    const gone = await create({ payload: 'b', name: 'Gone one', expire_after_views: 1 });
    await new Browser(server, { 'user-agent': 'Viewer <UA>' }).get(`/p/${gone}`);

    const activePage = await b.get('/dashboard');
    expect(activePage.status).toBe(200);
    expect(activePage.text).toContain('&lt;b>Active one&lt;/b>');
    expect(activePage.text).toContain('note &lt;i>x&lt;/i>');
    expect(activePage.text).toContain(`/p/${active}/r`);
    expect(activePage.text).not.toContain('Gone one');
    expect(activePage.text).toContain('Created</td>');

    const expiredPage = await b.get('/dashboard?state=expired');
    expect(expiredPage.text).toContain('Gone one');
    expect(expiredPage.text).toContain('Viewed</td>');
    expect(expiredPage.text).toContain('Viewer &lt;UA>');
    expect(expiredPage.text).not.toContain('Active one');
  });

  it('redirects signed-out visitors, and answers a bad page number with a 400 page', async () => {
    const out = await new Browser(server).get('/dashboard?state=expired');
    expect(out.status).toBe(303);
    expect(out.headers.get('location')).toBe('/users/sign_in?return_to=%2Fdashboard%3Fstate%3Dexpired');
    const b = new Browser(server);
    await b.signUp('pager@example.com');
    const bad = await b.get('/dashboard?page=0');
    expect(bad.status).toBe(400);
    expect(bad.headers.get('content-type')).toMatch(/^text\/html/);
    expect(bad.text).toContain('Invalid page parameter');
  });
});
