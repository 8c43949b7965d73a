// Measures an end-to-end file push from the browser extension's popup in a real Chromium and
// Firefox (a script, not a test: figures, not pass/fail). The popup is given a file on disk (as
// a user's choice is), "Push file" is clicked, and the script waits for the link: MiB/s, and the
// browser's memory (RSS and PSS summed over all its processes, from /proc: before, peak during,
// after). Where the extension kept the envelope is read from the file host's answer (disk: the
// OPFS spool; memory: a Blob; none heard: the popup's fallback, slices to the background, as
// before the file host existed). The file is then downloaded by the recipient page in a plain
// Chromium and its SHA-256 compared with the original's.
// `--extension` and `--firefox-extension` name other builds (e.g. main's, for a before/after).
// Run: npm run build:ext && npx tsx scripts/measure-e2e-extension.ts [--mib 1024] [--browsers chromium,firefox]
//        [--extension .output/chrome-mv3] [--firefox-extension .output/firefox-mv2] [--verify true]
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium, type Page as PlaywrightPage } from 'playwright-core';
import type { Page as PuppeteerPage } from 'puppeteer-core';
import { chromiumHarness } from '../test/e2e/support/chromium.js';
import { click, pageText, valueOf, type DrivenPage, type ExtensionHarness } from '../test/e2e/support/extension-harness.js';
import { firefoxHarness } from '../test/e2e/support/firefox.js';
import { browserMemory, memoryPeak } from './measure/browser-memory.js';
import { MiB, memory, mib, rate as rateOf, settled, stage } from './measure/report-figures.js';
import { startMeasuredServer, type MeasuredServer } from './measure/measured-server.js';
import { makeFile, sha256 } from './measure/test-file.js';

const { values } = parseArgs({
  options: {
    mib: { type: 'string', default: '1024' },
    browsers: { type: 'string', default: 'chromium,firefox' },
    extension: { type: 'string', default: '.output/chrome-mv3' },
    'firefox-extension': { type: 'string', default: '.output/firefox-mv2' },
    verify: { type: 'string', default: 'true' },
    'timeout-minutes': { type: 'string', default: '20' },
  },
});
const FILE_BYTES = Math.round(Number(values.mib) * MiB);
if (!(FILE_BYTES > 0)) throw new Error('--mib is the file size in MiB, more than 0');
const rate = (ms: number) => rateOf(FILE_BYTES, ms);

type Ext = { [api: string]: any };

/** Points the extension at the server and gives it access, as Settings → Save and the user's "Allow" do. */
async function setUp(ext: ExtensionHarness, server: MeasuredServer) {
  await ext.inExtension(async (url: string) => {
    const api = ((globalThis as Ext).browser ?? (globalThis as Ext).chrome) as Ext;
    await api.storage.sync.set({ serverUrl: url });
  }, server.url);
  // Chromium's prompt is a native dialog: the site is approved first, as in the extension's site-access settings; Firefox's profile answers "Allow" itself.
  await ext.approveNextPrompt('http://127.0.0.1/*');
  const popup = await withNameHelper(await ext.openPopup(''));
  await waitFor(async () => /Allow access to/.test(await pageText(popup)));
  await click(popup, { button: 'Allow access to .*' });
  // The background finishes the set-up (what the server offers, files among it) when access arrives.
  await waitFor(() => ext.inExtension(() => (((globalThis as Ext).browser ?? (globalThis as Ext).chrome) as Ext).permissions.contains({ origins: ['http://127.0.0.1/*'] }), null));
  await popup.close();
}

/**
 * tsx compiles this script with esbuild's keepNames, which wraps named functions in `__name(…)`;
 * functions handed to a page (the harness's) then need that helper there.
 */
const withNameHelper = async (page: DrivenPage) => {
  await (page as unknown as { evaluate(code: string): Promise<unknown> }).evaluate('globalThis.__name = (f) => f');
  return page;
};

async function waitFor(test: () => Promise<boolean>, everyMs = 100) {
  while (!(await test())) await new Promise((r) => setTimeout(r, everyMs));
}

/** The file chosen in the popup's input, from disk (a File backed by the file, as a user's choice is). */
async function choose(name: 'chromium' | 'firefox', popup: DrivenPage, path: string) {
  if (name === 'chromium') return (popup as unknown as PlaywrightPage).setInputFiles('#file', path);
  const input = await (popup as unknown as PuppeteerPage).$('#file');
  await (input as unknown as { uploadFile(path: string): Promise<void> }).uploadFile(path);
}

