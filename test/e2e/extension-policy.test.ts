import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import extractZip from 'extract-zip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUserWithToken, startServer, type TestServer } from '../support/server';
import { chromiumExtensionPolicy, firefoxWithPolicies, unpackedExtensionId } from './support/browser-policy';
import { chromiumHarness, hasChromium, missingChromiumMessage } from './support/chromium';
import { click, extensionPackages, has, pageText, valueOf, type DrivenPage, type ExtensionHarness } from './support/extension-harness';
import { firefoxHarness, hasFirefox, missingFirefoxMessage } from './support/firefox';
import { firefoxAddonId } from '../../extension/lib/firefox-addon-id';

/**
 * The shipped packages (npm run zip:ext's zips, unpacked as a browser unpacks them) started in
 * Chromium and Firefox WITH an organisation's policy (support/browser-policy.ts says how each
 * browser is given one without touching any other browser on the machine), against a real
 * server: the address is locked and shown as the organisation's, the policy's defaults are in
 * the push form and reach the server, URL and QR pushes are not offered. The Firefox package
 * passes `web-ext lint` with no errors. Store screenshots (1280×800 and 640×400) are written to
 * test-artifacts/store/.
 */
const root = resolve(import.meta.dirname, '../..');
const storeShots = join(root, 'test-artifacts', 'store');
const geckoId = firefoxAddonId();
type Ext = { [api: string]: any };

/**
 * `wxt zip` for both browsers (npm run zip:ext): the run's one build of each, which the other
 * extension tests load unpacked (extension-harness.ts).
 */
async function zipPackages(): Promise<{ chrome: string; firefox: string; sources: string }> {
  const [chrome, firefox] = await Promise.all([extensionPackages('chrome'), extensionPackages('firefox')]);
  return { chrome: chrome.zip, firefox: firefox.zip, sources: firefox.sources! };
}

async function unpack(zip: string): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'secret-push-package-'));
  await extractZip(zip, { dir });
  return dir;
}

/** A store screenshot: the page drawn at exactly width×height (the stores' sizes). */
async function storeShot(page: DrivenPage, name: string, width: number, height: number) {
  mkdirSync(storeShots, { recursive: true });
  const p = page as unknown as { setViewportSize?(s: object): Promise<void>; setViewport?(s: object): Promise<void> };
  await (p.setViewportSize ? p.setViewportSize({ width, height }) : p.setViewport!({ width, height }));
  await page.screenshot({ path: join(storeShots, `${name}-${width}x${height}.png`) });
}

