import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../support/server';
import { chromiumHarness, hasChromium } from './support/chromium';
import { buildExtension, click, fill, has, pageText, type DrivenPage, type ExtensionHarness } from './support/extension-harness';
import { firefoxHarness, hasFirefox } from './support/firefox';

/**
 * Connect by signing in (issue 30 item 4), end to end in real Chromium and real Firefox against
 * a real server: Settings → Connect opens the browser's identity window (launchWebAuthFlow) on
 * the server's sign-in, the user signs in and allows, the extension pushes with the token it
 * got, the token is on the tokens page, and revoking it there makes the popup say it must
 * connect again.
 */
type Ext = { [api: string]: any };
const browsers = [
  { name: 'Chromium', build: 'chrome' as const, available: hasChromium, launch: chromiumHarness },
  { name: 'Firefox', build: 'firefox' as const, available: hasFirefox, launch: firefoxHarness },
];

for (const b of browsers) {
  describe.skipIf(!b.available)(`extension connect in ${b.name} (end to end)`, () => {
    let server: TestServer;
    let ext: ExtensionHarness;
    let profileDir: string;
    const email = `connect-${b.build}@example.org`;
    const password = 'violet tugboat quantum marmalade';

    beforeAll(async () => {
      const [s, dir] = await Promise.all([startServer(), buildExtension(b.build)]);
      server = s;
      await server.server.accounts.ensureUser(email);
      await server.server.accounts.setPassword(email, password);
      profileDir = mkdtempSync(join(tmpdir(), `secret-push-connect-${b.build}-`));
      ext = await b.launch(dir, profileDir, 'light');
    }, 180_000);

    afterAll(async () => {
      await ext?.close().catch(() => undefined);
      await server?.stop();
      if (profileDir) rmSync(profileDir, { recursive: true, force: true });
    });

    const waitForText = (page: DrivenPage, re: RegExp) => expect.poll(() => pageText(page), { timeout: 20_000 }).toMatch(re);

    it('connects by signing in, pushes with the token it got, and asks to connect again once the token is revoked', async () => {
      const origin = new URL(server.url).origin;
      await ext.approveNextPrompt(`${origin.replace(/:\d+$/, '')}/*`);
      // The server confirmed first, as today: address saved, host access granted.
      const popup = await ext.openOptions();
      await fill(popup, 'Server address', server.url);
      await click(popup, { button: 'Save' });
      await waitForText(popup, /Connected to Secret Push/);
      const redirect = await ext.inExtension(() => (((globalThis as Ext).browser ?? (globalThis as Ext).chrome) as Ext).identity.getRedirectURL() as string, undefined);
      expect(redirect).toMatch(b.build === 'chrome' ? /^https:\/\/[a-p]{32}\.chromiumapp\.org\/$/ : /^https:\/\/[0-9a-f]{40}\.extensions\.allizom\.org\/$/);

      await click(popup, { button: 'Connect by signing in' });
      const window = await ext.waitForWindow!(/\/users\/sign_in\?return_to=%2Fextension%2Fconnect/);
      await expect.poll(() => pageText(window), { timeout: 20_000 }).toMatch(/Sign in/);
      await fill(window, 'Email', email);
      await fill(window, 'Password', password);
      // Enter in the password field (the header has a "Sign in" link too).
      await window.keyboard.press('Enter');
      await expect.poll(() => pageText(window).catch(() => ''), { timeout: 20_000 }).toMatch(/Allow the Secret Push extension to push as you\?/);
      expect(await pageText(window)).toContain(email);
      await click(window, { button: 'Allow' });

      await waitForText(popup, /Connected: the server made the token “Secret Push extension — (Chromium|Firefox), \d{4}-\d{2}-\d{2}” for this extension\./);
      await waitForText(popup, /Your API token works\./);
      const stored = await ext.inExtension(async () => (await (((globalThis as Ext).browser ?? (globalThis as Ext).chrome) as Ext).storage.local.get(['apiToken', 'tokenOrigin'])) as Ext, undefined);
      expect(stored.apiToken).toMatch(/^sp_/);
      expect(stored.tokenOrigin).toBe(origin);
      const { user } = await server.server.accounts.ensureUser(email);
      const tokens = await server.server.accounts.listApiTokens(user);
      expect(tokens.map((t) => t.label)).toEqual([expect.stringMatching(new RegExp(`^Secret Push extension — ${b.name}, `))]);

      // A push with that token: it is the account's.
      await popup.close();
      const pushPopup = await ext.openPopup('');
      await fill(pushPopup, 'Secret.*', 'pushed after connecting');
      await click(pushPopup, { button: 'Push secret' });
      await waitForText(pushPopup, /Text pushed/);
      const active = await fetch(`${server.url}/api/v2/pushes/active`, { headers: { Authorization: `Bearer ${stored.apiToken}` } });
      expect(((await active.json()) as unknown[]).length).toBe(1);
      await pushPopup.close();

      // The tokens page lists it; revoked there, the popup says to connect again.
      const { page: tokensPage } = await ext.openPage(`${server.url}/users/token`);
      if (/Sign in/.test(await pageText(tokensPage)) && !/API tokens/.test(await pageText(tokensPage))) {
        // A browser whose identity window kept its own cookies: the user signs in here too.
        await fill(tokensPage, 'Email', email);
        await fill(tokensPage, 'Password', password);
        await tokensPage.keyboard.press('Enter');
      }
      await expect.poll(() => pageText(tokensPage).catch(() => ''), { timeout: 20_000 }).toMatch(new RegExp(`Secret Push extension — ${b.name}, \\d{4}-\\d{2}-\\d{2}`));
      await click(tokensPage, { button: 'Revoke' });
      await expect.poll(() => pageText(tokensPage).catch(() => ''), { timeout: 20_000 }).toMatch(/The token was revoked/);
      expect(await server.server.accounts.listApiTokens(user)).toEqual([]);
      await tokensPage.close();
      const after = await ext.openPopup('');
      await waitForText(after, /no longer accepts this extension’s token/);
      expect(await has(after, { button: 'Connect by signing in' })).toBe(true);
      await after.close();
    }, 120_000);
  });
}
