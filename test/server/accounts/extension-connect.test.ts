import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { digest } from '../../../server/crypto/secret-hash.js';
import { startServer, type TestServer } from '../../support/server.js';
import { Browser, csrfFrom } from '../pages/browser.js';

/**
 * The extension connects by signing in (issue 30 item 4), over HTTP against a real server on
 * both stores: the consent page, the code sent to the extension's redirect URI, and the
 * exchange of code + PKCE verifier for an API token, with the attacks on each step.
 */
const CHROMIUM_REDIRECT = 'https://abcdefghijklmnopabcdefghijklmnop.chromiumapp.org/';
const FIREFOX_REDIRECT = `https://${'0123456789abcdef0123'.repeat(2)}.extensions.allizom.org/`;

const pkce = () => {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
};

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

const connectPath = (q: Record<string, string>) => `/extension/connect?${new URLSearchParams(q)}`;

/** A signed-in browser that approves the extension; resolves with the code and state it got back. */
async function approve(browser: Browser, redirectUri = CHROMIUM_REDIRECT) {
  const { verifier, challenge } = pkce();
  const state = randomBytes(16).toString('base64url');
  const path = connectPath({ redirect_uri: redirectUri, code_challenge: challenge, code_challenge_method: 'S256', state });
  const page = await browser.get(path);
  expect(page.status).toBe(200);
  const answer = await browser.post('/extension/connect', {
    csrf_token: csrfFrom(page.text, '/extension/connect'),
    redirect_uri: redirectUri,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state,
    decision: 'allow',
  });
  expect(answer.status).toBe(303);
  const location = new URL(answer.headers.get('location')!);
  return { location, code: location.searchParams.get('code')!, state, verifier, page };
}

