// Measures a large end-to-end file through the real pages in a real Chromium (a script, not a
// test: figures, not pass/fail): the create page encrypts and uploads it, the recipient page
// downloads it through its save worker (decrypted as it is written to disk) and, for comparison,
// through the Blob path used where service workers are unavailable. For each: MiB/s, the
// browser's memory (RSS and PSS summed over all its processes, from /proc, before, peak during,
// after), the recipient's time to first byte on disk, and the saved file's SHA-256 against the
// original's.
// Run: npx tsx scripts/measure-e2e-browser.ts [--mib 1024] [--blob-path true|false]
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium, type Browser, type Download, type Page } from 'playwright-core';
import { browserMemory, memoryPeak, type MemoryFigures } from './measure/browser-memory.js';
import { startMeasuredServer, type MeasuredServer } from './measure/measured-server.js';

const { values } = parseArgs({ options: { mib: { type: 'string', default: '1024' }, 'blob-path': { type: 'string', default: 'true' } } });
const MiB = 1024 ** 2;
const FILE_BYTES = Math.round(Number(values.mib) * MiB);
if (!(FILE_BYTES > 0)) throw new Error('--mib is the file size in MiB, more than 0');

const mib = (n: number) => `${(n / MiB).toFixed(0)} MiB`;
const memory = (m: MemoryFigures) => `RSS ${mib(m.rss).padStart(9)}  PSS ${mib(m.pss).padStart(9)}  (${m.processes} processes)`;
const rate = (ms: number) => `${(FILE_BYTES / MiB / (ms / 1000)).toFixed(1)} MiB/s (${(ms / 1000).toFixed(1)} s)`;

/** Random bytes (1 MiB of them, each MiB stamped with its index so no two are alike), written to disk and hashed. */
async function makeFile(path: string): Promise<string> {
  const base = randomBytes(MiB);
  const hash = createHash('sha256');
  const out = createWriteStream(path);
  for (let at = 0; at < FILE_BYTES; at += MiB) {
    const piece = Buffer.from(base.subarray(0, Math.min(MiB, FILE_BYTES - at)));
    piece.writeUInt32BE(at / MiB, 0);
    hash.update(piece);
    if (!out.write(piece)) await new Promise<void>((r) => out.once('drain', () => r()));
  }
  await new Promise<void>((resolve, reject) => out.once('error', reject).end(() => resolve()));
  return hash.digest('hex');
}

async function sha256(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Memory once the browser has had a moment to let go of what a phase used. */
async function settled(exclude: number[]): Promise<MemoryFigures> {
  await new Promise((r) => setTimeout(r, 2000));
  return browserMemory(exclude);
}

async function upload(browser: Browser, server: MeasuredServer, path: string) {
  const exclude = [server.pid];
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${server.url}/`);
  await page.waitForSelector('[data-e2e-create-note]:not([hidden])');
  await page.check('input[data-kind-choice][value="file"]');
  await page.fill('#expire_after_views', '5');
  await page.setInputFiles('#files', path);
  const before = browserMemory(exclude);
  const peak = memoryPeak(exclude);
  const started = performance.now();
  const posted = page.waitForRequest((r) => r.method() === 'POST', { timeout: 0 });
  await page.click('#create-submit');
  await posted;
  const encryptedMs = performance.now() - started;
  await page.waitForSelector('[data-e2e-link-note]', { timeout: 0 });
  const totalMs = performance.now() - started;
  const during = peak();
  const link = (await page.locator('#secret-link').textContent())!;
  const after = await settled(exclude);
  await context.close();
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

async function download(browser: Browser, server: MeasuredServer, link: string, downloads: string, serviceWorkers: 'allow' | 'block') {
  const exclude = [server.pid];
  for (const name of readdirSync(downloads)) rmSync(join(downloads, name), { force: true });
  const context = await browser.newContext({ serviceWorkers, acceptDownloads: true });
  const page: Page = await context.newPage();
  await page.goto(link);
  await page.click('#reveal');
  await page.waitForSelector('[data-e2e-download="0"]');
  if (serviceWorkers === 'allow') await page.evaluate(() => navigator.serviceWorker.getRegistration('/p/~e2e-save/').then((r) => r?.active ?? null));
  const before = browserMemory(exclude);
  const peak = memoryPeak(exclude);
  const started = performance.now();
  const saved = page.waitForEvent('download', { timeout: 0 });
  const first = firstBytes(downloads);
  await page.click('[data-e2e-download="0"]');
  const d: Download = await saved;
  const headersMs = performance.now() - started;
  const firstByteMs = (await first) - started;
  const path = await d.path();
  const totalMs = performance.now() - started;
  const during = peak();
  const failure = await d.failure();
  if (failure || !path) throw new Error(`the download failed: ${failure}`);
  const after = await settled(exclude);
  const hash = await sha256(path);
  const via = new URL(d.url()).pathname.startsWith('/p/~e2e-save/') ? 'save worker' : d.url().startsWith('blob:') ? 'Blob' : d.url();
  await context.close();
  rmSync(path, { force: true });
  return { via, before, during, after, headersMs, firstByteMs, totalMs, hash };
}

const work = mkdtempSync(join(tmpdir(), 'secret-push-measure-browser-'));
const downloads = join(work, 'downloads');
mkdirSync(downloads);
const original = join(work, 'original.bin');
console.log(`Secret Push: a ${mib(FILE_BYTES)} end-to-end file through the real pages (node ${process.version}, ${cpus().length} cores, ${mib(totalmem())} RAM)`);
const originalHash = await makeFile(original);
const server = await startMeasuredServer(FILE_BYTES);
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  headless: true,
  downloadsPath: downloads,
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
});
try {
  console.log(`Chromium ${browser.version()}, headless; memory = every Chromium process's, summed`);
  const up = await upload(browser, server, original);
  console.log(`\n1. create page: encrypt (WebCrypto, into a Blob) and upload (form post, HTTP/1.1)`);
  console.log(`   encrypt, click → request sent   ${rate(up.encryptedMs)}`);
  console.log(`   encrypt + upload, → link shown  ${rate(up.totalMs)}`);
  console.log(`   memory before                   ${memory(up.before)}`);
  console.log(`   memory peak during              ${memory(up.during)}`);
  console.log(`   memory after (link page)        ${memory(up.after)}`);
  console.log(`   memory after closing the tab    ${memory(up.closed)}`);
  const paths: ('allow' | 'block')[] = values['blob-path'] === 'false' ? ['allow'] : ['allow', 'block'];
  for (const [i, serviceWorkers] of paths.entries()) {
    const down = await download(browser, server, up.link, downloads, serviceWorkers);
    console.log(`\n${i + 2}. recipient page: download and decrypt, saved through the ${down.via}${serviceWorkers === 'block' ? ' (service workers blocked)' : ''}`);
    console.log(`   click → saved                   ${rate(down.totalMs)}`);
    console.log(`   click → download starts         ${down.headersMs.toFixed(0)} ms`);
    console.log(`   click → first byte on disk      ${down.firstByteMs.toFixed(0)} ms`);
    console.log(`   memory before                   ${memory(down.before)}`);
    console.log(`   memory peak during              ${memory(down.during)}`);
    console.log(`   memory after                    ${memory(down.after)}`);
    console.log(`   SHA-256 of the saved file       ${down.hash === originalHash ? 'equal to the original' : `DIFFERS (${down.hash} vs ${originalHash})`}`);
    if (down.hash !== originalHash) process.exitCode = 1;
  }
} finally {
  await browser.close();
  await server.stop();
  rmSync(work, { recursive: true, force: true });
}
