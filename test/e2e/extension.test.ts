import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUserWithToken, startServer, type TestServer } from '../support/server';
import {
  buildExtensionForE2e,
  hasChromium,
  launchWithExtension,
  missingChromiumMessage,
  screenshot,
  type ExtensionBrowser,
} from './support/chromium';

/**
 * The extension in a real headless Chromium against a real server: settings through the popup,
 * the context-menu handler on a real selection, url and qr pushes from the popup, history with
 * "expire now", and settings that survive a browser restart.
 */
/** The callbacks given to `worker.evaluate` run in the extension's service worker, where `chrome` exists. */
declare const chrome: typeof import('@wxt-dev/browser').browser;

if (!hasChromium) console.warn(`\n⚠ ${missingChromiumMessage}\n`);

const PAGE_PATH = '/__e2e/article.html';
const SELECTED = 'db password: hunter2\nport 5432';

describe.skipIf(!hasChromium)('browser extension in Chromium (end to end)', () => {
  let server: TestServer;
  let token: string;
  let extensionDir: string;
  let profileDir: string;
  let browser: ExtensionBrowser;
  let pageUrl: string;

  /** The test page is served under the server's own origin (127.0.0.1, which the e2e build may script). */
  async function openArticle(): Promise<{ page: Page; tabId: number }> {
    await browser.context.route(`${server.url}${PAGE_PATH}`, (route) =>
      route.fulfill({
        contentType: 'text/html',
        body: `<!doctype html><title>Article</title><h1>Notes</h1><pre id="secret">${SELECTED}</pre><p>Other text.</p>`,
      }),
    );
    const page = await browser.context.newPage();
    await page.goto(pageUrl);
    await page.bringToFront();
    const tabId = await browser.worker.evaluate(async (url) => {
      const [tab] = await chrome.tabs.query({ url });
      return tab?.id ?? -1;
    }, pageUrl);
    expect(tabId).toBeGreaterThan(0);
    return { page, tabId };
  }

  async function selectSecret(page: Page) {
    await page.evaluate(() => {
      const range = document.createRange();
      range.selectNodeContents(document.getElementById('secret')!);
      const selection = window.getSelection()!;
      selection.removeAllRanges();
      selection.addRange(range);
    });
  }

  async function openPopup(query: string): Promise<Page> {
    const popup = await browser.context.newPage();
    await popup.goto(browser.url(`popup.html${query}`));
    return popup;
  }

  /** What the server stored, read through its REST API as the owner (owner views are not counted). */
  async function serverPush(urlToken: string) {
    const res = await fetch(`${server.url}/api/v2/pushes/${urlToken}`, { headers: { Authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { payload: string | null; expired: boolean };
    const stored = await server.server.pushes.peek(urlToken);
    return { ...body, kind: stored?.kind };
  }

  const tokenOf = (htmlUrl: string) => new URL(htmlUrl).pathname.split('/')[2];

  beforeAll(async () => {
    [extensionDir, server] = await Promise.all([buildExtensionForE2e(), startServer()]);
    ({ token } = await createUserWithToken(server, 'e2e@example.org'));
    pageUrl = `${server.url}${PAGE_PATH}`;
    profileDir = mkdtempSync(join(tmpdir(), 'secret-push-chromium-'));
    browser = await launchWithExtension(extensionDir, profileDir);
  }, 180_000);

  afterAll(async () => {
    await browser?.context.close().catch(() => undefined);
    await server?.stop();
    if (profileDir) rmSync(profileDir, { recursive: true, force: true });
  });

  it('saves settings from the popup and checks the connection', async () => {
    const popup = await openPopup('');
    // No server yet: the popup opens on Settings.
    await expect.poll(() => popup.getByRole('tab', { name: 'Settings' }).getAttribute('aria-selected')).toBe('true');
    await popup.getByLabel('Server address').fill(server.url);
    await popup.getByLabel(/API token/).fill(token);
    await popup.getByLabel('Days').fill('3');
    await popup.getByRole('button', { name: 'Save' }).click();
    await popup.getByText(/Connected to Secret Push/).waitFor();
    await popup.getByText('Your API token works.').waitFor();
    await screenshot(popup, 'settings');

    const stored = await browser.worker.evaluate(async () => ({
      local: await chrome.storage.local.get(null),
      sync: await chrome.storage.sync.get(null),
    }));
    expect(stored.local.apiToken).toBe(token);
    expect(JSON.stringify(stored.sync)).not.toContain(token);
    expect(stored.sync.serverUrl).toBe(server.url);
    await popup.close();
  });

  it('pushes the page selection from the context-menu handler', async () => {
    const menuIds = await browser.worker.evaluate(async () => {
      const ids = ['secret-push-selection', 'secret-push-link', 'secret-push-page'];
      // update() rejects for an item that does not exist.
      for (const id of ids) await chrome.contextMenus.update(id, {});
      return ids;
    });
    expect(menuIds).toHaveLength(3);

    const { page, tabId } = await openArticle();
    await selectSecret(page);
    const outcome = await browser.worker.evaluate(
      async ({ tabId, pageUrl }) => {
        const handle = (globalThis as unknown as { secretPush: { onMenuClick(info: unknown, tab: unknown): Promise<unknown> } }).secretPush;
        const tab = await chrome.tabs.get(tabId);
        // What Chromium passes for a selection: its selectionText folds the line break.
        return handle.onMenuClick({ menuItemId: 'secret-push-selection', selectionText: 'db password: hunter2 port 5432', frameId: 0, pageUrl }, tab);
      },
      { tabId, pageUrl },
    );
    const result = outcome as { ok: boolean; copied: boolean; record: { html_url: string; days_remaining: number } };
    expect(result.ok).toBe(true);
    expect(result.record.days_remaining).toBe(3); // the default saved in Settings

    const pushed = await serverPush(tokenOf(result.record.html_url));
    expect(pushed.kind).toBe('text');
    expect(pushed.payload).toBe(SELECTED); // read from the page, line break kept

    // ... and said so in a notification.
    const shown = await browser.worker.evaluate(() => chrome.notifications.getAll());
    expect(Object.keys(shown)).toHaveLength(1);

    // The link went to the clipboard through the page.
    expect(result.copied).toBe(true);
    await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(result.record.html_url);
    await page.close();
  });

  it("pushes the tab's URL and a QR code of it from the popup", async () => {
    const { page, tabId } = await openArticle();
    await selectSecret(page);
    // The popup opened as a tab names the page it acts on with ?tabId= (see docs/extension.md).
    const popup = await openPopup(`?tabId=${tabId}`);
    await expect.poll(() => popup.getByLabel(/Secret \(from the selection/).inputValue()).toBe(SELECTED);
    await screenshot(popup, 'push-form');

    await popup.getByLabel("This page's URL").check();
    await expect.poll(() => popup.getByLabel(/Address to push/).inputValue()).toBe(pageUrl);
    await popup.getByRole('button', { name: 'Push URL' }).click();
    await popup.getByRole('heading', { name: 'URL pushed' }).waitFor();
    await popup.getByText('Copied to the clipboard.').waitFor();
    const urlLink = await popup.getByRole('textbox', { name: 'Secret link' }).inputValue();
    await screenshot(popup, 'push-result-url');

    await popup.getByRole('button', { name: 'Push another' }).click();
    await popup.getByLabel('QR code of the URL').check();
    await popup.getByRole('button', { name: 'Push QR code' }).click();
    await popup.getByRole('heading', { name: 'QR code pushed' }).waitFor();
    const qrLink = await popup.getByRole('textbox', { name: 'Secret link' }).inputValue();
    expect(await popup.getByRole('img', { name: 'QR code of the secret link' }).isVisible()).toBe(true);
    await screenshot(popup, 'push-result-qr');

    const [urlPush, qrPush] = await Promise.all([serverPush(tokenOf(urlLink)), serverPush(tokenOf(qrLink))]);
    expect(urlPush).toMatchObject({ kind: 'url', payload: pageUrl });
    expect(qrPush).toMatchObject({ kind: 'qr', payload: pageUrl });
    await popup.close();
    await page.close();
  });

  it('lists the pushes in History and expires one', async () => {
    const popup = await openPopup('?tab=history');
    const list = popup.getByRole('list', { name: 'Active pushes' });
    await list.waitFor();
    const items = list.getByRole('listitem').filter({ has: popup.getByRole('button', { name: /Expire/ }) });
    await expect.poll(() => items.count()).toBe(3); // the selection, the URL and the QR push
    await expect.poll(() => list.getByText('QR code', { exact: true }).count()).toBe(1);
    await expect.poll(() => list.getByText('URL', { exact: true }).count()).toBe(1);
    await screenshot(popup, 'history');

    const active = await (await fetch(`${server.url}/api/v2/pushes/active`, { headers: { Authorization: `Bearer ${token}` } })).json();
    const newest = (active as Array<{ url_token: string }>)[0].url_token;
    await items.first().getByRole('button', { name: /Expire/ }).click();
    await expect.poll(() => items.count()).toBe(2);
    expect((await serverPush(newest)).expired).toBe(true);

    await popup.getByRole('button', { name: 'Expired' }).click();
    await expect.poll(() => popup.getByRole('list', { name: 'Expired pushes' }).getByRole('listitem').count()).toBe(1);
    await screenshot(popup, 'history-expired');
    await popup.close();
  });

  it('keeps the settings across a browser restart', async () => {
    await browser.context.close();
    browser = await launchWithExtension(extensionDir, profileDir);
    const popup = await openPopup('?tab=settings');
    await expect.poll(() => popup.getByLabel('Server address').inputValue()).toBe(server.url);
    expect(await popup.getByLabel(/API token/).inputValue()).toBe(token);
    expect(await popup.getByLabel('Days').inputValue()).toBe('3');
    await popup.getByRole('button', { name: 'Check connection' }).click();
    await popup.getByText('Your API token works.').waitFor();
    await screenshot(popup, 'settings-after-restart');

    // Dark theme renders too (artifact only).
    await popup.emulateMedia({ colorScheme: 'dark' });
    await popup.getByRole('tab', { name: 'Push' }).click();
    await screenshot(popup, 'push-form-dark');
    await popup.close();
  });
});

if (!hasChromium) {
  describe('browser extension in Chromium (end to end)', () => {
    it.skip(missingChromiumMessage, () => undefined);
  });
}
