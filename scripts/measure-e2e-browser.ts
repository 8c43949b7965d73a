// Measures a large end-to-end file through the real pages in a real Chromium (a script, not a
// test: figures, not pass/fail): the create page encrypts and uploads it, the recipient page
// downloads it through its save worker (decrypted as it is written to disk) and, for comparison,
// through the Blob path used where service workers are unavailable. For each: MiB/s, the
// browser's memory (RSS and PSS summed over all its processes, from /proc, before, peak during,
// after), the recipient's time to first byte on disk, and the saved file's SHA-256 against the
// original's.
// A normal profile by default: Chromium keeps an off-the-record profile's blobs and origin
// private file system in memory, so `--profile incognito` (Playwright's usual browser contexts,
// like a private window) shows the other case.
// `--firefox true` adds the recipient's download in Debian's firefox-esr (puppeteer over
// WebDriver BiDi, a normal profile that saves into a folder without asking).
// Run: npx tsx scripts/measure-e2e-browser.ts [--mib 1024] [--paths worker,blob] [--profile normal|incognito] [--firefox true]
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium, type BrowserContext, type Download, type Page } from 'playwright-core';
import puppeteer from 'puppeteer-core';
import { browserMemory, memoryPeak } from './measure/browser-memory.js';
import { MiB, memory, mib, rate as rateOf, settled, stage } from './measure/report-figures.js';
import { startMeasuredServer, type MeasuredServer } from './measure/measured-server.js';
import { makeFile as makeFileOf, sha256 } from './measure/test-file.js';

const makeFile = (path: string) => makeFileOf(path, FILE_BYTES);

const { values } = parseArgs({
  options: { mib: { type: 'string', default: '1024' }, paths: { type: 'string', default: 'worker,blob' }, profile: { type: 'string', default: 'normal' }, firefox: { type: 'string', default: 'false' } },
});
if (values.profile !== 'normal' && values.profile !== 'incognito') throw new Error('--profile is normal or incognito');
const FILE_BYTES = Math.round(Number(values.mib) * MiB);
if (!(FILE_BYTES > 0)) throw new Error('--mib is the file size in MiB, more than 0');
const rate = (ms: number) => rateOf(FILE_BYTES, ms);

interface Launched {
  context: BrowserContext;
  version: string;
  close(): Promise<void>;
}

const chromiumOptions = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
};

async function launch(serviceWorkers: 'allow' | 'block'): Promise<Launched> {
  if (values.profile === 'normal') {
    const context = await chromium.launchPersistentContext(mkdtempSync(join(work, 'profile-')), { ...chromiumOptions, downloadsPath: downloads, acceptDownloads: true, serviceWorkers });
    return { context, version: context.browser()?.version() ?? '', close: () => context.close() };
  }
  const browser = await chromium.launch({ ...chromiumOptions, downloadsPath: downloads });
  const context = await browser.newContext({ acceptDownloads: true, serviceWorkers });
  return { context, version: browser.version(), close: () => browser.close() };
}

async function upload(context: BrowserContext, server: MeasuredServer, path: string) {
  const exclude = [server.pid];
  const page = await context.newPage();
  page.on('pageerror', (e) => stage(`page error: ${e.message}`));
  page.on('console', (m) => stage(`console: ${m.text()}`));
  await page.goto(`${server.url}/`);
  await page.waitForSelector('[data-e2e-create-note]:not([hidden])');
  await page.check('input[data-kind-choice][value="file"]');
  await page.fill('#expire_after_views', '5');
  await page.setInputFiles('#files', path);
  stage('file chosen');
  const before = browserMemory(exclude);
  const peak = memoryPeak(exclude);
  const started = performance.now();
  const posted = page.waitForRequest((r) => r.method() === 'POST', { timeout: 0 });
  await page.click('#create-submit');
  await posted;
  stage('encrypted, uploading');
  const encryptedMs = performance.now() - started;
  await page.waitForSelector('[data-e2e-link-note]', { timeout: 0 });
  const totalMs = performance.now() - started;
  const during = peak();
  const link = (await page.locator('#secret-link').textContent())!;
  const after = await settled(exclude);
  await page.close();
  const closed = await settled(exclude);
  return { link, before, during, after, closed, encryptedMs, totalMs };
}

