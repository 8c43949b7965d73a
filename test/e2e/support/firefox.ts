import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import type { DrivenPage, ExtensionHarness, Theme } from './extension-harness';
import { firefoxAddonId } from '../../../extension/lib/firefox-addon-id';

/** Debian's Firefox ESR (`apt-get install -y firefox-esr`); FIREFOX_PATH overrides it. */
export const firefoxPath = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr';
export const hasFirefox = existsSync(firefoxPath);
export const missingFirefoxMessage =
  `Firefox not found at ${firefoxPath}: the browser-extension end-to-end tests in Firefox are SKIPPED. ` +
  'Install it with `apt-get install -y firefox-esr` (Debian/Ubuntu; CI does this in .ci/run) or set FIREFOX_PATH.';

/**
 * Whether Firefox has a language pack for `language` (Debian: firefox-esr-l10n-<language>).
 * Without it Firefox runs in English whatever it is asked, and so do extensions.
 */
export const firefoxHasLanguage = (language: string) =>
  language === 'en' || existsSync(`/usr/lib/firefox-esr/browser/extensions/langpack-${language}@firefox-esr.mozilla.org.xpi`);

/** The add-on id of the manifest (wxt.config.ts) and the moz-extension:// host the tests give it. */
const geckoId = firefoxAddonId();
const uuid = '5e7c1d2a-8f3b-4c6d-9e0a-1b2c3d4e5f60';
const base = `moz-extension://${uuid}/`;

const driven = (page: Page) => page as unknown as DrivenPage;

/** Whether a protocol error caused this one (anywhere down the `cause` chain). */
function fromProtocol(err: unknown): boolean {
  for (let e = err; e; e = (e as { cause?: unknown }).cause) if ((e as Error).name === 'ProtocolError') return true;
  return false;
}

/**
 * Waits for `selector` in a page that is still navigating away from about:blank. Firefox fails
 * a poll that lands between the two documents with a protocol error (the old realm is gone)
 * until puppeteer has heard of the new realm, and BiDi gives no event for "extension page
 * ready" to wait on instead; so the wait starts again a little later, a few times. Any other
 * failure is the test's.
 */
async function waitForContent(page: Page, selector: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await page.waitForSelector(selector, { timeout: 20_000 });
      return;
    } catch (err) {
      if (attempt >= 8 || !fromProtocol(err)) throw err;
      await new Promise((retry) => setTimeout(retry, 100 * attempt));
    }
  }
}

/**
 * Firefox on `profileDir` (kept across launches), with the add-on installed for good, as an
 * installed add-on is: a proxy file in the profile's `extensions/` (named by the add-on id,
 * holding the unpacked build's path) that Firefox loads at every start. A temporary add-on
 * (WebDriver's install) is removed when Firefox closes, so it could not show what a restart
 * keeps. Firefox ESR loads unsigned add-ons when xpinstall.signatures.required is off
 * (release builds ignore that pref).
 */
async function launchFirefox(extensionDir: string, profileDir: string, theme: Theme, language?: string, executablePath = firefoxPath): Promise<Browser> {
  mkdirSync(join(profileDir, 'extensions'), { recursive: true });
  writeFileSync(join(profileDir, 'extensions', geckoId), resolve(extensionDir));
  return puppeteer.launch({
    browser: 'firefox',
    executablePath,
    headless: true,
    userDataDir: profileDir,
    args: ['--remote-allow-system-access'],
    extraPrefsFirefox: {
      'extensions.webextensions.uuids': JSON.stringify({ [geckoId]: uuid }),
      'xpinstall.signatures.required': false,
      // Add-ons in the profile (this one) and in Firefox's directory (language packs) are
      // enabled without asking.
      'extensions.autoDisableScopes': 0,
      // The user's "Allow" in the optional-permission prompt (see approveNextPrompt).
      'extensions.webextOptionalPermissionPrompts': false,
      // The tests close the popup as Firefox does when its permission prompt opens.
      'dom.allow_scripts_to_close_windows': true,
      'ui.systemUsesDarkTheme': theme === 'dark' ? 1 : 0,
      // The UI language a user picks in Firefox's settings (the language pack is an app add-on).
      // English unless asked: the suites assert words, whatever the machine's own language is.
      'intl.locale.requested': language ?? 'en-US',
      'intl.locale.matchOS': false,
    },
  });
}

/** What startOver calls of the extension's API (Firefox's `browser`). */
interface StartOverApi {
  storage: Record<'local' | 'sync', { clear(): Promise<void> }> & { session?: { clear(): Promise<void> } };
  permissions: { getAll(): Promise<{ origins?: string[]; permissions?: string[] }>; remove(p: object): Promise<boolean> };
  runtime: { reload(): void };
}

/** The extension in Firefox, driven by puppeteer-core over WebDriver BiDi (playwright-core's
 * Firefox does not work with Debian's firefox-esr). */
