import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

/**
 * What the extension's end-to-end tests need from a browser, the same for Chromium
 * (playwright-core over CDP) and Firefox (puppeteer-core over WebDriver BiDi), so that one
 * suite (extension-suite.ts) runs in both.
 */

/** The part of a page both Playwright's and Puppeteer's `Page` offer, with the same meaning. */
export interface DrivenPage {
  evaluate<R, A>(fn: (arg: A) => R | Promise<R>, arg: A): Promise<R>;
  evaluate<R>(fn: () => R | Promise<R>): Promise<R>;
  click(selector: string): Promise<void>;
  focus(selector: string): Promise<void>;
  keyboard: { press(key: string): Promise<void>; type(text: string): Promise<void>; down(key: string): Promise<void>; up(key: string): Promise<void> };
  screenshot(options: { path: string; fullPage?: boolean }): Promise<unknown>;
  bringToFront(): Promise<void>;
  close(): Promise<void>;
}

export type Theme = 'light' | 'dark';

export interface ExtensionHarness {
  name: 'chromium' | 'firefox';
  /** Opens popup.html in a tab (with `?tabId=` / `?tab=`) and waits until the app has drawn. */
  openPopup(query?: string): Promise<DrivenPage>;
  /** Opens Settings, the extension's options page (options.html), in a tab and waits until it has drawn. */
  openOptions(): Promise<DrivenPage>;
  /** Opens a web page and gives its tab id. */
  openPage(url: string): Promise<{ page: DrivenPage; tabId: number }>;
  /**
   * Runs `fn` where the extension's APIs and its background's `secretPush` hooks are reachable:
   * Chromium's service worker, or an extension page next to Firefox's background page. `fn` is
   * serialised: it must reach the API as `(globalThis.browser ?? globalThis.chrome)`.
   */
  inExtension<R, A>(fn: (arg: A) => R | Promise<R>, arg: A): Promise<R>;
  /**
   * What a user's "Allow" in the browser's host-permission prompt does, for the prompt the
   * next `permissions.request` of this pattern shows. Firefox: prompts are answered "Allow" by
   * the profile (extensions.webextOptionalPermissionPrompts=false). Chromium: its prompt is a
   * native dialog automation cannot click, so the site is approved the way a user approves it
   * in the extension's "Site access" settings (chrome://extensions, developerPrivate), after
   * which Chromium grants the request without asking.
   */
  approveNextPrompt(originPattern: string): Promise<void>;
  /**
   * Takes host access away as the user does in the browser's site-access settings (Chromium:
   * access granted there is not withdrawn by the extension's own `permissions.remove`).
   */
  revokeOrigin?(originPattern: string): Promise<void>;
  /** Changes the keyboard shortcut as the browser's shortcut settings do. */
  setShortcut(shortcut: string): Promise<void>;
  /**
   * A page the browser opened by itself whose address matches `url` (the identity window of
   * launchWebAuthFlow), up to 20 s: driven like any page.
   */
  waitForWindow?(url: RegExp): Promise<DrivenPage>;
  /** Closes the browser and starts it again on the same profile (where the browser keeps it). */
  restart?(): Promise<void>;
  /**
   * Starts the extension over as a fresh profile would have it (its storage emptied, the
   * optional permissions it was granted taken back, then reloaded), with the browser switched
   * to `theme` and UI `language` as its own settings switch them, without a relaunch. Where a
   * launch is costly (Firefox: 11–28 s each on the loaded test machine) the theme and language
   * tours share one browser this way; absent, each tour launches its own.
   */
  startOver?(theme: Theme, language?: string): Promise<void>;
  close(): Promise<void>;
}

const root = resolve(import.meta.dirname, '../../..');
export const artifactsDir = join(root, 'test-artifacts');

/**
 * The extension for one browser exactly as shipped, once per test run: `wxt zip` (what
 * `npm run zip:ext` runs: the production build, no test-only manifest entries, and its store
 * package; for Firefox also the sources archive) into a directory of the run. The first test file
 * that asks builds it (under a lock: WXT writes .wxt/, so two builds at once would overwrite each
 * other's files); the others wait for it and use it. The unpacked build (buildExtension) and the
 * packages (extensionPackages) are the same build: the suites load the first, the packaging test
 * unpacks the second. Outside a run (no SECRET_PUSH_TEST_RUN_DIR), each call builds into a
 * directory of its own.
 */
