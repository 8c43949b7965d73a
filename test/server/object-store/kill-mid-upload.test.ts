import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startObjectStore, type TestObjectStore } from '../../support/object-store.js';
import { storedBlobs } from '../../support/stored-data.js';
import { startServer } from '../../support/server.js';
import { spawnServer } from '../../support/spawn-server.js';

let s3: TestObjectStore;
beforeAll(async () => {
  s3 = await startObjectStore();
});
afterAll(async () => {
  await s3?.remove();
});

const MiB = 1_048_576;

describe('an instance killed mid-upload (FILE_STORAGE=s3)', () => {
  it('leaves no push and no object that looks whole: only an unfinished multipart upload', async () => {
    const { env } = await s3.bucket();
    const dataDir = mkdtempSync(join(tmpdir(), 'secret-push-kill-s3-'));
    try {
      const spawned = await spawnServer({ ...env, DATA_DIR: dataDir, FILES_REQUIRE_AUTH: 'false', MAX_FILE_BYTES: String(64 * MiB), ANONYMOUS_STORAGE_MB_PER_IP_PER_DAY: '0', LOG_LEVEL: 'error' });
      const boundary = 'killedmidupload';
      const req = request(`${spawned.url}/api/v2/pushes`, { method: 'POST', headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': String(64 * MiB) } });
      req.on('error', () => {}); // the server is killed under it
      req.write(`--${boundary}\r\nContent-Disposition: form-data; name="push[files][]"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`);
      // 24 MiB sent and taken (drained): at least one 8 MiB part has been uploaded by then.
      const block = Buffer.alloc(MiB, 7);
      for (let sent = 0; sent < 24 * MiB; sent += MiB) {
        if (!req.write(block)) await new Promise((r) => req.once('drain', r));
      }
      spawned.child.kill('SIGKILL');
      await spawned.exited;
      req.destroy();

      const server = await startServer({ ...env, DATA_DIR: dataDir });
      try {
        expect((await server.server.store.countPushes()).total).toBe(0);
        expect(await storedBlobs(server)).toEqual([]);
      } finally {
        await server.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