export async function firefoxHarness(
  extensionDir: string,
  profileDir: string,
  theme: Theme = 'light',
  language?: string,
  /** Another Firefox (a private copy with its own distribution/policies.json: support/firefox-policy.ts). */
  executablePath = firefoxPath,
): Promise<ExtensionHarness> {
  let browser = await launchFirefox(extensionDir, profileDir, theme, language, executablePath);

  const newPage = async (url: string, ready?: string) => {
    const page = await browser.newPage();
    await page.setViewport({ width: 460, height: 720 });
    // Extension pages never report their navigation as finished over BiDi: wait for content.
    void page.goto(url).catch(() => undefined);
    if (ready) await waitForContent(page, ready);
    return page;
  };

  // An extension page beside the background page: the tests reach the extension's APIs there.
  let helper: Page | null = null;
  const inExtension = async <R, A>(fn: (arg: A) => R | Promise<R>, arg: A): Promise<R> => {
    helper ??= await newPage(`${base}popup.html?tab=settings`, '.app, .loading');
    await helper.evaluate(async () => {
      const g = globalThis as unknown as { browser: { runtime: { getBackgroundPage(): Promise<{ secretPush: unknown }> } }; secretPush: unknown; backgroundGlobal: unknown };
      const background = await g.browser.runtime.getBackgroundPage();
      g.secretPush = background.secretPush;
      g.backgroundGlobal = background;
    });
    return helper.evaluate(fn as never, arg as never) as Promise<R>;
  };

  return {
    name: 'firefox',
    openPopup: async (query = '') => driven(await newPage(`${base}popup.html${query}`, '.app, .loading')),
    openOptions: async () => driven(await newPage(`${base}options.html`, '.app, .loading')),
    async openPage(url) {
      const page = await browser.newPage();
      await page.setViewport({ width: 460, height: 720 });
      await page.goto(url);
      await page.bringToFront();
      const tabId = await inExtension(
        async (u: string) => {
          const ext = (globalThis as unknown as { browser: { tabs: { query(q: object): Promise<Array<{ id?: number; url?: string }>> } } }).browser;
          // Match patterns carry no port: look the tab up by its whole address.
          return (await ext.tabs.query({})).find((t) => t.url === u)?.id ?? -1;
        },
        url,
      );
      return { page: driven(page), tabId };
    },
    inExtension,
    approveNextPrompt: async () => undefined,
    async setShortcut(shortcut) {
      await inExtension(
        (s: string) =>
          (globalThis as unknown as { browser: { commands: { update(d: object): Promise<void> } } }).browser.commands.update({
            name: '_execute_browser_action',
            shortcut: s,
          }),
        shortcut,
      );
    },
    async waitForWindow(url) {
      const deadline = Date.now() + 20_000;
      for (;;) {
        const page = (await browser.pages()).find((p) => url.test(p.url()));
        if (page) return driven(page);
        if (Date.now() > deadline) throw new Error(`no window at ${url} (open: ${(await browser.pages()).map((p) => p.url()).join(', ')})`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    async startOver(theme, language) {
      // Firefox's settings write these prefs; Firefox follows a theme pref at once (a page's
      // prefers-color-scheme), and an extension picks its _locales language when it starts.
      // Firefox's own window, reachable over BiDi with --remote-allow-system-access (puppeteer has no call for it).
      const connection = (browser as unknown as { connection: { send(method: string, params: object): Promise<{ result: unknown }> } }).connection;
      const { result } = (await connection.send('browsingContext.getTree', { 'moz:scope': 'chrome' })) as { result: { contexts: Array<{ context: string }> } };
      const prefs = `Services.prefs.setIntPref('ui.systemUsesDarkTheme', ${theme === 'dark' ? 1 : 0});
        Services.prefs.setCharPref('intl.locale.requested', ${JSON.stringify(language ?? 'en-US')});`;
      await connection.send('script.evaluate', { expression: prefs, target: { context: result.contexts[0].context }, awaitPromise: false });
      await inExtension(async () => {
        const g = globalThis as unknown as { backgroundGlobal: { startedOver?: boolean } };
        const api = (globalThis as unknown as { browser: StartOverApi }).browser;
        await Promise.all([api.storage.local.clear(), api.storage.sync.clear(), api.storage.session?.clear()]);
        const { origins = [], permissions = [] } = await api.permissions.getAll();
        // Only what was granted on request can be taken back; the manifest's own stay, as on a fresh install.
        // (A required one is refused at once, by a thrown type error rather than a rejection.)
        for (const p of [...origins.map((o) => ({ origins: [o] })), ...permissions.map((p) => ({ permissions: [p] }))]) {
          try {
            await api.permissions.remove(p);
          } catch {
            // the manifest's own: kept
          }
        }
        g.backgroundGlobal.startedOver = true;
        // Not awaited: the reload takes this page down.
        setTimeout(() => api.runtime.reload(), 0);
      }, null);
      // Started over once the background is a new page (the old one carried the mark).
      helper = null;
      const deadline = Date.now() + 30_000;
      for (;;) {
        const fresh = await inExtension(() => !(globalThis as unknown as { backgroundGlobal: { startedOver?: boolean } }).backgroundGlobal.startedOver, null).catch(() => false);
        if (fresh) break;
        if (Date.now() > deadline) throw new Error('the extension did not come back after runtime.reload()');
        const stale = helper as Page | null;
        helper = null;
        await stale?.close().catch(() => undefined);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    async restart() {
      await browser.close();
      helper = null;
      browser = await launchFirefox(extensionDir, profileDir, theme, language, executablePath);
    },
    close: () => browser.close(),
  };
}
