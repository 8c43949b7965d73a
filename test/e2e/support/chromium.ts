import { execFile } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { chromium, type BrowserContext, type Page, type Worker } from 'playwright-core';

/** Debian's Chromium (`apt-get install -y chromium`); CHROMIUM_PATH overrides it. */
export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const hasChromium = existsSync(chromiumPath);
export const missingChromiumMessage =
  `Chromium not found at ${chromiumPath}: the browser-extension end-to-end tests are SKIPPED. ` +
  'Install it with `apt-get install -y chromium` (Debian/Ubuntu; CI does this in .ci/run) or set CHROMIUM_PATH.';

const root = resolve(import.meta.dirname, '../../..');
export const artifactsDir = join(root, 'test-artifacts');

/**
 * Builds the Chrome MV3 extension in WXT's `e2e` mode into .output/chrome-mv3-e2e. It is the
 * production build plus host access to http://127.0.0.1 (any port), because automation cannot
 * answer Chromium's permission prompt (see wxt.config.ts).
 */
export async function buildExtensionForE2e(): Promise<string> {
  const wxt = join(root, 'node_modules', '.bin', 'wxt');
  await promisify(execFile)(wxt, ['build', '--mode', 'e2e'], { cwd: root, timeout: 120_000 });
  const dir = join(root, '.output', 'chrome-mv3-e2e');
  if (!existsSync(join(dir, 'manifest.json'))) throw new Error(`The e2e build did not produce ${dir}/manifest.json`);
  return dir;
}

export interface ExtensionBrowser {
  context: BrowserContext;
  extensionId: string;
  worker: Worker;
  /** chrome-extension://<id>/<path> */
  url(path: string): string;
}

/** Launches headless Chromium with the unpacked extension, on a profile dir kept across launches. */
export async function launchWithExtension(extensionDir: string, profileDir: string): Promise<ExtensionBrowser> {
  mkdirSync(profileDir, { recursive: true });
  const context = await chromium.launchPersistentContext(profileDir, {
    executablePath: chromiumPath,
    headless: true,
    ignoreDefaultArgs: ['--disable-extensions'],
    viewport: { width: 460, height: 720 },
    colorScheme: 'light',
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
    ],
  });
  const worker = context.serviceWorkers().find((w) => w.url().startsWith('chrome-extension://')) ?? (await context.waitForEvent('serviceworker', { timeout: 20_000 }));
  const extensionId = new URL(worker.url()).host;
  return { context, extensionId, worker, url: (path) => `chrome-extension://${extensionId}/${path.replace(/^\//, '')}` };
}

/** Saves a screenshot of a popup view as a test artifact (test-artifacts/ is gitignored). */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(artifactsDir, { recursive: true });
  const path = join(artifactsDir, `extension-${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}
