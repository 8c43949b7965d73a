import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commandLineActor } from '../../../server/admin/admin-service.js';
import { startTestProvider, TEST_CLIENT_ID, TEST_CLIENT_SECRET, type TestProvider } from '../../support/oidc-test-provider.js';
import { createTestDatabase, type TestDatabase } from '../../support/postgres-database.js';
import { createPush } from '../../support/http.js';
import { startServer, testStore, type TestServer } from '../../support/server.js';
import { Browser } from '../pages/browser.js';

/**
 * Single sign-on beside the instance's other rules: SSO_ONLY, SIGN_UP=invite|closed for accounts
 * made just in time, REQUIRE_MFA (not for SSO accounts), and three instances on one PostgreSQL
 * database (the callback may land on another instance than the start).
 */
const people = [
  { id: 'invited', email: 'invited@corp.example', emailVerified: true },
  { id: 'stranger', email: 'stranger@corp.example', emailVerified: true },
  { id: 'second', email: 'second@corp.example', emailVerified: true },
  { id: 'known', email: 'known@corp.example', emailVerified: true },
  { id: 'roamer', email: 'roamer@corp.example', emailVerified: true },
];

const ssoEnv = (provider: TestProvider) => ({ OIDC_ISSUER: provider.issuer, OIDC_CLIENT_ID: TEST_CLIENT_ID, OIDC_CLIENT_SECRET: TEST_CLIENT_SECRET, OIDC_DISPLAY_NAME: 'Corp ID' });

/** From `start` on `server` through the provider as `accountId`, the callback answered by `callbackOn`. */
async function ssoSignIn(provider: TestProvider, server: TestServer, accountId: string, start = '/users/auth/oidc', callbackOn = server) {
  const browser = new Browser(server);
  let res = await browser.get(start);
  while (res.status === 303 && res.headers.get('location')!.startsWith('/')) res = await browser.get(res.headers.get('location')!);
  expect(res.status).toBe(303);
  const back = await provider.signIn(res.headers.get('location')!, accountId);
  const landing = new Browser(callbackOn);
  for (const [k, v] of browser.cookies) landing.cookies.set(k, v);
  return { browser: landing, res: await landing.get(back.slice(server.url.length)) };
}

describe('SSO_ONLY with SIGN_UP=invite and REQUIRE_MFA', () => {
  let provider: TestProvider;
  let server: TestServer;
  beforeAll(async () => {
    provider = await startTestProvider(people);
    server = await startServer({ ...ssoEnv(provider), SSO_ONLY: 'true', SIGN_UP: 'invite', REQUIRE_MFA: 'true' });
    provider.setClient([`${server.url}/users/auth/oidc/callback`], [`${server.url}/`]);
  });
  afterAll(async () => {
    await server?.stop();
    await provider?.close();
  });

  it('the sign-in page has no password form and no sign-up, only "Sign in with Corp ID"; password sign-in and sign-up are refused', async () => {
    const page = await new Browser(server).get('/users/sign_in');
    expect(page.text).toContain('Sign in with Corp ID');
    expect(page.text).not.toContain('action="/users/sign_in"');
    expect(page.text).not.toContain('/users/sign_up');
    expect((await new Browser(server).get('/users/sign_up')).status).not.toBe(200);
    await expect(server.server.accounts.verifyPassword('known@corp.example', 'correct horse battery', '127.0.0.1')).rejects.toThrow(/turned off/);
    await expect(server.server.accounts.signUp('new@corp.example', 'correct horse battery', '127.0.0.1')).rejects.toThrow(/turned off/);
  });

  it('API tokens and accounts made by the CLI still work', async () => {
    const { user } = await server.server.accounts.ensureUser('cli@corp.example');
    const { token } = await server.server.accounts.createApiToken(user, 'cli');
    expect(((await createPush(server, { payload: 'by token' }, token)) as { url_token: string }).url_token).toBeTruthy();
  });

  it('a person without an account and without an invite is refused; an invite link followed by SSO makes the account, once', async () => {
    const refused = await ssoSignIn(provider, server, 'stranger');
    expect(refused.res.status).toBe(403);
    expect(refused.res.text).toContain('new accounts need a valid invite link');
    expect(await server.server.store.getUserByEmail('stranger@corp.example')).toBeUndefined();

    const { link } = await server.server.invites.create(commandLineActor(server.url), undefined, 7);
    const path = link.slice(server.url.length);
    const made = await ssoSignIn(provider, server, 'invited', path);
    expect(made.res.status).toBe(303);
    expect(made.res.headers.get('location')).toBe('/dashboard?welcome=1');
    // REQUIRE_MFA is for password accounts: the SSO session is honoured without a second factor.
    expect((await made.browser.get('/dashboard')).status).toBe(200);
    // The invite is used up.
    const again = await ssoSignIn(provider, server, 'second', path);
    expect(again.res.status).toBe(403);
    expect(await server.server.store.getUserByEmail('second@corp.example')).toBeUndefined();
  });
});