/** The first file in `dir` with bytes in it (Chromium writes a download there as it arrives). */
async function firstBytes(dir: string): Promise<number> {
  for (;;) {
    for (const name of readdirSync(dir)) {
      try {
        if (statSync(join(dir, name)).size > 0) return performance.now();
      } catch {
        // renamed while looked at
      }
    }
    await new Promise((r) => setTimeout(r, 5));
  }
}

async function download(context: BrowserContext, server: MeasuredServer, link: string, serviceWorkers: 'allow' | 'block') {
  const exclude = [server.pid];
  for (const name of readdirSync(downloads)) rmSync(join(downloads, name), { force: true });
  const page: Page = await context.newPage();
  page.on('pageerror', (e) => stage(`page error: ${e.message}`));
  page.on('console', (m) => stage(`console: ${m.text()}`));
  await page.goto(link);
  await page.click('#reveal');
  await page.waitForSelector('[data-e2e-download="0"]');
  stage('recipient page shows the file');
  if (serviceWorkers === 'allow') await page.evaluate(() => navigator.serviceWorker.getRegistration('/p/~e2e-save/').then((r) => r?.active ?? null));
  const before = browserMemory(exclude);
  const peak = memoryPeak(exclude);
  const started = performance.now();
  const saved = page.waitForEvent('download', { timeout: 0 });
  const first = firstBytes(downloads);
  await page.click('[data-e2e-download="0"]');
  const d: Download = await saved;
  stage('download started');
  const headersMs = performance.now() - started;
  const firstByteMs = (await first) - started;
  const path = await d.path();
  stage('download saved');
  const totalMs = performance.now() - started;
  const during = peak();
  const failure = await d.failure();
  if (failure || !path) throw new Error(`the download failed: ${failure}`);
  const after = await settled(exclude);
  const hash = await sha256(path);
  const via = new URL(d.url()).pathname.startsWith('/p/~e2e-save/') ? 'save worker' : d.url().startsWith('blob:') ? 'Blob' : d.url();
  await page.close();
  rmSync(path, { force: true });
  return { via, before, during, after, headersMs, firstByteMs, totalMs, hash };
}

/** The recipient's download in Firefox: the page's own marker says how it was saved; the file is complete when Firefox has renamed its .part. */
async function firefoxDownload(server: MeasuredServer, link: string) {
  const exclude = [server.pid];
  const dir = mkdtempSync(join(work, 'firefox-downloads-'));
  const firefox = await puppeteer.launch({
    browser: 'firefox',
    executablePath: process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr',
    headless: true,
    userDataDir: mkdtempSync(join(work, 'firefox-profile-')),
    extraPrefsFirefox: {
      'browser.download.dir': dir,
      'browser.download.folderList': 2,
      'browser.download.useDownloadDir': true,
      'browser.download.always_ask_before_handling_new_types': false,
      'browser.helperApps.neverAsk.saveToDisk': 'application/octet-stream',
    },
  });
  try {
    const version = await firefox.version();
    const page = await firefox.newPage();
    await page.goto(link);
    await page.click('#reveal');
    await page.waitForSelector('[data-e2e-download="0"]');
    const before = browserMemory(exclude);
    const peak = memoryPeak(exclude);
    const started = performance.now();
    const first = firstBytes(dir);
    await page.click('[data-e2e-download="0"]');
    const firstByteMs = (await first) - started;
    await page.waitForSelector('[data-e2e-download="0"][data-e2e-saved]', { timeout: 0 });
    const via = await page.$eval('[data-e2e-download="0"]', (b) => (b as HTMLElement).dataset.e2eSaved);
    const name = 'original.bin';
    // Firefox reserves the name with an empty file, writes a .part beside it, and renames that at the end.
    while (!readdirSync(dir).every((n) => n === name) || !readdirSync(dir).includes(name) || statSync(join(dir, name)).size !== FILE_BYTES) await new Promise((r) => setTimeout(r, 20));
    const totalMs = performance.now() - started;
    const during = peak();
    const after = await settled(exclude);
    const hash = await sha256(join(dir, name));
    return { version, via, before, during, after, firstByteMs, totalMs, hash };
  } finally {
    await firefox.close();
  }
}

