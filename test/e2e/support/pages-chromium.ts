import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe } from 'vitest';
import { startServer, type TestServer } from '../../support/server.js';

/** Debian's Chromium (`apt-get install -y chromium`); CHROMIUM_PATH overrides it. */
export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const hasChromium = existsSync(chromiumPath);
export const missingChromiumMessage =
  `Chromium not found at ${chromiumPath}: the page end-to-end tests (test/e2e/pages.test.ts) are SKIPPED. ` +
  'Install it with `apt-get install -y chromium` (Debian/Ubuntu) or point CHROMIUM_PATH at a Chromium binary.';

/**
 * A describe block that needs Chromium: skipped, with a warning saying how to install it, where
 * there is none (so a machine without it is told, not silently passed).
 */
export const describeInChromium: typeof describe.skip = hasChromium
  ? describe
  : (console.warn(`\n⚠ ${missingChromiumMessage}\n`), describe.skip);

/** A server's settings beside the test defaults, or a function giving them when the server starts. */
export type ServerSettings = Record<string, string> | (() => Record<string, string> | Promise<Record<string, string>>);

/**
 * A server and a Chromium for the describe block this is called in: started before its tests,
 * closed after them. `env` is the server's settings beside the test defaults; as a function it is
 * called in this block's beforeAll, after the beforeAll hooks registered before this call, so
 * settings that need something started first (a provider's address, a data dir with a file in
 * it) are made then, not while the file is collected.
 */
export function serverAndChromium(env: ServerSettings = {}): { readonly server: TestServer; readonly browser: Browser } {
  let server: TestServer | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    server = await startServer(typeof env === 'function' ? await env() : env);
    browser = await sharedChromium();
  });
  afterAll(async () => {
    // The browser stays for the worker's next file; what this block opened in it does not.
    await closeContextsOf(browser);
    await server?.stop();
  });
  return {
    get server() {
      if (!server) throw new Error('the server starts in beforeAll: read it inside a test or hook');
      return server;
    },
    get browser() {
      if (!browser) throw new Error('Chromium starts in beforeAll: read it inside a test or hook');
      return browser;
    },
  };
}

const root = resolve(import.meta.dirname, '../../..');
export const artifactsDir = join(root, 'test-artifacts');

/**
 * One Chromium per vitest worker, shared by the files the worker runs one after another (server
 * files run with isolate:false, so this module, and the browser, outlive a file). A launch and
 * close cost ~1.2 CPU-s of Chromium's processes on the 2-core test machine and the e2e files
 * launched ~25 times a run; each file and test still gets fresh BrowserContexts (newVisitor), which
 * share no cookies, storage or cache. Relaunched if it disconnected (crashed or closed by a test).
 * Closed when the worker ends: the fork gets SIGTERM and Playwright's exit handling closes the
 * browsers it launched (no Chromium is left behind: checked with `pgrep chromium` after a run).
 */
let shared: Promise<Browser> | undefined;
export async function sharedChromium(): Promise<Browser> {
  if (shared) {
    const browser = await shared.catch(() => undefined);
    if (browser?.isConnected()) return browser;
  }
  shared = launchChromium();
  return shared;
}

/** Closes every context open in `browser`: what a file left open (a test that failed before its own close). */
export async function closeContextsOf(browser: Browser | undefined): Promise<void> {
  if (!browser?.isConnected()) return;
  await Promise.all(browser.contexts().map((context) => context.close().catch(() => undefined)));
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}

export type Scheme = 'light' | 'dark';

/**
 * A browser context like a person's: a colour scheme, a phone or desktop viewport, clipboard
 * access for the copy buttons. Every page problem (CSP violation, script error, dialog from an
 * injected script) is collected in `problems` so a test can assert there were none.
 */
export async function newVisitor(
  browser: Browser,
  origin: string,
  options: { scheme?: Scheme; phone?: boolean; viewport?: { width: number; height: number }; locale?: string; serviceWorkers?: 'allow' | 'block' } = {},
) {
  const context: BrowserContext = await browser.newContext({
    // The browser's language: sent as Accept-Language, as a person's browser does.
    locale: options.locale ?? 'en-US',
    colorScheme: options.scheme ?? 'light',
    // A phone's viewport is 390×844 unless the test names another (e.g. 375×812).
    viewport: options.viewport ?? (options.phone ? { width: 390, height: 844 } : { width: 1100, height: 800 }),
    deviceScaleFactor: options.phone ? 2 : 1,
    isMobile: options.phone ?? false,
    hasTouch: options.phone ?? false,
    userAgent: options.phone ? 'Mozilla/5.0 (Linux; Android 14) e2e-phone' : 'Mozilla/5.0 e2e-desktop',
    serviceWorkers: options.serviceWorkers ?? 'allow',
  });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
  const problems: string[] = [];
  const page = await context.newPage();
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('dialog', async (d) => {
    problems.push(`dialog: ${d.message()}`);
    await d.dismiss();
  });
  page.on('request', (r) => {
    const url = r.url();
    if (!url.startsWith(origin) && !url.startsWith('data:') && !url.startsWith('https://example.')) problems.push(`third-party request: ${url}`);
  });
  return { context, page, problems };
}

/** A full-page screenshot under test-artifacts/ (gitignored), returned as its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(artifactsDir, { recursive: true });
  const path = join(artifactsDir, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}