const exchange = (fields: Record<string, string>) =>
  fetch(`${server.url}/extension/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ grant_type: 'authorization_code', ...fields }) });

async function signedIn(email: string) {
  const browser = new Browser(server);
  await browser.signUp(email);
  return browser;
}

describe('extension connect: sign in, approve, exchange', () => {
  it('signed out, the connect page sends to sign-in and back; approving sends a one-time code to the redirect URI; code + verifier give a working token listed on the tokens page', async () => {
    const browser = new Browser(server);
    const { challenge } = pkce();
    const path = connectPath({ redirect_uri: CHROMIUM_REDIRECT, code_challenge: challenge, code_challenge_method: 'S256', state: 'state-state-state-1' });
    const first = await browser.get(path);
    expect(first.status).toBe(303);
    expect(first.headers.get('location')).toBe(`/users/sign_in?return_to=${encodeURIComponent(path)}`);
    const signIn = await browser.signUp('connect-1@example.com');
    expect(signIn.status).toBe(303);

    const { location, code, state, verifier, page } = await approve(browser);
    expect(page.text).toContain('Allow the Secret Push extension to push as you?');
    expect(page.text).toContain('connect-1@example.com');
    // The consent page's form may go on to the extension's address (browsers apply form-action to redirects).
    expect(page.headers.get('content-security-policy')).toContain("form-action 'self' https://abcdefghijklmnopabcdefghijklmnop.chromiumapp.org");
    expect(location.origin + location.pathname).toBe(CHROMIUM_REDIRECT);
    expect(location.searchParams.get('state')).toBe(state);
    expect(code).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(location.searchParams.has('token')).toBe(false);

    const res = await exchange({ code, code_verifier: verifier, redirect_uri: CHROMIUM_REDIRECT });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const body = (await res.json()) as { token: string; label: string };
    expect(body.label).toMatch(/^Secret Push extension — Chromium, \d{4}-\d{2}-\d{2}$/);
    const active = await fetch(`${server.url}/api/v2/pushes/active`, { headers: { Authorization: `Bearer ${body.token}` } });
    expect(active.status).toBe(200);
    const tokens = await browser.get('/users/token');
    expect(tokens.text).toContain(body.label);
    // The code is stored only as its digest.
    expect(JSON.stringify(await server.server.store.redeemConnectCode(digest(code), new Date().toISOString(), 'probe'))).not.toContain(code);
  });

  it('Firefox redirect URIs work too, and the label says Firefox; the page speaks the visitor language', async () => {
    const browser = await signedIn('connect-ff@example.com');
    browser.defaults['accept-language'] = 'de';
    const { code, verifier, page } = await approve(browser, FIREFOX_REDIRECT);
    expect(page.text).toContain('Der Secret-Push-Erweiterung erlauben, in Ihrem Namen zu pushen?');
    const body = (await (await exchange({ code, code_verifier: verifier, redirect_uri: FIREFOX_REDIRECT })).json()) as { label: string };
    expect(body.label).toMatch(/^Secret-Push-Erweiterung — Firefox, /);
  });

  it('Cancel sends access_denied to the extension and makes no code', async () => {
    const browser = await signedIn('connect-deny@example.com');
    const { challenge } = pkce();
    const q = { redirect_uri: CHROMIUM_REDIRECT, code_challenge: challenge, code_challenge_method: 'S256', state: 'state-state-state-2' };
    const page = await browser.get(connectPath(q));
    const answer = await browser.post('/extension/connect', { csrf_token: csrfFrom(page.text, '/extension/connect'), ...q, decision: 'deny' });
    expect(answer.status).toBe(303);
    const location = new URL(answer.headers.get('location')!);
    expect(location.searchParams.get('error')).toBe('access_denied');
    expect(location.searchParams.get('state')).toBe(q.state);
    expect(location.searchParams.has('code')).toBe(false);
  });
});

describe('extension connect: attacks', () => {
  it('a wrong verifier is refused, and the code is spent by the try', async () => {
    const browser = await signedIn('connect-a1@example.com');
    const { code, verifier } = await approve(browser);
    const wrong = await exchange({ code, code_verifier: pkce().verifier, redirect_uri: CHROMIUM_REDIRECT });
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toMatchObject({ error: 'invalid_grant' });
    const right = await exchange({ code, code_verifier: verifier, redirect_uri: CHROMIUM_REDIRECT });
    expect(right.status).toBe(400);
    expect((await browser.get('/users/token')).text).not.toContain('Secret Push extension');
  });

  it('a replayed code is refused and revokes the token the first exchange made', async () => {
    const browser = await signedIn('connect-a2@example.com');
    const { code, verifier } = await approve(browser);
    const first = await exchange({ code, code_verifier: verifier, redirect_uri: CHROMIUM_REDIRECT });
    const { token } = (await first.json()) as { token: string };
    const again = await exchange({ code, code_verifier: verifier, redirect_uri: CHROMIUM_REDIRECT });
    expect(again.status).toBe(400);
    expect(await again.json()).toMatchObject({ error: 'invalid_grant' });
    const active = await fetch(`${server.url}/api/v2/pushes/active`, { headers: { Authorization: `Bearer ${token}` } });
    expect(active.status).toBe(401);
  });

  it('an expired code is refused', async () => {
    const browser = await signedIn('connect-a3@example.com');
    const { user } = await server.server.accounts.ensureUser('connect-a3@example.com');
    const { verifier, challenge } = pkce();
    const code = randomBytes(32).toString('base64url');
    const made = new Date(Date.now() - 120_000);
    // A code made two minutes ago, as approve() stores one (codes live a minute).
    await server.server.store.insertConnectCode({
      hash: digest(code),
      userId: user.id,
      challenge,
      redirectUri: CHROMIUM_REDIRECT,
      label: 'old',
      createdAt: made.toISOString(),
      expiresAt: new Date(made.getTime() + 60_000).toISOString(),
    });
    const res = await exchange({ code, code_verifier: verifier, redirect_uri: CHROMIUM_REDIRECT });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: 'invalid_grant' });
    expect((await browser.get('/users/token')).text).not.toContain('>old<');
  });

  it('a code exchanged with another redirect URI than it was sent to is refused', async () => {
    const browser = await signedIn('connect-a4@example.com');
    const { code, verifier } = await approve(browser);
    const res = await exchange({ code, code_verifier: verifier, redirect_uri: 'https://ponmlkjihgfedcbaponmlkjihgfedcba.chromiumapp.org/' });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: 'invalid_grant' });
  });

  it('a foreign redirect URI is refused on the page, never redirected to', async () => {
    const browser = await signedIn('connect-a5@example.com');
    const { challenge } = pkce();
    for (const redirect of [
      'https://evil.example/',
      'http://abcdefghijklmnopabcdefghijklmnop.chromiumapp.org/',
      'https://abcdefghijklmnopabcdefghijklmnop.chromiumapp.org.evil.example/',
      'https://abcdefghijklmnopabcdefghijklmnop.chromiumapp.org:444/',
      'https://x@abcdefghijklmnopabcdefghijklmnop.chromiumapp.org/',
      'https://abcdefghijklmnopabcdefghijklmnop.chromiumapp.org/?next=https://evil.example',
      'https://ABCDEFGHIJKLMNOPABCDEFGHIJKLMNOP.chromiumapp.org/',
      'https://short.extensions.allizom.org/',
      'javascript:alert(1)',
    ]) {
      const q = { redirect_uri: redirect, code_challenge: challenge, code_challenge_method: 'S256', state: 'state-state-state-3' };
      const page = await browser.get(connectPath(q));
      expect(page.status, redirect).toBe(400);
      expect(page.headers.get('location')).toBeNull();
      // Nor can the form be posted with it.
      const csrf = csrfFrom((await browser.get('/users/token')).text, '/users/token');
      const posted = await browser.post('/extension/connect', { csrf_token: csrf, ...q, decision: 'allow' });
      expect(posted.status, redirect).toBe(400);
    }
  });

  it('a missing or wrong challenge method, challenge or state is refused on the page', async () => {
    const browser = await signedIn('connect-a6@example.com');
    const { challenge } = pkce();
    const good = { redirect_uri: CHROMIUM_REDIRECT, code_challenge: challenge, code_challenge_method: 'S256', state: 'state-state-state-4' };
    for (const bad of [{ code_challenge_method: 'plain' }, { code_challenge: 'short' }, { state: 'x' }, { state: '' }]) {
      expect((await browser.get(connectPath({ ...good, ...bad }))).status).toBe(400);
    }
  });

  it('approving without the CSRF token (a cross-site form) is refused and makes no code', async () => {
    const browser = await signedIn('connect-a7@example.com');
    const { challenge } = pkce();
    const q = { redirect_uri: CHROMIUM_REDIRECT, code_challenge: challenge, code_challenge_method: 'S256', state: 'state-state-state-5' };
    const missing = await browser.post('/extension/connect', { ...q, decision: 'allow' });
    expect(missing.status).toBe(403);
    expect(missing.headers.get('location')).toBeNull();
    const page = await browser.get(connectPath(q));
    const crossSite = await browser.post('/extension/connect', { csrf_token: csrfFrom(page.text, '/extension/connect'), ...q, decision: 'allow' }, { 'sec-fetch-site': 'cross-site' });
    expect(crossSite.status).toBe(403);
  });

  it('bad exchange bodies are 400s in OAuth words, never 500s', async () => {
    const post = (body: string, type = 'application/json') => fetch(`${server.url}/extension/token`, { method: 'POST', headers: { 'content-type': type }, body });
    const cases: [string, string, string][] = [
      ['not json', 'application/json', 'invalid_request'],
      ['[]', 'application/json', 'invalid_request'],
      ['{"grant_type":"password"}', 'application/json', 'unsupported_grant_type'],
      ['{"grant_type":"authorization_code"}', 'application/json', 'invalid_request'],
      ['{"grant_type":"authorization_code","code":"x","code_verifier":"y","redirect_uri":"z"}', 'application/json', 'invalid_grant'],
      ['{"grant_type":"authorization_code","code":{"a":1},"code_verifier":"y","redirect_uri":"z"}', 'application/json', 'invalid_request'],
      ['grant_type=authorization_code&code=x&code_verifier=y&redirect_uri=z', 'application/x-www-form-urlencoded', 'invalid_grant'],
      ['code=x', 'text/plain', 'invalid_request'],
    ];
    for (const [body, type, error] of cases) {
      const res = await post(body, type);
      expect(res.status, body).toBe(400);
      expect(await res.json(), body).toMatchObject({ error });
    }
    expect((await post('x'.repeat(10_000))).status).toBe(413);
  });
});