const work = mkdtempSync(join(tmpdir(), 'secret-push-measure-browser-'));
const downloads = join(work, 'downloads');
mkdirSync(downloads);
const original = join(work, 'original.bin');
console.log(`Secret Push: a ${mib(FILE_BYTES)} end-to-end file through the real pages (node ${process.version}, ${cpus().length} cores, ${mib(totalmem())} RAM)`);
const originalHash = await makeFile(original);
const server = await startMeasuredServer(FILE_BYTES);
let browser = await launch('allow');
try {
  console.log(`Chromium ${browser.version}, headless, ${values.profile} profile; memory = every Chromium process's, summed`);
  const up = await upload(browser.context, server, original);
  console.log(`\n1. create page: encrypt (WebCrypto) into the upload spool (origin private file system) or a Blob, and upload (form post, HTTP/1.1)`);
  console.log(`   encrypt, click → request sent   ${rate(up.encryptedMs)}`);
  console.log(`   encrypt + upload, → link shown  ${rate(up.totalMs)}`);
  console.log(`   memory before                   ${memory(up.before)}`);
  console.log(`   memory peak during              ${memory(up.during)}`);
  console.log(`   memory after (link page)        ${memory(up.after)}`);
  console.log(`   memory after closing the tab    ${memory(up.closed)}`);
  /** One download's figures; a saved file that differs from the original fails the run. */
  const reportDownload = (title: string, down: { totalMs: number; headersMs?: number; firstByteMs: number; before: Parameters<typeof memory>[0]; during: Parameters<typeof memory>[0]; after: Parameters<typeof memory>[0]; hash: string }) => {
    console.log(`\n${title}`);
    console.log(`   click → saved                   ${rate(down.totalMs)}`);
    if (down.headersMs !== undefined) console.log(`   click → download starts         ${down.headersMs.toFixed(0)} ms`);
    console.log(`   click → first byte on disk      ${down.firstByteMs.toFixed(0)} ms`);
    console.log(`   memory before                   ${memory(down.before)}`);
    console.log(`   memory peak during              ${memory(down.during)}`);
    console.log(`   memory after                    ${memory(down.after)}`);
    console.log(`   SHA-256 of the saved file       ${down.hash === originalHash ? 'equal to the original' : `DIFFERS (${down.hash} vs ${originalHash})`}`);
    if (down.hash !== originalHash) process.exitCode = 1;
  };
  const paths = values.paths.split(',').map((p) => (p === 'worker' ? 'allow' : p === 'blob' ? 'block' : null));
  if (paths.includes(null)) throw new Error('--paths lists worker, blob or both');
  for (const [i, serviceWorkers] of (paths as ('allow' | 'block')[]).entries()) {
    if (serviceWorkers === 'block') {
      await browser.close();
      browser = await launch('block');
    }
    const down = await download(browser.context, server, up.link, serviceWorkers);
    reportDownload(`${i + 2}. recipient page: download and decrypt, saved through the ${down.via}${serviceWorkers === 'block' ? ' (service workers blocked, a fresh browser)' : ''}`, down);
  }
  if (values.firefox === 'true') {
    await browser.close();
    const down = await firefoxDownload(server, up.link);
    reportDownload(`${paths.length + 2}. recipient page in Firefox ${down.version} (headless, normal profile): download and decrypt, saved ${down.via}`, down);
  }
} finally {
  await browser.close().catch(() => undefined);
  await server.stop();
  rmSync(work, { recursive: true, force: true });
}