async function pushFromPopup(ext: ExtensionHarness, name: 'chromium' | 'firefox', server: MeasuredServer, path: string) {
  const exclude = [server.pid];
  const popup = await withNameHelper(await ext.openPopup(''));
  await waitFor(async () => /A file/.test(await pageText(popup)));
  await click(popup, { label: 'A file' });
  await choose(name, popup, path);
  await popup.evaluate(() => {
    const seen: string[] = [];
    (globalThis as Ext).hostAnswers = seen;
    new BroadcastChannel('secret-push-files').onmessage = ({ data }) => void ('answer' in data && seen.push(data.envelope));
  });
  stage('file chosen');
  const before = browserMemory(exclude);
  const peak = memoryPeak(exclude);
  const started = performance.now();
  await click(popup, { button: 'Push file' });
  const deadline = started + Number(values['timeout-minutes']) * 60_000;
  await waitFor(async () => {
    if (performance.now() > deadline) throw new Error(`no link after ${values['timeout-minutes']} minutes; the popup says:\n${await pageText(popup)}`);
    return /File push|went wrong|cannot|refused/i.test(await pageText(popup));
  }, 200);
  const totalMs = performance.now() - started;
  const during = peak();
  const text = await pageText(popup);
  if (!/File push/.test(text)) throw new Error(`the push failed: ${text}`);
  const link = await valueOf(popup, 'Secret link');
  const envelope = ((await popup.evaluate(() => (globalThis as Ext).hostAnswers)) as string[]).join(',') || 'no file host (slices to the background)';
  const after = await settled(exclude);
  await popup.close();
  const closed = await settled(exclude);
  return { link, envelope, before, during, after, closed, totalMs };
}

/** The pushed file as the recipient page saves it, in a plain Chromium: its SHA-256. */
async function recipientHash(link: string): Promise<string> {
  const downloads = mkdtempSync(join(work, 'downloads-'));
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    downloadsPath: downloads,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  try {
    const page = await (await browser.newContext({ acceptDownloads: true })).newPage();
    await page.goto(link);
    await page.click('#reveal');
    await page.waitForSelector('[data-e2e-download="0"]');
    const [download] = await Promise.all([page.waitForEvent('download', { timeout: 0 }), page.click('[data-e2e-download="0"]')]);
    return await sha256((await download.path())!);
  } finally {
    await browser.close();
  }
}

const work = mkdtempSync(join(tmpdir(), 'secret-push-measure-extension-'));
const original = join(work, 'original.bin');
console.log(`Secret Push: a ${mib(FILE_BYTES)} end-to-end file pushed from the extension's popup (node ${process.version}, ${cpus().length} cores, ${mib(totalmem())} RAM)`);
const originalHash = await makeFile(original, FILE_BYTES);
const server = await startMeasuredServer(FILE_BYTES);
try {
  for (const name of values.browsers.split(',') as ('chromium' | 'firefox')[]) {
    const dir = resolve(name === 'chromium' ? values.extension : values['firefox-extension']);
    const profile = join(work, `profile-${name}`);
    mkdirSync(profile);
    const ext = name === 'chromium' ? await chromiumHarness(dir, profile) : await firefoxHarness(dir, profile);
    try {
      await setUp(ext, server);
      const up = await pushFromPopup(ext, name, server, original);
      console.log(`\n${name} (headless, normal profile), extension ${dir}`);
      console.log(`   envelope kept                   ${up.envelope}`);
      console.log(`   click → link shown              ${rate(up.totalMs)}`);
      console.log(`   memory before                   ${memory(up.before)}`);
      console.log(`   memory peak during              ${memory(up.during)}`);
      console.log(`   memory after (result shown)     ${memory(up.after)}`);
      console.log(`   memory after closing the popup  ${memory(up.closed)}`);
      if (values.verify === 'true') {
        await ext.close();
        const hash = await recipientHash(up.link);
        console.log(`   SHA-256 of the recipient's file ${hash === originalHash ? 'equal to the original' : `DIFFERS (${hash} vs ${originalHash})`}`);
        if (hash !== originalHash) process.exitCode = 1;
      }
    } finally {
      await ext.close().catch(() => undefined);
    }
  }
} finally {
  await server.stop();
  rmSync(work, { recursive: true, force: true });
}
