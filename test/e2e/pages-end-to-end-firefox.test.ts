import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encryptBytes } from '../../shared/e2e/envelope-crypto.js';
import { HEADER_BYTES, RECORD_BYTES } from '../../shared/e2e/envelope-format.js';
import { newPushKey } from '../../shared/e2e/link-key.js';
import { secret } from '../support/http.js';
import { startServer, type TestServer } from '../support/server.js';
import { endToEndFilePush, fileBytes } from './support/end-to-end-file-push.js';
import { firefoxPath, hasFirefox, missingFirefoxMessage } from './support/firefox.js';

/**
 * End-to-end files through the pages in Firefox (Debian's firefox-esr over WebDriver BiDi, a
 * normal profile that saves downloads into a folder without asking): the create page sends a
 * file in slices; the recipient page decrypts it into the download spool (OPFS) and saves it from
 * there byte for byte, and a damaged one is refused before anything is saved.
 */
if (!hasFirefox) console.warn(`\n⚠ ${missingFirefoxMessage}\n`);

describe.skipIf(!hasFirefox)('end-to-end files saved by the recipient page (Firefox)', () => {
  let server: TestServer;
  let browser: Browser;
  let downloads: string;
  let profile: string;

  beforeAll(async () => {
    server = await startServer({ FILES_REQUIRE_AUTH: 'false' });
    downloads = mkdtempSync(join(tmpdir(), 'e2e-firefox-downloads-'));
    profile = mkdtempSync(join(tmpdir(), 'e2e-firefox-profile-'));
    browser = await puppeteer.launch({
      browser: 'firefox',
      executablePath: firefoxPath,
      headless: true,
      userDataDir: profile,
      extraPrefsFirefox: {
        'browser.download.dir': downloads,
        'browser.download.folderList': 2,
        'browser.download.useDownloadDir': true,
        'browser.download.always_ask_before_handling_new_types': false,
        'browser.helperApps.neverAsk.saveToDisk': 'application/octet-stream',
        'browser.download.alwaysOpenPanel': false,
      },
    });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    for (const dir of [downloads, profile]) if (dir) rmSync(dir, { recursive: true, force: true });
  });

  async function clickDownload(link: string): Promise<Page> {
    const page = await browser.newPage();
    await page.goto(link);
    await page.click('#reveal');
    await page.waitForSelector('[data-e2e-download="0"]');
    await page.click('[data-e2e-download="0"]');
    return page;
  }

  const saved = (name: string) => join(downloads, name);
  const partial = (name: string) => readdirSync(downloads).filter((n) => n.startsWith(name) && n !== name);
  /** Saved whole: Firefox reserves the name with an empty file, writes a .part file beside it, and renames that at the end. */
  const complete = (name: string, size: number) => existsSync(saved(name)) && partial(name).length === 0 && statSync(saved(name)).size === size;

  it('the create page sends a file in slices (no request holds the whole envelope), and it arrives byte for byte', async () => {
    const size = 9 * 1_048_576 + 321;
    const bytes = fileBytes(size, secret('firefox-create'));
    const path = join(downloads, '..', `firefox-create-${process.pid}.bin`);
    writeFileSync(path, bytes);
    const slices = () => server.logs.filter((l) => l.includes('"/uploads/:upload/files/:file"')).length;
    const before = slices();
    const sender = await browser.newPage();
    await sender.goto(server.url + '/');
    await sender.waitForSelector('[data-e2e-create-note]:not([hidden])');
    await sender.click('input[data-kind-choice][value="file"]');
    await (await sender.$('input#files'))!.uploadFile(path);
    await sender.click('#create-submit');
    await sender.waitForSelector('[data-e2e-link-note]', { timeout: 60_000 });
    const link = (await sender.$eval('#secret-link', (e) => e.textContent))!;
    await sender.close();
    rmSync(path);
    // 9 MiB of envelope: two slices of at most 8 MiB each.
    expect(slices() - before).toBe(2);
    const page = await clickDownload(link);
    const name = `firefox-create-${process.pid}.bin`;
    await expect.poll(() => page.$eval('[data-e2e-download="0"]', (b) => (b as HTMLElement).dataset.e2eSaved ?? null), { timeout: 30_000 }).toBe('spooled');
    await expect.poll(() => complete(name, size), { timeout: 30_000 }).toBe(true);
    const got = readFileSync(saved(name));
    expect([got.length, got.equals(bytes)]).toEqual([size, true]);
    await page.close();
  });

  /** The download spool's files (OPFS) of the server's origin, as a new page of it sees them. */
  async function downloadSpool(): Promise<string[]> {
    const page = await browser.newPage();
    try {
      await page.goto(server.url + '/');
      return await page.evaluate(async () => {
        const dir = await (await navigator.storage.getDirectory()).getDirectoryHandle('secret-push-downloads', { create: true });
        const names: string[] = [];
        for await (const name of (dir as unknown as { keys(): AsyncIterable<string> }).keys()) names.push(name);
        return names;
      });
    } finally {
      await page.close();
    }
  }

  it('a file is decrypted into the download spool (OPFS) and saved from there, byte for byte; the spool is emptied when the page goes', async () => {
    const size = 3 * 1_048_576 + 777;
    const bytes = fileBytes(size, secret('firefox-file'));
    const key = newPushKey();
    const link = await endToEndFilePush(server, key, 'firefox-report.pdf', size, await encryptBytes(key, 'file', bytes));
    const page = await clickDownload(link);
    await expect.poll(() => page.$eval('[data-e2e-download="0"]', (b) => (b as HTMLElement).dataset.e2eSaved ?? null), { timeout: 20_000 }).toBe('spooled');
    // Firefox writes to a .part file and renames it when the download is complete.
    await expect.poll(() => complete('firefox-report.pdf', size), { timeout: 20_000 }).toBe(true);
    expect(readFileSync(saved('firefox-report.pdf')).equals(bytes)).toBe(true);
    expect(server.logs.some((l) => l.includes('~e2e-save'))).toBe(false);
    // The decrypted copy stays in the browser's OPFS only while its page is open.
    expect(await downloadSpool()).toHaveLength(1);
    await page.close();
    await expect.poll(downloadSpool, { timeout: 10_000 }).toEqual([]);
  });

  it('a flipped bit fails the download before anything is saved: the page says so, no file and no spool are left', async () => {
    const size = 1_048_576 + 5000;
    const key = newPushKey();
    const envelope = await encryptBytes(key, 'file', fileBytes(size, secret('firefox-damaged')));
    envelope[HEADER_BYTES + 8 * RECORD_BYTES + 100]! ^= 0x01;
    const page = await clickDownload(await endToEndFilePush(server, key, 'firefox-damaged.bin', size, envelope));
    await page.waitForSelector('[data-e2e-problem="download"]:not([hidden])', { timeout: 20_000 });
    // The whole file is authenticated before it is offered: the download never started.
    expect(readdirSync(downloads).filter((n) => n.startsWith('firefox-damaged'))).toEqual([]);
    expect(await downloadSpool()).toEqual([]);
    await page.close();
  });
});
