import { afterAll, beforeAll, expect, it } from 'vitest';
import { createUserWithToken } from '../support/server.js';
import { startTestProvider, TEST_CLIENT_ID, TEST_CLIENT_SECRET, type TestProvider } from '../support/oidc-test-provider.js';
import { describeInChromium, newVisitor, serverAndChromium } from './support/pages-chromium.js';

/**
 * Sign-in by SSO (issue 30 item 1) as a person does it, in Chromium against a real OpenID
 * Provider (oidc-provider on loopback): "Sign in with Corp ID" on our sign-in page, the
 * provider's own login form, back on the dashboard; refusals said on our page. The protocol's
 * attacks are HTTP tests (test/server/sign-in/oidc-sign-in.test.ts).
 */

const accounts = [
  { id: 'alice', email: 'alice@corp.example', emailVerified: true },
  { id: 'outsider', email: 'someone@elsewhere.example', emailVerified: true },
  { id: 'mallory', email: 'owner@corp.example', emailVerified: false },
];

/** A provider started before the server (whose settings name it), its client registered after. */
function ssoServerAndChromium(extra: Record<string, string>) {
  let provider: TestProvider | undefined;
  beforeAll(async () => {
    provider = await startTestProvider(accounts);
  });
  afterAll(async () => provider?.close());
  const env = serverAndChromium(() => ({
    ...extra,
    OIDC_ISSUER: provider!.issuer,
    OIDC_CLIENT_ID: TEST_CLIENT_ID,
    OIDC_CLIENT_SECRET: TEST_CLIENT_SECRET,
    OIDC_DISPLAY_NAME: 'Corp ID',
  }));
  beforeAll(() => provider!.setClient([`${env.server.url}/users/auth/oidc/callback`], [`${env.server.url}/`]));
  return Object.assign(env, {
    /** The provider's origin: the one place besides ours the pages go to. */
    issuer: () => provider!.issuer,
  });
}

/** From our sign-in page through the provider's login form as `accountId`; the page we end on. */
async function signInThroughProvider(env: ReturnType<typeof ssoServerAndChromium>, accountId: string) {
  const visitor = await newVisitor(env.browser, env.server.url);
  const { page } = visitor;
  await page.goto(`${env.server.url}/users/sign_in`);
  await page.click('#sign-in-sso');
  await page.waitForSelector('#provider-sign-in');
  expect(new URL(page.url()).origin).not.toBe(env.server.url);
  await page.fill('#login', accountId);
  await Promise.all([page.waitForURL((u) => u.origin === env.server.url), page.click('#provider-sign-in')]);
  await page.waitForLoadState('domcontentloaded');
  return visitor;
}

describeInChromium('SSO sign-in in Chromium (real OpenID Provider)', () => {
  const env = ssoServerAndChromium({ SIGN_UP_EMAIL_DOMAINS: 'corp.example' });

  it('"Sign in with Corp ID", the provider\'s login, and the new account\'s dashboard', async () => {
    const { context, page, problems } = await signInThroughProvider(env, 'alice');
    try {
      expect(new URL(page.url()).pathname).toBe('/dashboard');
      // Signed in: a page for account holders only opens instead of sending to the sign-in page.
      await page.goto(`${env.server.url}/users/token`);
      expect(new URL(page.url()).pathname).toBe('/users/token');
      expect((await env.server.server.store.getUserByEmail('alice@corp.example'))?.sso?.subject).toBe('alice');
      expect(problems.filter((p) => !p.startsWith(`third-party request: ${env.issuer()}`))).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('an address outside SIGN_UP_EMAIL_DOMAINS is refused with a message on our page, and no account is made', async () => {
    const { context, page } = await signInThroughProvider(env, 'outsider');
    try {
      expect(await page.textContent('body')).toContain('only for addresses at corp.example');
      expect(new URL(page.url()).pathname).not.toBe('/dashboard');
      expect(await env.server.server.store.getUserByEmail('someone@elsewhere.example')).toBeUndefined();
    } finally {
      await context.close();
    }
  });

  it('an unverified e-mail that matches an existing account is not linked to it', async () => {
    await createUserWithToken(env.server, 'owner@corp.example');
    const { context, page } = await signInThroughProvider(env, 'mallory');
    try {
      expect(await page.textContent('body')).toContain('has not verified your e-mail address');
      expect(new URL(page.url()).pathname).not.toBe('/dashboard');
      const owner = await env.server.server.store.getUserByEmail('owner@corp.example');
      expect(owner?.sso).toBeUndefined();
    } finally {
      await context.close();
    }
  });
});

describeInChromium('SSO_ONLY in Chromium', () => {
  const env = ssoServerAndChromium({ SSO_ONLY: 'true' });

  it('the sign-in page offers only the provider, and signing in through it reaches the dashboard', async () => {
    const { context, page } = await newVisitor(env.browser, env.server.url);
    try {
      await page.goto(`${env.server.url}/users/sign_in`);
      expect(await page.locator('input[type="password"]').count()).toBe(0);
      expect(await page.locator('#sign-in-sso').textContent()).toContain('Corp ID');
    } finally {
      await context.close();
    }
    const signedIn = await signInThroughProvider(env, 'alice');
    try {
      expect(new URL(signedIn.page.url()).pathname).toBe('/dashboard');
    } finally {
      await signedIn.context.close();
    }
  });
});
