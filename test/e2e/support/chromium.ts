import { existsSync, mkdirSync } from 'node:fs';
import { chromium, type BrowserContext, type Page, type Worker } from 'playwright-core';
import type { DrivenPage, ExtensionHarness, Theme } from './extension-harness';

/** Debian's Chromium (`apt-get install -y chromium`); CHROMIUM_PATH overrides it. */
export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const hasChromium = existsSync(chromiumPath);
export const missingChromiumMessage =
  `Chromium not found at ${chromiumPath}: the browser-extension end-to-end tests in Chromium are SKIPPED. ` +
  'Install it with `apt-get install -y chromium` (Debian/Ubuntu; CI does this in .ci/run) or set CHROMIUM_PATH.';

export interface ExtensionBrowser {
  context: BrowserContext;
  extensionId: string;
  worker: Worker;
  /** chrome-extension://<id>/<path> */
  url(path: string): string;
}

/**
 * Whether Chromium has its UI in `language` (Debian: the chromium-l10n package). Without it
 * Chromium runs in English whatever it is asked, and so do extensions.
 */
export const chromiumHasLanguage = (language: string) => existsSync(`/usr/lib/chromium/locales/${language}.pak`);

/**
 * Launches headless Chromium with the unpacked extension, on a profile dir kept across launches;
 * `language` is the browser's UI language (what extensions' `_locales` follow), as a user's
 * system sets it: on Linux Chromium reads it from LANGUAGE (--lang is for Windows and ChromeOS).
 */
export async function launchWithExtension(extensionDir: string, profileDir: string, theme: Theme = 'light', language = 'en-US'): Promise<ExtensionBrowser> {
  mkdirSync(profileDir, { recursive: true });
  const context = await chromium.launchPersistentContext(profileDir, {
    executablePath: chromiumPath,
    // English unless asked: the suites assert words, whatever the machine's own language is.
    env: { ...process.env, LANGUAGE: language, LC_ALL: '', LANG: `${language.replace('-', '_')}.UTF-8` },
    locale: language,
    headless: true,
    ignoreDefaultArgs: ['--disable-extensions'],
    viewport: { width: 460, height: 720 },
    colorScheme: theme,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      `--disable-extensions-except=${extensionDir}`,
      `--load-extension=${extensionDir}`,
      // Without these Chromium keeps trying to reach the internet, which test machines refuse.
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      `--lang=${language}`,
    ],
  });
  const worker =
    context.serviceWorkers().find((w) => w.url().startsWith('chrome-extension://')) ??
    (await context.waitForEvent('serviceworker', { timeout: 60_000 }));
  const extensionId = new URL(worker.url()).host;
  return { context, extensionId, worker, url: (path) => `chrome-extension://${extensionId}/${path.replace(/^\//, '')}` };
}

const driven = (page: Page) => page as unknown as DrivenPage;