describe('SIGN_UP=closed', () => {
  let provider: TestProvider;
  let server: TestServer;
  beforeAll(async () => {
    provider = await startTestProvider(people);
    server = await startServer({ ...ssoEnv(provider), SIGN_UP: 'closed' });
    provider.setClient([`${server.url}/users/auth/oidc/callback`], [`${server.url}/`]);
  });
  afterAll(async () => {
    await server?.stop();
    await provider?.close();
  });

  it('makes no account just in time, but an existing account signs in by SSO', async () => {
    const refused = await ssoSignIn(provider, server, 'stranger');
    expect(refused.res.status).toBe(403);
    expect(refused.res.text).toContain('new accounts are not being made');
    await server.server.accounts.ensureUser('known@corp.example');
    const known = await ssoSignIn(provider, server, 'known');
    expect(known.res.status).toBe(303);
    expect((await known.browser.get('/dashboard')).status).toBe(200);
  });
});

describe.skipIf(testStore !== 'postgres')('three instances on one PostgreSQL database', () => {
  let provider: TestProvider;
  let db: TestDatabase;
  const servers: TestServer[] = [];
  beforeAll(async () => {
    provider = await startTestProvider(people);
    db = await createTestDatabase();
    const env = { ...ssoEnv(provider), DATABASE_URL: db.url, MASTER_KEY: randomBytes(32).toString('hex') };
    for (let i = 0; i < 3; i++) servers.push(await startServer(env));
    provider.setClient(
      servers.map((s) => `${s.url}/users/auth/oidc/callback`),
      servers.map((s) => `${s.url}/`),
    );
  });
  afterAll(async () => {
    for (const s of servers) await s.stop();
    await db?.drop();
    await provider?.close();
  });

  it('started on the first, the callback lands on the second, the session works on the third; the code cannot be replayed on the third', async () => {
    const [a, b, c] = servers as [TestServer, TestServer, TestServer];
    const browser = new Browser(a);
    const started = await browser.get('/users/auth/oidc');
    const back = await provider.signIn(started.headers.get('location')!, 'roamer');
    const callbackPath = back.slice(a.url.length);
    const onB = new Browser(b);
    for (const [k, v] of browser.cookies) onB.cookies.set(k, v);
    const res = await onB.get(callbackPath);
    expect(res.status).toBe(303);
    const onC = new Browser(c);
    for (const [k, v] of onB.cookies) onC.cookies.set(k, v);
    expect((await onC.get('/dashboard')).status).toBe(200);
    // The flow cookie copied to the third instance: the provider refuses the used code.
    const replay = new Browser(c);
    for (const [k, v] of browser.cookies) replay.cookies.set(k, v);
    expect((await replay.get(callbackPath)).status).toBe(400);
  });
});