describe('shipped packages with an organisation\'s policy', () => {
  let server: TestServer;
  let token: string;
  let packages: { chrome: string; firefox: string; sources: string };
  const cleanup: Array<() => void> = [];
  const policy = () => ({
    serverUrl: server.url,
    pushDefaults: { expire_after_days: 2, expire_after_views: 3, retrieval_step: true, end_to_end: false },
    offerUrlPushes: false,
    offerQrPushes: false,
  });

  beforeAll(async () => {
    [server, packages] = await Promise.all([startServer(), zipPackages()]);
    ({ token } = await createUserWithToken(server, 'policy@example.org'));
  }, 240_000);

  afterAll(async () => {
    for (const undo of cleanup.reverse()) undo();
    await server?.stop();
  });

  it('npm run zip:ext makes the Chrome Web Store and Firefox Add-ons packages and the sources archive', () => {
    for (const zip of Object.values(packages)) expect(existsSync(zip), zip).toBe(true);
  });

  it('the Firefox package passes web-ext lint with no errors', async () => {
    const dir = await unpack(packages.firefox);
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
    const webExt = join(root, 'node_modules', '.bin', 'web-ext');
    const run = await promisify(execFile)(webExt, ['lint', '--source-dir', dir, '--output', 'json', '--no-config-discovery'], { cwd: root, timeout: 120_000 }).catch(
      (e: { stdout: string }) => e,
    );
    const result = JSON.parse(run.stdout) as { summary: { errors: number; warnings: number }; errors: Array<{ code: string; message: string; file?: string }> };
    expect(result.errors.map((e) => `${e.code}: ${e.message} (${e.file})`)).toEqual([]);
    expect(result.summary.errors).toBe(0);
  }, 120_000);

  /** The same checks in both browsers: the popup as the organisation set it up. */
  async function checkPolicyApplied(ext: ExtensionHarness, shotName: string) {
    await ext.approveNextPrompt('http://127.0.0.1/*');
    let popup = await ext.openOptions();
    await expect.poll(() => valueOf(popup, 'Server address')).toBe(server.url);
    expect(await popup.evaluate(() => (document.getElementById('serverUrl') as HTMLInputElement).readOnly)).toBe(true);
    await expect.poll(() => pageText(popup)).toMatch(/Set by your organisation\. You still connect with your own account\./);
    if (await has(popup, { button: 'Allow access to .*' })) await click(popup, { button: 'Allow access to .*' });
    // The user's own account: the token field is theirs to fill (or Connect, once the server answers).
    expect(await popup.evaluate(() => (document.getElementById('apiToken') as HTMLInputElement).readOnly)).toBe(false);
    await click(popup, { button: 'Default options of new pushes' });
    expect(await popup.evaluate(() => (document.getElementById('default_days') as HTMLInputElement).disabled)).toBe(true);
    await expect.poll(() => pageText(popup), { timeout: 15_000 }).toMatch(/Connected to Secret Push/);
    await storeShot(popup, `${shotName}-settings-managed`, 1280, 800);
    await popup.close();

    await ext.inExtension(
      async ({ apiToken, origin }) => {
        const api = ((globalThis as Ext).browser ?? (globalThis as Ext).chrome) as Ext;
        await api.storage.local.set({ apiToken, tokenOrigin: origin });
      },
      { apiToken: token, origin: new URL(server.url).origin },
    );
    popup = await ext.openPopup('');
    await expect.poll(() => pageText(popup), { timeout: 15_000 }).toMatch(/What to push/);
    // Only text (and files): URL and QR pushes are turned off by the policy.
    const kinds = await popup.evaluate(() => [...document.querySelectorAll<HTMLInputElement>('input[name="kind"]')].map((i) => i.value));
    expect(kinds).not.toContain('url');
    expect(kinds).not.toContain('qr');
    expect(kinds).toContain('text');
    await expect.poll(() => valueOf(popup, 'Days')).toBe('2');
    expect(await valueOf(popup, 'Views')).toBe('3');
    expect(await popup.evaluate(() => (document.getElementById('retrieval_step') as HTMLInputElement).checked)).toBe(true);
    await storeShot(popup, `${shotName}-push-form`, 640, 400);
    await storeShot(popup, `${shotName}-push-form`, 1280, 800);
    await popup.evaluate(() => {
      const el = document.getElementById('payload') as HTMLTextAreaElement;
      el.value = 'policy pushed secret';
      el.dispatchEvent(new Event('input', { bubbles: true }));
    });
    await click(popup, { button: 'Push secret' });
    await expect.poll(() => pageText(popup), { timeout: 15_000 }).toMatch(/pushed/);
    const link = await valueOf(popup, 'Secret link');
    const stored = await server.server.pushes.peek(new URL(link).pathname.split('/')[2]);
    // The policy's defaults reached the server; end to end is off by policy, so the server holds the text.
    expect(stored).toMatchObject({ expireAfterDays: 2, expireAfterViews: 3, retrievalStep: true });
    await storeShot(popup, `${shotName}-push-result`, 1280, 800);
    await popup.close();

    // The context menu's link item, had it been drawn before the policy came, is refused.
    const outcome = await ext.inExtension(
      (url: string) => (globalThis as unknown as { secretPush: { onMenuClick(info: unknown, tab: unknown): Promise<{ ok: boolean; problem?: { message: string } }> } }).secretPush.onMenuClick({ menuItemId: 'secret-push-link', linkUrl: url, pageUrl: url }, undefined),
      `${server.url}/`,
    );
    expect(outcome).toMatchObject({ ok: false, problem: { message: 'Your organisation has turned this kind of push off.' } });
  }

  describe.runIf(hasChromium)('Chromium', () => {
    let ext: ExtensionHarness | undefined;
    afterAll(async () => void (await ext?.close().catch(() => undefined)));

    it('the Chrome package, unpacked, with a 3rdparty policy: address locked, defaults applied, URL/QR hidden', async () => {
      const dir = await unpack(packages.chrome);
      cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
      const id = unpackedExtensionId(dir);
      cleanup.push(chromiumExtensionPolicy(id, policy()));
      const profile = mkdtempSync(join(tmpdir(), 'secret-push-policy-chrome-'));
      cleanup.push(() => rmSync(profile, { recursive: true, force: true }));
      ext = await chromiumHarness(dir, profile);
      expect(await ext.inExtension(() => ((globalThis as Ext).chrome as Ext).runtime.id, null)).toBe(id);
      await checkPolicyApplied(ext, 'chrome');
    }, 120_000);
  });
  if (!hasChromium) it.skip(missingChromiumMessage, () => undefined);

  describe.runIf(hasFirefox)('Firefox', () => {
    let ext: ExtensionHarness | undefined;
    afterAll(async () => void (await ext?.close().catch(() => undefined)));

    it('the Firefox package, unpacked, with policies.json 3rdparty: address locked, defaults applied, URL/QR hidden', async () => {
      const dir = await unpack(packages.firefox);
      cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
      const firefox = firefoxWithPolicies({ '3rdparty': { Extensions: { [geckoId]: policy() } } });
      cleanup.push(firefox.remove);
      const profile = mkdtempSync(join(tmpdir(), 'secret-push-policy-firefox-'));
      cleanup.push(() => rmSync(profile, { recursive: true, force: true }));
      ext = await firefoxHarness(dir, profile, 'light', undefined, firefox.executablePath);
      await checkPolicyApplied(ext, 'firefox');
    }, 120_000);
  });
  if (!hasFirefox) it.skip(missingFirefoxMessage, () => undefined);
});