/** The extension in Chromium, driven by playwright-core. */
export async function chromiumHarness(extensionDir: string, profileDir: string, theme: Theme = 'light', language?: string): Promise<ExtensionHarness> {
  let b = await launchWithExtension(extensionDir, profileDir, theme, language);
  /**
   * Every page is opened in the current theme: the launch's colorScheme, or the one startOver
   * switched to (Emulation.setEmulatedMedia, which is what prefers-color-scheme reads in that page).
   */
  const newPage = async () => {
    const page = await b.context.newPage();
    await page.emulateMedia({ colorScheme: theme });
    return page;
  };
  /**
   * chrome://extensions, where the user changes site access and shortcuts (developerPrivate):
   * opened once per launch and kept in a background tab, as a user keeps a settings tab. Loading
   * it is the slow part (2–2.5 s on the loaded 2-core test machine, against ~20 ms for the call),
   * and a file asks it ten times.
   */
  let settingsTab: Promise<Page> | undefined;
  const extensionsPage = async <R>(fn: (arg: { id: string; value: string }) => Promise<R>, value: string) => {
    if (settingsTab && (await settingsTab).isClosed()) settingsTab = undefined;
    settingsTab ??= b.context.newPage().then(async (page) => {
      await page.goto(`chrome://extensions/?id=${b.extensionId}`);
      return page;
    });
    const page = await settingsTab;
    return page.evaluate(fn, { id: b.extensionId, value });
  };
  const revokeOrigin = async (originPattern: string) => {
    await extensionsPage(
      // Not granted: nothing to take away.
      ({ id, value }) =>
        chrome.developerPrivate.removeHostPermission(id, value).catch((e: Error) => {
          if (!/hasn't been granted/.test(e.message)) throw e;
        }),
      originPattern,
    );
  };
  const restart = async () => {
    settingsTab = undefined;
    await b.context.close();
    b = await launchWithExtension(extensionDir, profileDir, theme, language);
  };
  return {
    name: 'chromium',
    async openPopup(query = '') {
      const page = await newPage();
      await page.goto(b.url(`popup.html${query}`));
      await page.locator('.app, .loading').first().waitFor();
      return driven(page);
    },
    async openOptions() {
      const page = await newPage();
      await page.goto(b.url('options.html'));
      await page.locator('.app, .loading').first().waitFor();
      return driven(page);
    },
    async openPage(url) {
      const page = await newPage();
      await page.goto(url);
      await page.bringToFront();
      const tabId = await b.worker.evaluate(async (u) => (await chrome.tabs.query({})).find((t) => t.url === u)?.id ?? -1, url);
      return { page: driven(page), tabId };
    },
    inExtension: (fn, arg) => b.worker.evaluate(fn as never, arg) as never,
    async approveNextPrompt(originPattern) {
      await extensionsPage(({ id, value }) => chrome.developerPrivate.addHostPermission(id, value), originPattern);
    },
    revokeOrigin,
    async setShortcut(shortcut) {
      await extensionsPage(
        ({ id, value }) => chrome.developerPrivate.updateExtensionCommand({ extensionId: id, commandName: '_execute_action', keybinding: value }),
        shortcut,
      );
    },
    async waitForWindow(url) {
      const deadline = Date.now() + 20_000;
      for (;;) {
        const page = b.context.pages().find((p) => url.test(p.url()));
        if (page) return driven(page);
        if (Date.now() > deadline) throw new Error(`no window at ${url} (open: ${b.context.pages().map((p) => p.url()).join(', ')})`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    restart,
    /**
     * The theme switches without a relaunch (each page's prefers-color-scheme, see newPage); the
     * UI language only with one, on the same profile (Chromium reads LANGUAGE when it starts), so
     * a tour in another language still saves the new profile's first start.
     */
    async startOver(nextTheme, nextLanguage) {
      // Every site it was given (in Site access, or by an accepted request): Chromium keeps them
      // whatever the extension's own permissions.remove says.
      const granted = await extensionsPage(
        async ({ id }) => (await chrome.developerPrivate.getExtensionInfo(id)).runtimeHostPermissions?.hosts.filter((h) => h.granted).map((h) => h.host) ?? [],
        '',
      );
      for (const pattern of granted) await revokeOrigin(pattern);
      await b.worker.evaluate(async () => {
        const api = chrome as unknown as StartOverApi;
        await Promise.all([api.storage.local.clear(), api.storage.sync.clear(), api.storage.session.clear()]);
        const { origins = [], permissions = [] } = await api.permissions.getAll();
        // Only what was granted on request can be taken back; the manifest's own stay, as on a fresh install.
        for (const p of [...origins.map((o) => ({ origins: [o] })), ...permissions.map((p) => ({ permissions: [p] }))]) {
          try {
            await api.permissions.remove(p);
          } catch {
            // the manifest's own: kept
          }
        }
      });
      theme = nextTheme;
      const changesLanguage = (nextLanguage ?? 'en-US') !== (language ?? 'en-US');
      language = nextLanguage;
      if (changesLanguage) {
        await restart();
        return;
      }
      // The reload ends this worker and closes the extension's pages: a new worker starts, as on a fresh install.
      const reloaded = b.context.waitForEvent('serviceworker', { predicate: (w) => w.url().startsWith(b.url('')), timeout: 60_000 });
      // As the Reload button in chrome://extensions, which a user has only in developer mode (as
      // the unpacked extension of the tests is): reloaded without it, Chromium turns the extension
      // off (disableReasons.unsupportedDeveloperExtension, its pages ERR_BLOCKED_BY_CLIENT).
      await extensionsPage(async ({ id }) => {
        await chrome.developerPrivate.updateProfileConfiguration({ inDeveloperMode: true });
        await chrome.developerPrivate.reload(id, { failQuietly: true });
      }, '');
      b = { ...b, worker: await reloaded };
    },
    close: () => b.context.close(),
  };
}

/** What startOver calls of the extension's API in its service worker. */
interface StartOverApi {
  storage: Record<'local' | 'sync' | 'session', { clear(): Promise<void> }>;
  permissions: { getAll(): Promise<{ origins?: string[]; permissions?: string[] }>; remove(p: object): Promise<boolean> };
}

/** chrome.* as the service worker and chrome://extensions see it (only what the tests call). */
declare const chrome: {
  tabs: { query(q: object): Promise<Array<{ id?: number; url?: string }>> };
  developerPrivate: {
    addHostPermission(extensionId: string, host: string): Promise<void>;
    removeHostPermission(extensionId: string, host: string): Promise<void>;
    reload(extensionId: string, options: { failQuietly: boolean }): Promise<void>;
    getExtensionInfo(extensionId: string): Promise<{ runtimeHostPermissions?: { hosts: Array<{ host: string; granted: boolean }> } }>;
    updateProfileConfiguration(update: { inDeveloperMode: boolean }): Promise<void>;
    updateExtensionCommand(update: { extensionId: string; commandName: string; keybinding: string }): Promise<void>;
  };
};
