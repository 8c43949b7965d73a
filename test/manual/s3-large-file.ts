/**
 * A large file through object storage with the server's memory watched (issue 33): too slow for
 * the suite. Starts s3rver and the server (FILE_STORAGE=s3) in child processes, streams a
 * generated file of SIZE_GIB (default 8) up as a multipart create and down again, sampling the
 * server's resident memory (VmRSS) every 250 ms, and prints the figures.
 *
 *   node --import tsx test/manual/s3-large-file.ts [SIZE_GIB]
 */
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startObjectStore } from '../support/object-store.js';
import { spawnServer } from '../support/spawn-server.js';

const GiB = 1024 ** 3;
const size = Math.round(Number(process.argv[2] ?? 8) * GiB);
const block = randomBytes(1_048_576);

function rssMiB(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

const s3 = await startObjectStore();
const { env } = await s3.bucket();
const dataDir = mkdtempSync(join(tmpdir(), 'secret-push-large-'));
const server = await spawnServer(
  {
    ...env,
    DATA_DIR: dataDir,
    MAX_FILE_BYTES: String(8 * GiB),
    FILES_REQUIRE_AUTH: 'false',
    ANONYMOUS_STORAGE_MB_PER_IP_PER_DAY: '0',
    MAX_STORAGE_MB: String(16 * 1024 * 1024),
    REQUEST_TIMEOUT_SECONDS: '86400',
    RATE_LIMIT_PER_MINUTE: '0',
    LOG_LEVEL: 'error',
  },
  60_000,
);
const pid = server.child.pid!;
const samples: { phase: string; mib: number }[] = [];
let phase = 'idle';
const sampler = setInterval(() => samples.push({ phase, mib: rssMiB(pid) }), 250);
samples.push({ phase, mib: rssMiB(pid) });

try {
  // Upload: a multipart create whose file part is generated as it is sent.
  phase = 'upload';
  const boundary = `----large${randomBytes(8).toString('hex')}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="push[payload]"\r\n\r\nlarge file\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="push[files][]"; filename="large.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const sent = createHash('sha256');
  const upStart = performance.now();
  const created = await new Promise<{ url_token: string }>((resolve, reject) => {
    const req = request(`${server.url}/api/v2/pushes`, { method: 'POST', headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': String(head.length + size + tail.length) } }, (res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => (res.statusCode === 201 ? resolve(JSON.parse(body)) : reject(new Error(`create: ${res.statusCode} ${body}`))));
    });
    req.on('error', reject);
    let left = size;
    const pump = () => {
      while (left > 0) {
        const chunk = left >= block.length ? block : block.subarray(0, left);
        left -= chunk.length;
        sent.update(chunk);
        if (!req.write(chunk)) return void req.once('drain', pump);
      }
      req.end(tail);
    };
    req.write(head);
    pump();
  });
  const upSeconds = (performance.now() - upStart) / 1000;

  phase = 'download';
  const shown = (await (await fetch(`${server.url}/api/v2/pushes/${created.url_token}`)).json()) as { files: { url: string }[] };
  const downStart = performance.now();
  const res = await fetch(shown.files[0]!.url);
  const got = createHash('sha256');
  let received = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    got.update(chunk);
    received += chunk.length;
  }
  const downSeconds = (performance.now() - downStart) / 1000;
  phase = 'done';

  const of = (p: string) => samples.filter((s) => s.phase === p).map((s) => s.mib);
  const range = (xs: number[]) => `${Math.min(...xs).toFixed(0)}–${Math.max(...xs).toFixed(0)} MiB (${xs.length} samples)`;
  console.log(`file: ${(size / GiB).toFixed(2)} GiB; hashes ${sent.digest('hex') === got.digest('hex') && received === size ? 'match' : 'DIFFER'}`);
  console.log(`upload: ${upSeconds.toFixed(1)} s (${(size / 1_048_576 / upSeconds).toFixed(0)} MiB/s); server RSS ${range(of('upload'))}`);
  console.log(`download: ${downSeconds.toFixed(1)} s (${(size / 1_048_576 / downSeconds).toFixed(0)} MiB/s; includes the whole-file tag check before the first byte); server RSS ${range(of('download'))}`);
  console.log(`server RSS idle before: ${range(of('idle'))}`);
} finally {
  clearInterval(sampler);
  server.child.kill('SIGTERM');
  await server.exited;
  await s3.remove();
  rmSync(dataDir, { recursive: true, force: true });
}