async function packaged(browser: 'chrome' | 'firefox'): Promise<string> {
  const runDir = process.env.SECRET_PUSH_TEST_RUN_DIR ?? mkdtempSync(join(tmpdir(), 'secret-push-extension-'));
  const target = join(runDir, `extension-${browser}`);
  const done = join(target, 'done');
  const lock = join(runDir, 'extension-build.lock');
  for (;;) {
    if (existsSync(done)) return target;
    try {
      mkdirSync(lock);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      // Another file is building: wait for its lock to go (the build's own timeout bounds this).
      await new Promise((r) => setTimeout(r, 250));
      continue;
    }
    try {
      if (!existsSync(done)) {
        const partial = `${target}.partial`;
        rmSync(partial, { recursive: true, force: true });
        const wxt = join(root, 'node_modules', '.bin', 'wxt');
        // Vitest sets NODE_ENV=test, which Vite would carry into a bigger, non-production bundle.
        const env = { ...process.env, NODE_ENV: 'production', SP_EXT_OUT_DIR: partial };
        await promisify(execFile)(wxt, ['zip', '-b', browser], { cwd: root, env, timeout: 120_000 });
        const dir = join(partial, unpackedDir[browser]);
        if (!existsSync(join(dir, 'manifest.json'))) throw new Error(`The e2e build did not produce ${dir}/manifest.json`);
        // Renamed when whole: a waiting file sees nothing until every file is there.
        writeFileSync(join(partial, 'done'), '');
        renameSync(partial, target);
      }
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
}

const unpackedDir = { chrome: 'chrome-mv3', firefox: 'firefox-mv2' } as const;

/** The unpacked extension for one browser, as a browser loads it (see packaged). */
export async function buildExtension(browser: 'chrome' | 'firefox'): Promise<string> {
  return join(await packaged(browser), unpackedDir[browser]);
}

/**
 * The store package of one browser's build (…-chrome.zip, …-firefox.zip) and, for Firefox, the
 * sources archive (…-sources.zip): the same build buildExtension gives (see packaged).
 */
export async function extensionPackages(browser: 'chrome' | 'firefox'): Promise<{ zip: string; sources?: string }> {
  const dir = await packaged(browser);
  const zips = readdirSync(dir).filter((f) => f.endsWith('.zip'));
  const pick = (suffix: string) => join(dir, zips.find((z) => z.endsWith(suffix)) ?? `missing${suffix}`);
  return { zip: pick(`-${browser}.zip`), ...(browser === 'firefox' ? { sources: pick('-sources.zip') } : {}) };
}

export async function screenshot(page: DrivenPage, name: string): Promise<string> {
  mkdirSync(artifactsDir, { recursive: true });
  const path = join(artifactsDir, `extension-${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}

// ---- Finding things the way a user does: by label, by button name, by text. ----
// The functions passed to `evaluate` run in the page, so they are self-contained.

interface Target {
  /** Regex source matched against a <label>'s whole text: the control it labels. */
  label?: string;
  /** Regex source matched against a button's (or tab's, link's, summary's) accessible name. */
  button?: string;
  /** Which match, when several (0 = first). */
  nth?: number;
}

/** Marks the element and gives a selector for it (null when there is none). */
async function mark(page: DrivenPage, target: Target): Promise<string | null> {
  return page.evaluate((t: Target) => {
    const whole = (src: string) => new RegExp(`^(?:${src})$`, 'i');
    const visible = (el: Element) => (el as HTMLElement).offsetParent !== null || getComputedStyle(el).position === 'fixed';
    let found: Element[] = [];
    if (t.label) {
      const re = whole(t.label);
      found = [...document.querySelectorAll('label')]
        .filter((l) => re.test((l.textContent ?? '').replace(/\s+/g, ' ').trim()))
        .map((l) => l.control ?? l.querySelector('input, textarea, select'))
        .filter((el): el is HTMLElement => el !== null);
    } else if (t.button) {
      const re = whole(t.button);
      found = [...document.querySelectorAll('button, [role="tab"], summary, a')].filter((el) =>
        re.test((el.getAttribute('aria-label') ?? el.textContent ?? '').replace(/\s+/g, ' ').trim()),
      );
    }
    const el = found.filter(visible)[t.nth ?? 0];
    if (!el) return null;
    const id = `m${Math.random().toString(36).slice(2)}`;
    el.setAttribute('data-e2e', id);
    return `[data-e2e="${id}"]`;
  }, target);
}

/**
 * The target, waiting for it as a person would (up to 5 s): the popup re-renders as answers
 * arrive, and a field can be briefly absent or hidden between two renders.
 */
async function required(page: DrivenPage, target: Target): Promise<string> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const selector = await mark(page, target);
    if (selector) return selector;
    if (Date.now() > deadline) throw new Error(`Not on the page: ${JSON.stringify(target)}\n--- page text ---\n${await pageText(page)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Presses a combination (`Control+Enter`) with the key names both drivers know. */
export async function pressKeys(page: DrivenPage, combo: string): Promise<void> {
  const keys = combo.split('+');
  const key = keys.pop()!;
  for (const modifier of keys) await page.keyboard.down(modifier);
  await page.keyboard.press(key);
  for (const modifier of keys.reverse()) await page.keyboard.up(modifier);
}

export function pageText(page: DrivenPage): Promise<string> {
  return page.evaluate(() => document.body.innerText);
}

export async function has(page: DrivenPage, target: Target): Promise<boolean> {
  return (await mark(page, target)) !== null;
}

export async function click(page: DrivenPage, target: Target): Promise<void> {
  await page.click(await required(page, target));
}

/** Sets a field's value as typing would (an `input` event), like Playwright's `fill`. */
export async function fill(page: DrivenPage, label: string, value: string): Promise<void> {
  const selector = await required(page, { label });
  await page.evaluate(
    ({ selector, value }) => {
      const el = document.querySelector(selector) as HTMLInputElement | HTMLTextAreaElement;
      el.focus();
      el.value = value;
      el.dispatchEvent(new Event('input', { bubbles: true }));
    },
    { selector, value },
  );
}

export async function valueOf(page: DrivenPage, label: string): Promise<string> {
  const selector = await required(page, { label });
  return page.evaluate((s) => (document.querySelector(s) as HTMLInputElement).value, selector);
}

/** The focused element: its id, and the text of its label or its own accessible name. */
export function focused(page: DrivenPage): Promise<{ id: string; name: string }> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return { id: '', name: '' };
    const label = (el as HTMLInputElement).labels?.[0]?.textContent ?? el.getAttribute('aria-label') ?? el.textContent ?? '';
    return { id: el.id, name: label.replace(/\s+/g, ' ').trim() };
  });
}

/**
 * Every visible piece of text whose font is smaller than `min` px or whose contrast with the
 * background behind it is below WCAG AA (4.5:1; 3:1 for large text), disabled controls and the
 * QR code (always black on white) excepted.
 */
export function unreadableText(page: DrivenPage, min: number): Promise<string[]> {
  return page.evaluate((minPx) => {
    const parse = (c: string): [number, number, number, number] => {
      const m = c.match(/[\d.]+/g)?.map(Number) ?? [0, 0, 0, 0];
      return [m[0], m[1], m[2], m.length > 3 ? m[3] : 1];
    };
    const lum = ([r, g, b]: number[]) => {
      const f = (v: number) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
      return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
    };
    const background = (el: Element | null): number[] => {
      for (let e = el; e; e = e.parentElement) {
        const c = parse(getComputedStyle(e).backgroundColor);
        if (c[3] > 0.5) return c;
      }
      return parse(getComputedStyle(document.documentElement).backgroundColor)[3] > 0.5
        ? parse(getComputedStyle(document.documentElement).backgroundColor)
        : matchMedia('(prefers-color-scheme: dark)').matches
          ? [0, 0, 0, 1]
          : [255, 255, 255, 1];
    };
    const problems: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent?.trim();
      const el = node.parentElement;
      if (!text || !el || el.closest('[disabled], svg, option')) continue;
      if ((el as HTMLElement).offsetParent === null && getComputedStyle(el).position !== 'fixed') continue;
      const style = getComputedStyle(el);
      const size = parseFloat(style.fontSize);
      const fg = parse(style.color);
      const bg = background(el);
      const [l1, l2] = [lum(fg), lum(bg)].sort((a, b) => b - a);
      const ratio = (l1 + 0.05) / (l2 + 0.05);
      const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700);
      if (size < minPx) problems.push(`"${text.slice(0, 40)}": ${size}px`);
      if (ratio < (large ? 3 : 4.5)) problems.push(`"${text.slice(0, 40)}": contrast ${ratio.toFixed(2)}:1 (${style.color} on rgb(${bg.slice(0, 3).join(', ')}))`);
    }
    return problems;
  }, min);
}
