// Where Firefox spends memory when the extension uploads a large file (a probe behind the figures
// in docs/end-to-end-encryption.md, not a test). In an extension page of the built Firefox
// extension: the spool worker encrypts a file chosen from disk into OPFS (the file host's first
// step), then the same bytes are uploaded to a real server in several ways — the OPFS file and
// the user's own disk file, in a multipart form, by fetch and by XMLHttpRequest — each with the
// browser's PSS (all its processes) before, at the peak and after.
// Run: npm run build:ext && npx tsx scripts/measure/firefox-extension-upload.ts [MiB, default 512] [extension dir, default .output/firefox-mv2]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Page } from 'puppeteer-core';
import { click, pageText } from '../../test/e2e/support/extension-harness.js';
import { firefoxHarness } from '../../test/e2e/support/firefox.js';
import { browserMemory } from './browser-memory.js';
import { startMeasuredServer } from './measured-server.js';
import { makeFile } from './test-file.js';

const MiB = 1024 ** 2;
const size = Number(process.argv[2] ?? 512) * MiB;
const work = mkdtempSync(join(tmpdir(), 'secret-push-firefox-upload-'));
const path = join(work, 'original.bin');
await makeFile(path, size);
const server = await startMeasuredServer(size);
const ext = await firefoxHarness(resolve(process.argv[3] ?? '.output/firefox-mv2'), join(work, 'profile'));
const pss = () => `${(browserMemory([server.pid]).pss / MiB).toFixed(0)} MiB`;
const pause = () => new Promise((r) => setTimeout(r, 2000));
type Ext = { [api: string]: any };
try {
  await ext.inExtension(async (url: string) => (globalThis as Ext).browser.storage.sync.set({ serverUrl: url }), server.url);
  const page = (await ext.openPopup('')) as unknown as Page;
  // tsx's keepNames wraps the harness's named functions in __name(), which the page lacks.
  await page.evaluate('globalThis.__name = (f) => f');
  while (!/Allow access to/.test(await pageText(page as never))) await new Promise((r) => setTimeout(r, 100));
  await click(page as never, { button: 'Allow access to .*' });
  while (!(await ext.inExtension(() => (globalThis as Ext).browser.permissions.contains({ origins: ['http://127.0.0.1/*'] }), null))) await new Promise((r) => setTimeout(r, 100));
  await page.evaluate(() => {
    const input = document.createElement('input');
    input.type = 'file';
    input.id = 'probe';
    document.body.prepend(input);
  });
  await ((await page.$('#probe')) as unknown as { uploadFile(path: string): Promise<void> }).uploadFile(path);
  console.log(`Firefox, a ${size / MiB} MiB file; PSS before: ${pss()}`);
  const spooledAt = Date.now();
  const bytes = await page.evaluate(async () => {
    const file = (document.getElementById('probe') as HTMLInputElement).files![0];
    const worker = new Worker('/spool-worker.js');
    const key = crypto.getRandomValues(new Uint8Array(32));
    const answer = await new Promise<{ bytes: number }>((r) => {
      worker.onmessage = (e) => r(e.data);
      worker.postMessage({ key, file, options: {}, name: 'probe.bin' });
    });
    worker.terminate();
    return answer.bytes;
  });
  console.log(`spool worker: ${bytes} bytes into OPFS in ${Date.now() - spooledAt} ms; PSS now ${pss()}`);
  for (const way of ['fetch, OPFS file', 'fetch, disk file', 'XMLHttpRequest, OPFS file', 'XMLHttpRequest, disk file']) {
    await pause();
    const before = pss();
    let peak = 0;
    const timer = setInterval(() => (peak = Math.max(peak, browserMemory([server.pid]).pss)), 200);
    const startedAt = Date.now();
    const status = await page.evaluate(
      async ({ url, way }: { url: string; way: string }) => {
        const file: Blob = way.endsWith('OPFS file')
          ? await (await (await (await navigator.storage.getDirectory()).getDirectoryHandle('secret-push-uploads')).getFileHandle('probe.bin')).getFile()
          : (document.getElementById('probe') as HTMLInputElement).files![0];
        const form = new FormData();
        form.append('push[payload]', 'probe');
        form.append('push[files][]', file, 'file-1.bin');
        if (way.startsWith('fetch')) return (await fetch(`${url}/api/v2/pushes`, { method: 'POST', body: form })).status;
        return new Promise<number | string>((r) => {
          const xhr = new XMLHttpRequest();
          xhr.open('POST', `${url}/api/v2/pushes`);
          xhr.onload = () => r(xhr.status);
          xhr.onerror = () => r('network error');
          xhr.send(form);
        });
      },
      { url: server.url, way },
    );
    clearInterval(timer);
    console.log(`${way.padEnd(26)} HTTP ${status} in ${Date.now() - startedAt} ms; PSS ${before} → peak ${(peak / MiB).toFixed(0)} MiB → ${pss()}`);
  }
  // Whether what the uploads kept belongs to the page (released with it) or to the browser.
  await page.close();
  await pause();
  console.log(`after closing the page: PSS ${pss()}`);
} finally {
  await ext.close();
  await server.stop();
  rmSync(work, { recursive: true, force: true });
}
