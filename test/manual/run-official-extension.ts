import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createHttpsServer } from 'node:https';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import jsQR from 'jsqr';
import { chromium } from 'playwright-core';
import { chromiumPath } from '../e2e/support/pages-chromium.js';
import { api } from '../support/http.js';
import { createUserWithToken, startServer } from '../support/server.js';

/**
 * Runs the real, unmodified official Password Pusher extension (apnotic/pwpush-chrome-extension)
 * in Chromium against a Secret Push server, by hand (CI cannot fetch the extension):
 *
 *   node --import tsx test/manual/run-official-extension.ts /path/to/pwpush-chrome-extension
 *
 * The extension only talks to https:// servers and asks for host access through a browser prompt
 * that automation cannot accept, except for its preset hosts, which it is granted at install. So
 * Chromium resolves its "OSS" preset, oss.pwpush.com, to a local TLS front (a throwaway self-signed
 * certificate, accepted with --ignore-certificate-errors) that forwards to the server, started
 * with BASE_URL=https://oss.pwpush.com. Then, as a user would: Settings → "Hosted" → "OSS" → API
 * token → Save; popup → "Push Current URL" (the active tab is stood in for: the popup is opened as
 * a tab here) → "Show QR". It prints what the extension showed and checks it against the server.
 */
const extensionDir = process.argv[2];
if (!extensionDir) {
  console.error('usage: run-official-extension.ts <unpacked extension directory>');
  process.exit(2);
}
const HOST = 'oss.pwpush.com';
const PAGE_URL = 'https://example.com/some/page?x=1';

const work = mkdtempSync(join(tmpdir(), 'official-extension-'));
execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', `/CN=${HOST}`, '-addext', `subjectAltName=DNS:${HOST}`, '-keyout', join(work, 'key.pem'), '-out', join(work, 'cert.pem')], { stdio: 'ignore' });

const server = await startServer({ BASE_URL: `https://${HOST}`, LOG_LEVEL: 'info' });
const { token } = await createUserWithToken(server, 'extension-run@example.com');
const upstream = new URL(server.url);
const tlsFront = createHttpsServer({ key: readFileSync(join(work, 'key.pem')), cert: readFileSync(join(work, 'cert.pem')) }, (req, res) => {
  console.log(`  extension → ${req.method} ${req.url} (Accept: ${req.headers.accept}; Authorization: ${req.headers.authorization ? 'Bearer …' : 'none'})`);
  const forward = request({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
    res.writeHead(answer.statusCode ?? 502, answer.headers);
    answer.pipe(res);
  });
  req.pipe(forward);
});
await new Promise<void>((resolve) => tlsFront.listen(0, '127.0.0.1', resolve));
const tlsPort = (tlsFront.address() as { port: number }).port;

const context = await chromium.launchPersistentContext(join(work, 'profile'), {
  executablePath: chromiumPath,
  headless: true,
  ignoreDefaultArgs: ['--disable-extensions'],
  args: [
    '--no-sandbox',
    '--disable-gpu',
    `--disable-extensions-except=${extensionDir}`,
    `--load-extension=${extensionDir}`,
    `--host-resolver-rules=MAP ${HOST}:443 127.0.0.1:${tlsPort}`,
    '--ignore-certificate-errors',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
  ],
});
let failed = false;
const check = (what: string, ok: boolean, detail: unknown) => {
  console.log(`${ok ? 'OK  ' : 'FAIL'} ${what}: ${typeof detail === 'string' ? detail : JSON.stringify(detail)}`);
  if (!ok) failed = true;
};
try {
  const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
  const id = new URL(worker.url()).host;

  const options = await context.newPage();
  await options.goto(`chrome-extension://${id}/src/options/options.html`);
  await options.click('#hostedTabButton');
  await options.check('input[name="serverChoice"][value="oss"]');
  await options.fill('#apiToken', token);
  await options.click('#saveButton');
  await options.waitForFunction(() => document.querySelector('#statusMessage')?.classList.contains('success') || document.querySelector('#statusMessage')?.classList.contains('error'));
  // No helper functions inside evaluate: tsx would name them with a helper the page lacks.
  const settings = await options.evaluate((ids) => Object.fromEntries(ids.map((id) => [id, document.getElementById(id)?.textContent?.trim()])), [
    'statusMessage',
    'editionValue',
    'applicationVersion',
    'apiVersion',
    'featureAccounts',
    'featureRequests',
  ]);
  check('settings saved', (await options.evaluate(() => document.querySelector('#statusMessage')!.classList.contains('success'))), settings);

  const popup = await context.newPage();
  await popup.goto(`chrome-extension://${id}/src/popup/popup.html`);
  // Opened as a tab, the popup would be its own "current tab": stand in a web page for it.
  await popup.evaluate((url) => {
    (globalThis as unknown as { chrome: { tabs: { query: unknown } } }).chrome.tabs.query = async () => [{ id: 1, url }];
  }, PAGE_URL);
  await popup.click('#pushUrlButton');
  await popup.waitForSelector('#resultSection:not(.hidden)');
  const link = (await popup.textContent('#resultLink'))?.trim() ?? '';
  check('push created; share link shown', /^https:\/\/oss\.pwpush\.com\/p\/[a-z0-9_-]+$/.test(link), { link, meta: await popup.textContent('#resultMeta'), status: await popup.textContent('#statusMessage') });

  await popup.click('#showQrButton');
  await popup.waitForFunction(() => document.querySelector('#qrContainer img') || document.querySelector('#statusMessage')?.classList.contains('error'));
  const qrStatus = await popup.textContent('#statusMessage');
  const pixels = await popup.evaluate(async () => {
    const img = document.querySelector<HTMLImageElement>('#qrContainer img');
    if (!img) return null;
    await img.decode();
    const canvas = document.createElement('canvas');
    canvas.width = img.naturalWidth;
    canvas.height = img.naturalHeight;
    const ctx = canvas.getContext('2d')!;
    ctx.drawImage(img, 0, 0);
    const data = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
    let binary = '';
    for (let i = 0; i < data.length; i += 0x8000) binary += String.fromCharCode(...data.subarray(i, i + 0x8000));
    return { width: canvas.width, height: canvas.height, data: btoa(binary) };
  });
  const decoded = pixels ? jsQR(new Uint8ClampedArray(Buffer.from(pixels.data, 'base64')), pixels.width, pixels.height)?.data : undefined;
  check('"Show QR" drew the QR code; it reads as the share link', decoded === link, { status: qrStatus, decoded });

  const urlToken = link.split('/').pop()!;
  const stored = await api.get(server, `/api/v2/pushes/${urlToken}`, { token });
  check('the server holds the page URL as the payload (owner view, not counted)', stored.body.payload === PAGE_URL, { payload: stored.body.payload, views_remaining: stored.body.views_remaining });
} finally {
  await context.close();
  tlsFront.close();
  await server.stop();
  rmSync(work, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
