import { readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { encryptBytes } from '../../shared/e2e/envelope-crypto.js';
import { HEADER_BYTES, RECORD_BYTES } from '../../shared/e2e/envelope-format.js';
import { newPushKey } from '../../shared/e2e/link-key.js';
import { secret } from '../support/http.js';
import { storedContaining } from '../support/stored-data.js';
import { endToEndFilePush, fileBytes } from './support/end-to-end-file-push.js';
import { describeInChromium, serverAndChromium, newVisitor } from './support/pages-chromium.js';

/**
 * End-to-end pushes through the web pages in a real Chromium against a real server: the create
 * page encrypts in the browser, the recipient page checks the link's key before any view is
 * counted and decrypts in the browser; neither the data directory nor the log ever holds the
 * plaintext or the key. Without JavaScript the create page makes an ordinary push. Files are
 * saved through the page's service worker (decrypted as they are written to disk), or, where
 * service workers are unavailable, decrypted whole first.
 */

describeInChromium('end-to-end pushes through the pages (Chromium)', () => {
  const env = serverAndChromium({ FILES_REQUIRE_AUTH: 'false' });

  const tokenOf = (link: string) => new URL(link).pathname.split('/')[2]!;
  const views = async (link: string) => (await env.server.server.pushes.peek(tokenOf(link)))!.views;
  /** Slices of the create page's sliced uploads the server answered (its log names routes, never paths). */
  const pageSlices = () => env.server.logs.filter((l) => l.includes('"/uploads/:upload/files/:file"')).length;

  async function expectNeverOnServer(...needles: string[]) {
    for (const n of needles) {
      expect(await storedContaining(env.server, n), n).toEqual([]);
      expect(env.server.logs.some((l) => l.includes(n)), n).toBe(false);
    }
  }

  /** Fills and submits the create page; returns the link it shows. */
  async function create(page: Page, fill: (page: Page) => Promise<void>): Promise<string> {
    await page.goto(env.server.url + '/');
    await expect.poll(() => page.locator('[data-e2e-create-note]').isVisible()).toBe(true);
    await fill(page);
    await page.click('#create-submit');
    await page.waitForSelector('[data-e2e-link-note]');
    return (await page.locator('#secret-link').textContent())!;
  }

  it('text: encrypted by the create page, decrypted by the recipient page, never readable on the server', async () => {
    const text = secret('page-e2e');
    const sender = await newVisitor(env.browser, env.server.url);
    const link = await create(sender.page, async (p) => {
      await p.fill('#payload', text);
    });
    expect(link).toMatch(/\/p\/[a-z0-9_-]+\/r#[A-Za-z0-9_-]{48}$/);
    expect((await env.server.server.pushes.peek(tokenOf(link)))!.endToEnd).toBe(true);
    expect(sender.problems).toEqual([]);
    await sender.context.close();

    const recipient = await newVisitor(env.browser, env.server.url);
    await recipient.page.goto(link);
    await recipient.page.click('#reveal');
    await expect.poll(() => recipient.page.locator('#secret').textContent()).toBe(text);
    expect(await views(link)).toBe(1);
    expect(recipient.problems).toEqual([]);
    await recipient.context.close();
    await expectNeverOnServer(text, link.split('#')[1]!);
  });

  it('a missing or damaged key is said plainly, and no view is counted', async () => {
    const sender = await newVisitor(env.browser, env.server.url);
    const link = await create(sender.page, (p) => p.fill('#payload', secret('keyless')));
    await sender.context.close();
    const [withoutKey, key] = link.split('#') as [string, string];
    const damaged = `${withoutKey}#${key.slice(0, 20)}${key[20] === 'A' ? 'B' : 'A'}${key.slice(21)}`;
    const direct = withoutKey.replace(/\/r$/, '');

    const { context } = await newVisitor(env.browser, env.server.url);
    for (const [url, problemName] of [
      [withoutKey, 'missing'],
      [damaged, 'damaged'],
      [direct, 'missing'],
      [`${direct}#${key.slice(0, 47)}`, 'damaged'],
    ] as const) {
      // A page each: going to the same address with another fragment would not load it again.
      const page = await context.newPage();
      await page.goto(url);
      await expect.poll(() => page.locator(`[data-e2e-problem="${problemName}"]`).isVisible(), { message: url }).toBe(true);
      expect(await page.locator('#reveal').isVisible()).toBe(false);
    }
    expect(await views(link)).toBe(0);
    // The whole link still works afterwards.
    const page = await context.newPage();
    await page.goto(link);
    await page.click('#reveal');
    await expect.poll(() => page.locator('#e2e-text').isVisible()).toBe(true);
    expect(await views(link)).toBe(1);
    await context.close();
  });

  it('a passphrase is mixed in by the sender’s browser and asked for by the recipient’s before a view is spent (only its check is sent)', async () => {
    const text = secret('with-passphrase');
    const passphrase = `pass ${secret('pp')}`;
    const sender = await newVisitor(env.browser, env.server.url);
    const link = await create(sender.page, async (p) => {
      await p.fill('#payload', text);
      await p.fill('#passphrase', passphrase);
      await p.click('details.more-options summary');
      await p.fill('#max_failed_passphrase_attempts', '3');
    });
    await sender.context.close();
    const rec = await env.server.server.pushes.peek(tokenOf(link));
    expect(rec!.hasPassphrase).toBe(true);

    const { context, page, problems } = await newVisitor(env.browser, env.server.url);
    await page.goto(link.replace('/r#', '#'));
    await page.waitForSelector('#e2e-passphrase:not([hidden])');
    // Asked first, with the field focused: nothing retrieved, no view spent.
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('e2e-passphrase-input');
    expect(await views(link)).toBe(0);
    await page.fill('#e2e-passphrase-input', 'not it');
    await page.click('#e2e-passphrase button[type=submit]');
    await expect.poll(() => page.locator('[data-e2e-problem="passphrase"]').isVisible()).toBe(true);
    expect(await views(link)).toBe(0);
    await page.fill('#e2e-passphrase-input', passphrase);
    await page.click('#e2e-passphrase button[type=submit]');
    await expect.poll(() => page.locator('#secret').textContent()).toBe(text);
    expect(await views(link)).toBe(1);
    // The wrong guess was counted by the server (burn on guessing works end to end).
    expect((await env.server.server.pushes.peek(tokenOf(link)))!.failedPassphraseAttempts).toBe(1);
    // The recipient who gave the passphrase may delete it (the opening's ticket proves it).
    await Promise.all([page.waitForNavigation(), page.click('#delete-now')]);
    expect(page.url()).toMatch(/\/delete$/);
    expect((await env.server.server.pushes.peek(tokenOf(link)))!.expiredAt).not.toBeNull();
    expect(problems).toEqual(['console: Failed to load resource: the server responded with a status of 401 (Unauthorized)']);
    await context.close();
    await expectNeverOnServer(text, passphrase, link.split('#')[1]!);
  });

  it('burn on guessing: wrong passphrases up to the limit destroy an end-to-end push before anyone read it', async () => {
    const text = secret('burned');
    const sender = await newVisitor(env.browser, env.server.url);
    const link = await create(sender.page, async (p) => {
      await p.fill('#payload', text);
      await p.fill('#passphrase', 'the right one');
      await p.click('details.more-options summary');
      await p.fill('#max_failed_passphrase_attempts', '2');
    });
    await sender.context.close();
    const { context, page } = await newVisitor(env.browser, env.server.url);
    await page.goto(link);
    await page.click('#reveal');
    await page.waitForSelector('#e2e-passphrase:not([hidden])');
    for (const guess of ['guess one', 'guess two']) {
      await page.fill('#e2e-passphrase-input', guess);
      await page.click('#e2e-passphrase button[type=submit]');
      await expect.poll(() => page.locator('[data-e2e-problem="passphrase"]').isVisible()).toBe(true);
    }
    await page.fill('#e2e-passphrase-input', 'the right one');
    await page.click('#e2e-passphrase button[type=submit]');
    await expect.poll(() => page.locator('[data-e2e-problem="expired"]').isVisible()).toBe(true);
    expect(await page.locator('#secret').textContent()).toBe('');
    expect((await env.server.server.pushes.peek(tokenOf(link)))!.expiredAt).not.toBeNull();
    await context.close();
    await expectNeverOnServer(text);
  });

  it('a refused create keeps the text, the passphrase and the options typed, and shows why', async () => {
    const text = secret('kept-on-refusal');
    const passphrase = `pass ${secret('kept')}`;
    const { context, page, problems } = await newVisitor(env.browser, env.server.url);
    await page.goto(env.server.url + '/');
    await expect.poll(() => page.locator('[data-e2e-create-note]').isVisible()).toBe(true);
    // An empty secret is refused as it is without scripts (the server knows an empty text's envelope by its length).
    await page.click('#create-submit');
    await page.locator('#payload-error').waitFor({ state: 'visible' });
    expect(await page.locator('#payload-error').textContent()).toBe("Secret can't be blank");

    await page.fill('#payload', text);
    await page.fill('#passphrase', passphrase);
    await page.fill('#expire_after_views', '2');
    await page.click('details summary');
    await page.fill('#name', 'n'.repeat(256));
    await page.click('#create-submit');
    await page.locator('#name-error').waitFor({ state: 'visible' });
    expect(await page.locator('#name-error').textContent()).toMatch(/too long \(maximum is 255 characters\)/);
    expect(await page.locator('#name').getAttribute('aria-invalid')).toBe('true');
    // Everything typed is still there: the server saw only ciphertext and the passphrase never.
    expect(await page.inputValue('#payload')).toBe(text);
    expect(await page.inputValue('#passphrase')).toBe(passphrase);
    expect(await page.inputValue('#expire_after_views')).toBe('2');
    // The form works again: corrected, it makes the push, and its link opens with the passphrase.
    await page.fill('#name', 'short');
    await page.click('#create-submit');
    await page.waitForSelector('[data-e2e-link-note]');
    const link = (await page.locator('#secret-link').textContent())!;
    expect(link).toMatch(/#[A-Za-z0-9_-]{48}$/);
    expect((await env.server.server.pushes.peek(tokenOf(link)))!.expireAfterViews).toBe(2);
    // The link page's copy button works (its script ran over the page put in place).
    await page.click('[data-copy="secret-link"]');
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(link);
    expect(problems).toEqual(Array(2).fill('console: Failed to load resource: the server responded with a status of 422 (Unprocessable Entity)'));
    await context.close();

    const recipient = await newVisitor(env.browser, env.server.url);
    await recipient.page.goto(link.replace('/r#', '#'));
    await recipient.page.waitForSelector('#e2e-passphrase:not([hidden])');
    expect(await views(link)).toBe(0);
    await recipient.page.fill('#e2e-passphrase-input', passphrase);
    await recipient.page.click('#e2e-passphrase button[type=submit]');
    await expect.poll(() => recipient.page.locator('#secret').textContent()).toBe(text);
    await recipient.context.close();
    await expectNeverOnServer(text, passphrase, link.split('#')[1]!);
  });

  const filePush = (key: Uint8Array, name: string, size: number, envelope: Uint8Array) => endToEndFilePush(env.server, key, name, size, envelope);

  /** Opens a file push's link and clicks its download button; the browser's download. */
  async function download(page: Page, link: string) {
    await page.goto(link);
    await page.click('#reveal');
    await page.waitForSelector('[data-e2e-download="0"]');
    const [saved] = await Promise.all([page.waitForEvent('download'), page.click('[data-e2e-download="0"]')]);
    return saved;
  }

  const savedByWorker = (url: string) => new URL(url).pathname.startsWith('/p/~e2e-save/');

  it('files: encrypted in chunks by the create page, streamed to disk through the recipient page’s service worker', async () => {
    const marker = secret('file-body');
    // 3 MiB and a bit: many records, and more than one read of the download.
    const bytes = fileBytes(3 * 1_048_576 + 12_345, marker);
    // A name with a right-to-left override, as a disguised file would have.
    const path = join(tmpdir(), `e2e-report-${process.pid}\u202Efdp.exe`);
    writeFileSync(path, bytes);
    const sender = await newVisitor(env.browser, env.server.url);
    const workers: string[] = [];
    sender.page.on('worker', (w) => workers.push(new URL(w.url()).pathname));
    const slicesBefore = pageSlices();
    const link = await create(sender.page, async (p) => {
      await p.check('input[data-kind-choice][value="file"]');
      await p.setInputFiles('#files', path);
    });
    // The envelope went up as a sliced upload (the form then carried only its id): 3 MiB is one slice.
    expect(pageSlices() - slicesBefore).toBe(1);
    // The envelope was written by the spool worker into the upload spool, and the link page removed it.
    expect(workers).toEqual(['/assets/e2e-spool-worker.js']);
    const spooled = await sender.page.evaluate(async () => {
      const spool = await (await navigator.storage.getDirectory()).getDirectoryHandle('secret-push-uploads');
      const names: string[] = [];
      for await (const name of (spool as unknown as { keys(): AsyncIterable<string> }).keys()) names.push(name);
      return names;
    });
    expect(spooled).toEqual([]);
    await sender.context.close();
    await expectNeverOnServer(marker, `e2e-report-${process.pid}`, link.split('#')[1]!);

    const { context, page, problems } = await newVisitor(env.browser, env.server.url);
    const saved = await download(page, link);
    expect(await page.locator('#e2e-file-list').textContent()).toContain(`e2e-report-${process.pid}[U+202E]fdp.exe`);
    expect(savedByWorker(saved.url()), saved.url()).toBe(true);
    await expect.poll(() => page.getAttribute('[data-e2e-download="0"]', 'data-e2e-saved')).toBe('streamed');
    expect(saved.suggestedFilename()).toBe(`e2e-report-${process.pid}_fdp.exe`);
    expect(await saved.failure()).toBeNull();
    expect(readFileSync((await saved.path())!).equals(bytes)).toBe(true);
    await expect.poll(() => page.locator('[data-e2e-state="downloading"]').isVisible()).toBe(false);
    expect(await page.locator('[data-e2e-problem="download"]').isVisible()).toBe(false);
    // The worker's one-shot address is answered in the browser: the server never saw it.
    expect(env.server.logs.some((l) => l.includes('~e2e-save'))).toBe(false);
    expect(problems).toEqual([]);
    await context.close();
    await expectNeverOnServer(marker, link.split('#')[1]!);
  });

  it('a file under a passphrase: the passphrase goes to the save worker with the key, never to the server', async () => {
    const size = 1_048_576 + 99;
    const bytes = fileBytes(size, secret('passphrase-file'));
    const passphrase = `pass ${secret('file-pp')}`;
    const key = newPushKey();
    const link = await endToEndFilePush(env.server, key, 'guarded.bin', size, await encryptBytes(key, 'file', bytes, { passphrase }), { passphrase });
    const { context, page, problems } = await newVisitor(env.browser, env.server.url);
    await page.goto(link);
    await page.click('#reveal');
    await page.fill('#e2e-passphrase-input', passphrase);
    await page.click('#e2e-passphrase button[type=submit]');
    await page.waitForSelector('[data-e2e-download="0"]');
    const [saved] = await Promise.all([page.waitForEvent('download'), page.click('[data-e2e-download="0"]')]);
    expect(savedByWorker(saved.url())).toBe(true);
    expect(readFileSync((await saved.path())!).equals(bytes)).toBe(true);
    expect(problems).toEqual([]);
    await context.close();
    await expectNeverOnServer(passphrase, link.split('#')[1]!);
  });

  it('the save worker refuses a request that is not a download from this server, and answers each address once', async () => {
    const size = 100_000;
    const key = newPushKey();
    const link = await filePush(key, 'once.bin', size, await encryptBytes(key, 'file', fileBytes(size, secret('once'))));
    const { context, page } = await newVisitor(env.browser, env.server.url);
    await page.goto(link);
    await page.click('#reveal');
    await page.waitForSelector('[data-e2e-download="0"]');
    const answers = await page.evaluate(async () => {
      const worker = (await navigator.serviceWorker.getRegistration('/p/~e2e-save/'))!.active!;
      const ask = (request: object) =>
        new Promise<{ type: string; reason?: string; path?: string }>((resolve) => {
          const channel = new MessageChannel();
          channel.port1.onmessage = (e) => resolve(e.data);
          worker.postMessage({ type: 'save', name: 'x.bin', ...request }, [channel.port2]);
        });
      return [
        await ask({ url: 'https://example.org/p/abc/files/1', key: new Uint8Array(32) }),
        await ask({ url: '/api/v2/pushes/abc', key: new Uint8Array(32) }),
        await ask({ url: 'http://[', key: new Uint8Array(32) }),
        await ask({ url: '/p/abc/files/1', key: new Uint8Array(5) }),
        await ask({ url: '/p/abc/files/1', key: new Uint8Array(32) }),
      ];
    });
    expect(answers.slice(0, 4)).toEqual([
      { type: 'refused', reason: 'the ciphertext address is not a file of a push on this server' },
      { type: 'refused', reason: 'the ciphertext address is not a file of a push on this server' },
      { type: 'refused', reason: 'the ciphertext address is not a file of a push on this server' },
      { type: 'refused', reason: 'the key must be 32 bytes' },
    ]);
    expect(answers[4]).toMatchObject({ type: 'ready', path: expect.stringMatching(/^\/p\/~e2e-save\/[0-9a-f]{32}$/) });
    // Opened twice: the worker answers both (the server never sees them), the second time with "used already".
    const second = await context.newPage();
    const first = await second.goto(env.server.url + answers[4]!.path);
    expect(first!.fromServiceWorker()).toBe(true);
    expect(first!.status()).toBe(502);
    const again = await second.goto(env.server.url + answers[4]!.path);
    expect(again!.fromServiceWorker()).toBe(true);
    expect(again!.status()).toBe(404);
    expect(await second.textContent('body')).toContain('used already');
    expect(env.server.logs.some((l) => l.includes('~e2e-save'))).toBe(false);
    await context.close();
  });

  it('a damaged or cut-off file fails its download (no complete file is saved) and the page says so', async () => {
    const size = 1_048_576 + 5000;
    const { context, page } = await newVisitor(env.browser, env.server.url);
    for (const [what, damage] of [
      // One bit of a record in the middle: the bytes before it have already gone to disk.
      ['a flipped bit', (e: Uint8Array) => (e[HEADER_BYTES + 8 * RECORD_BYTES + 100]! ^= 0x01, e)],
      // Cut at a record boundary: a well-formed length the server cannot refuse, without its final record.
      ['the final record cut off', (e: Uint8Array) => e.subarray(0, HEADER_BYTES + 10 * RECORD_BYTES)],
    ] as const) {
      const key = newPushKey();
      const link = await filePush(key, 'damaged.bin', size, damage(await encryptBytes(key, 'file', fileBytes(size, secret('damaged')))));
      const saved = await download(page, link);
      expect(savedByWorker(saved.url()), what).toBe(true);
      expect(await saved.failure(), what).not.toBeNull();
      expect(await saved.path().catch(() => null), what).toBeNull();
      await expect.poll(() => page.locator('[data-e2e-problem="download"]').isVisible(), { message: what }).toBe(true);
    }
    await context.close();
  });

  it('where service workers are unavailable, the file is decrypted whole and then saved', async () => {
    const size = 2 * 1_048_576 + 7;
    const bytes = fileBytes(size, secret('fallback'));
    const key = newPushKey();
    const link = await filePush(key, 'fallback.bin', size, await encryptBytes(key, 'file', bytes));
    const { context, page, problems } = await newVisitor(env.browser, env.server.url, { serviceWorkers: 'block' });
    const saved = await download(page, link);
    expect(saved.url()).toMatch(/^blob:/);
    await expect.poll(() => page.getAttribute('[data-e2e-download="0"]', 'data-e2e-saved')).toBe('whole');
    expect(saved.suggestedFilename()).toBe('fallback.bin');
    expect(readFileSync((await saved.path())!).equals(bytes)).toBe(true);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('without JavaScript the create page makes an ordinary push', async () => {
    const context = await env.browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(env.server.url + '/');
    await page.fill('#payload', 'no scripts here');
    await page.click('#create-submit');
    const link = (await page.locator('#secret-link').textContent())!;
    expect(link).not.toContain('#');
    expect((await env.server.server.pushes.peek(tokenOf(link)))!.endToEnd).toBeUndefined();
    await context.close();
  });
});

describeInChromium('the create page refused by the server (Chromium)', () => {
  const env = serverAndChromium({ FILES_REQUIRE_AUTH: 'false', MAX_FILE_BYTES: String(1_048_576) });

  it('a file over the limit: the refusal is shown at once, with the form and the chosen file kept, and nothing posted', async () => {
    const path = join(tmpdir(), `e2e-oversize-${process.pid}.bin`);
    writeFileSync(path, fileBytes(3 * 1_048_576, secret('oversize')));
    const { context, page, problems } = await newVisitor(env.browser, env.server.url);
    const posted: string[] = [];
    page.on('request', (r) => r.method() === 'POST' && posted.push(new URL(r.url()).pathname));
    await page.goto(env.server.url + '/');
    await expect.poll(() => page.locator('[data-e2e-create-note]').isVisible()).toBe(true);
    await page.check('input[data-kind-choice][value="file"]');
    await page.setInputFiles('#files', path);
    await page.click('#create-submit');
    const refused = page.locator('[data-e2e-problem="refused"]');
    await refused.waitFor({ state: 'visible' });
    expect(await refused.textContent()).toBe('A file is larger than the limit of 1 MiB (1048576 bytes).');
    // Only the upload's start went out: not the form, not a byte of the file.
    expect(posted).toEqual(['/uploads']);
    expect(await page.locator('input[data-kind-choice][value="file"]').isChecked()).toBe(true);
    expect(await page.$eval('#files', (input) => (input as HTMLInputElement).files?.length)).toBe(1);
    expect(await page.locator('[data-e2e-state="encrypting"]').isVisible()).toBe(false);
    // The encrypted copy written for the upload is gone from the browser's disk.
    const spooled = await page.evaluate(async () => {
      const spool = await (await navigator.storage.getDirectory()).getDirectoryHandle('secret-push-uploads', { create: true });
      const names: string[] = [];
      for await (const name of (spool as unknown as { keys(): AsyncIterable<string> }).keys()) names.push(name);
      return names;
    });
    expect(spooled).toEqual([]);
    // The form is usable again: a text push goes through.
    await page.check('input[data-kind-choice][value="text"]');
    await page.fill('#payload', 'after a refusal');
    await page.click('#create-submit');
    await page.waitForSelector('[data-e2e-link-note]');
    // The browser's own note of the refused request, and nothing else (no script error).
    expect(problems).toEqual(['console: Failed to load resource: the server responded with a status of 413 (Payload Too Large)']);
    await context.close();
  });
});
