import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeJwt, signJwt, startTestProvider, TEST_CLIENT_ID, TEST_CLIENT_SECRET, type TestProvider } from '../../support/oidc-test-provider.js';
import { startServer, type TestServer } from '../../support/server.js';
import { Browser } from '../pages/browser.js';
import { createPush } from '../../support/http.js';
import { generateKeyPairSync, randomUUID } from 'node:crypto';

/**
 * "Sign in with …" against a real OpenID Provider (oidc-provider on loopback): the whole code
 * flow through the pages, just-in-time accounts, linking only by a verified e-mail, the admin
 * group, and every attack of issue 30 as a request an attacker could make.
 */
describe('OpenID Connect sign-in', () => {
  let provider: TestProvider;
  let server: TestServer;

  beforeAll(async () => {
    provider = await startTestProvider([
      { id: 'alice', email: 'alice@corp.example', emailVerified: true },
      { id: 'bob', email: 'bob@corp.example', emailVerified: true },
      { id: 'mallory', email: 'owner@corp.example', emailVerified: false },
      { id: 'linker', email: 'linker@corp.example', emailVerified: true },
      { id: 'outsider', email: 'someone@elsewhere.example', emailVerified: true },
      { id: 'boss', email: 'boss@corp.example', emailVerified: true, groups: ['staff', 'secret-push-admins'] },
      { id: 'locked', email: 'locked@corp.example', emailVerified: true },
      { id: 'leaver', email: 'handed-on@corp.example', emailVerified: true },
      { id: 'newcomer', email: 'handed-on@corp.example', emailVerified: true },
      ...Array.from({ length: 10 }, (_, i) => ({ id: `user${i}`, email: `user${i}@corp.example`, emailVerified: true })),
    ]);
    server = await startServer({
      OIDC_ISSUER: provider.issuer,
      OIDC_CLIENT_ID: TEST_CLIENT_ID,
      OIDC_CLIENT_SECRET: TEST_CLIENT_SECRET,
      OIDC_DISPLAY_NAME: 'Corp ID',
      OIDC_SCOPES: 'openid email profile groups',
      OIDC_ADMIN_GROUP: 'secret-push-admins',
      SIGN_UP_EMAIL_DOMAINS: 'corp.example',
      ALLOW_SIGNUP: 'true',
    });
    provider.setClient([`${server.url}/users/auth/oidc/callback`], [`${server.url}/`]);
  });
  afterAll(async () => {
    await server?.stop();
    await provider?.close();
  });

  /** Starts at our server, goes through the provider as `accountId`; returns the browser and the callback path. */
  async function throughProvider(accountId: string, start = '/users/auth/oidc', browser = new Browser(server)) {
    const started = await browser.get(start);
    expect(started.status).toBe(303);
    const authorization = new URL(started.headers.get('location')!);
    expect(authorization.origin).toBe(provider.issuer);
    const back = await provider.signIn(authorization.href, accountId);
    expect(back.startsWith(`${server.url}/users/auth/oidc/callback?`)).toBe(true);
    return { browser, authorization, callback: back.slice(server.url.length) };
  }

  async function signInBySso(accountId: string, start?: string) {
    const flow = await throughProvider(accountId, start);
    const res = await flow.browser.get(flow.callback);
    return { ...flow, res };
  }

  it('offers "Sign in with Corp ID" and asks with PKCE (S256), state, nonce and the configured scopes', async () => {
    const page = await new Browser(server).get('/users/sign_in');
    expect(page.text).toContain('Corp ID');
    expect(page.text).toContain('href="/users/auth/oidc"');
    // The sign-up page offers it too.
    expect((await new Browser(server).get('/users/sign_up')).text).toContain('id="sign-up-sso"');
    const { authorization } = await throughProvider('alice');
    const q = authorization.searchParams;
    expect(q.get('response_type')).toBe('code');
    expect(q.get('code_challenge_method')).toBe('S256');
    expect(q.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(q.get('state')).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    expect(q.get('nonce')).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    expect(q.get('scope')!.split(' ').sort()).toEqual(['email', 'groups', 'openid', 'profile']);
    expect(q.get('redirect_uri')).toBe(`${server.url}/users/auth/oidc/callback`);
  });

  it('an address handed on to another person at the provider does not reach the first person\'s account', async () => {
    const first = await signInBySso('leaver');
    expect(first.res.headers.get('location')).toBe('/dashboard?welcome=1');
    const second = await signInBySso('newcomer');
    expect(second.res.status).toBe(403);
    expect(second.res.text).toContain('belongs to an account of another person');
    expect((await second.browser.get('/dashboard')).status).not.toBe(200);
    expect((await server.server.store.getUserByEmail('handed-on@corp.example'))?.sso?.subject).toBe('leaver');
  });

  it('first sign-in makes the account just in time and lands on the dashboard; the next one signs in to it', async () => {
    const first = await signInBySso('bob');
    expect(first.res.status).toBe(303);
    expect(first.res.headers.get('location')).toBe('/dashboard?welcome=1');
    const dashboard = await first.browser.get('/dashboard');
    expect(dashboard.status).toBe(200);
    const bob = (await server.server.store.getUserByEmail('bob@corp.example'))!;
    expect(bob.passwordHash).toBe('');
    expect(bob.sso).toMatchObject({ issuer: provider.issuer, subject: 'bob', groups: [] });
    const again = await signInBySso('bob');
    expect(again.res.headers.get('location')).toBe('/dashboard');
  });

  it('links an existing password account by its verified e-mail: its API token keeps working and its pushes stay', async () => {
    const owner = new Browser(server);
    await owner.signUp('linker@corp.example');
    const before = (await server.server.store.getUserByEmail('linker@corp.example'))!;
    const { token } = await server.server.accounts.createApiToken({ id: before.id, email: before.email, createdAt: before.createdAt }, 'before sso');
    const made = (await createPush(server, { payload: 'kept through linking' }, token)) as { url_token: string };
    const { res, browser } = await signInBySso('linker');
    expect(res.headers.get('location')).toBe('/dashboard');
    const after = (await server.server.store.getUserByEmail('linker@corp.example'))!;
    expect(after.id).toBe(before.id);
    expect(after.passwordHash).toBe(before.passwordHash);
    expect(after.sso).toMatchObject({ issuer: provider.issuer, subject: 'linker' });
    // The token still works, and the push made before is on the dashboard of the SSO session.
    expect((await fetch(`${server.url}/api/v2/pushes/active`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    const dashboard = await browser.get('/dashboard');
    expect(dashboard.text).toContain(made.url_token.slice(0, 8));
  });

  it('an unverified e-mail matching an existing account is not linked (and makes no account)', async () => {
    await new Browser(server).signUp('owner@corp.example');
    const { res, browser } = await signInBySso('mallory');
    expect(res.status).toBe(403);
    expect(res.text).toContain('has not verified your e-mail address');
    expect((await browser.get('/dashboard')).status).toBe(303);
  });

  it('SIGN_UP_EMAIL_DOMAINS: an address at another domain is refused with a message, and so is a password sign-up there', async () => {
    const { res, browser } = await signInBySso('outsider');
    expect(res.status).toBe(403);
    expect(res.text).toContain('only for addresses at corp.example');
    expect((await browser.get('/dashboard')).status).toBe(303);
    const form = await new Browser(server).submit('/users/sign_up', '/users/sign_up', { email: 'x@elsewhere.example', password: 'correct horse battery' });
    expect(form.status).toBe(403);
    expect(form.text).toContain('only for addresses at corp.example');
  });

  it('the refusals are in the page\'s language (the browser\'s Accept-Language)', async () => {
    const german = await throughProvider('outsider', undefined, new Browser(server, { 'accept-language': 'de-DE,de;q=0.9' }));
    const refused = await german.browser.get(german.callback);
    expect(refused.status).toBe(403);
    expect(refused.text).toContain('Konten auf diesem Server gibt es nur für Adressen unter corp.example.');
    expect(refused.text).not.toContain('only for addresses at');
    const japanese = await throughProvider('mallory', undefined, new Browser(server, { 'accept-language': 'ja' }));
    const unverified = await japanese.browser.get(japanese.callback);
    expect(unverified.status).toBe(403);
    expect(unverified.text).toContain('サインインプロバイダーがメールアドレスを確認していないため');
    // A callback without its flow (another browser's link), in French.
    const lost = await new Browser(server, { 'accept-language': 'fr' }).get(german.callback);
    expect(lost.status).toBe(400);
    expect(lost.text).toContain('dans ce navigateur, ou a pris trop de temps. Veuillez recommencer.');
  });

  it('OIDC_ADMIN_GROUP grants the administrator role at sign-in and takes it away at the next one, both in the admin log', async () => {
    const first = await signInBySso('boss');
    expect((await first.browser.get('/admin')).status).toBe(200);
    provider.account('boss').groups = ['staff'];
    const second = await signInBySso('boss');
    expect((await second.browser.get('/admin')).status).toBe(403);
    provider.account('boss').groups = ['staff', 'secret-push-admins'];
    const third = await signInBySso('boss');
    const log = await third.browser.get('/admin/log');
    expect(log.status).toBe(200);
    expect(log.text.match(/identity provider \(OIDC_ADMIN_GROUP\)/g)?.length).toBe(3);
    expect(log.text).toContain('user.revoke-admin');
    // The effective configuration shows the client secret as set, never its value.
    const config = await third.browser.get('/admin/config');
    expect(config.text).toContain('OIDC_CLIENT_SECRET');
    expect(config.text).not.toContain(TEST_CLIENT_SECRET);
  });

  it('a locked account cannot sign in by SSO', async () => {
    await signInBySso('locked');
    const admin = (await signInBySso('boss')).browser;
    const id = (await server.server.store.getUserByEmail('locked@corp.example'))!.id;
    const locked = await admin.submit('/admin/users?q=locked', '/admin/users/lock', { id });
    expect(locked.status).toBe(303);
    expect((await server.server.store.getUser(id))!.lockedAt).toBeTruthy();
    const { res, browser } = await signInBySso('locked');
    expect(res.status).toBe(403);
    expect(res.text).toContain('locked');
    expect((await browser.get('/dashboard')).status).toBe(303);
  });

  it('return_to is kept through the round trip, same-origin only', async () => {
    const kept = await signInBySso('user0', `/users/auth/oidc?return_to=${encodeURIComponent('/extension/connect?x=1')}`);
    expect(kept.res.headers.get('location')).toBe('/extension/connect?x=1');
    for (const off of ['https://evil.example/', '//evil.example/x', '/\\evil.example', 'javascript:alert(1)']) {
      const { res } = await signInBySso('user1', `/users/auth/oidc?return_to=${encodeURIComponent(off)}`);
      expect(res.status).toBe(303);
      expect(res.headers.get('location')).toMatch(/^\/dashboard(\?welcome=1)?$/);
    }
  });

  describe('attacks on the callback', () => {
    it('missing or wrong state is refused, and so is a callback without the flow cookie', async () => {
      const noState = await throughProvider('user2');
      const withoutState = noState.callback.replace(/([?&])state=[^&]*/, '$1');
      expect((await noState.browser.get(withoutState)).status).toBe(400);
      const wrong = await throughProvider('user2');
      const wrongState = wrong.callback.replace(/([?&]state=)[^&]*/, '$1' + 'A'.repeat(43));
      const res = await wrong.browser.get(wrongState);
      expect(res.status).toBe(400);
      expect(res.text).toContain('could not be verified');
      expect((await wrong.browser.get('/dashboard')).status).toBe(303);
      // Another browser (the attacker's link to a victim) has no flow cookie.
      const other = await throughProvider('user2');
      const victim = new Browser(server);
      expect((await victim.get(other.callback)).status).toBe(400);
    });

    it('a replayed code is refused: the flow cookie is gone, and with a copied cookie the provider refuses the used code', async () => {
      const flow = await throughProvider('user3');
      const cookies = new Map(flow.browser.cookies);
      expect((await flow.browser.get(flow.callback)).status).toBe(303);
      expect((await flow.browser.get(flow.callback)).status).toBe(400);
      const copy = new Browser(server);
      for (const [k, v] of cookies) copy.cookies.set(k, v);
      const replay = await copy.get(flow.callback);
      expect(replay.status).toBe(400);
      expect((await copy.get('/dashboard')).status).toBe(303);
    });

    /** Runs a sign-in whose ID token the provider's token endpoint rewrites; the callback's answer. */
    async function withIdToken(rewrite: (claims: Record<string, unknown>) => Record<string, unknown>, key?: Record<string, string>) {
      provider.tamperIdToken((jwt) => signJwt(rewrite(decodeJwt(jwt)), key ?? provider.signingKey));
      try {
        const flow = await throughProvider('user4');
        const res = await flow.browser.get(flow.callback);
        return { res, dashboard: (await flow.browser.get('/dashboard')).status };
      } finally {
        provider.tamperIdToken(undefined);
      }
    }

    it('the re-signed but unchanged ID token is accepted (the tampering harness itself works)', async () => {
      const { res, dashboard } = await withIdToken((c) => c);
      expect(res.status).toBe(303);
      expect(dashboard).toBe(200);
    });

    it.each([
      ['nonce mismatch', (c: Record<string, unknown>) => ({ ...c, nonce: 'not-the-nonce-we-sent' })],
      ['another issuer', (c: Record<string, unknown>) => ({ ...c, iss: 'http://127.0.0.1:1/other-issuer' })],
      ['another audience', (c: Record<string, unknown>) => ({ ...c, aud: 'some-other-client' })],
      ['expired', (c: Record<string, unknown>) => ({ ...c, iat: Math.floor(Date.now() / 1000) - 7200, exp: Math.floor(Date.now() / 1000) - 3600 })],
    ])('an ID token with %s is refused', async (_name, rewrite) => {
      const { res, dashboard } = await withIdToken(rewrite);
      expect(res.status).toBe(400);
      expect(res.text).toContain('could not be verified');
      expect(dashboard).toBe(303);
    });

    it('an ID token signed by a key the provider does not publish is refused', async () => {
      const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
      const foreign = { ...(privateKey.export({ format: 'jwk' }) as Record<string, string>), kid: provider.signingKey.kid!, alg: 'RS256' };
      const { res, dashboard } = await withIdToken((c) => c, foreign);
      expect(res.status).toBe(400);
      expect(dashboard).toBe(303);
    });
  });

  it('keeps working when the provider rotates its signing key', async () => {
    const before = provider.signingKey.kid;
    expect((await signInBySso('user5')).res.status).toBe(303);
    provider.rotateKeys();
    expect(provider.signingKey.kid).not.toBe(before);
    const after = await signInBySso('user5');
    expect(after.res.status).toBe(303);
    expect((await after.browser.get('/dashboard')).status).toBe(200);
  });

  it('sign-out ends the local session and sends the browser to the provider (RP-initiated logout)', async () => {
    const { browser } = await signInBySso('user6');
    const page = await browser.get('/users/sign_out');
    const csrf = /name="csrf_token" value="([^"]+)"/.exec(page.text)![1]!;
    const out = await browser.post('/users/sign_out', { csrf_token: csrf });
    expect(out.status).toBe(303);
    const logout = new URL(out.headers.get('location')!);
    expect(logout.origin).toBe(provider.issuer);
    expect(logout.searchParams.get('post_logout_redirect_uri')).toBe(`${server.url}/`);
    expect(decodeJwt(logout.searchParams.get('id_token_hint')!).sub).toBe('user6');
    expect((await browser.get('/dashboard')).status).toBe(303);
    // A password session's sign-out stays local.
    const local = new Browser(server);
    await local.signUp(`local-${randomUUID()}@corp.example`);
    const p2 = await local.get('/users/sign_out');
    const out2 = await local.post('/users/sign_out', { csrf_token: /name="csrf_token" value="([^"]+)"/.exec(p2.text)![1]! });
    expect(out2.headers.get('location')).toBe('/');
  });
});
