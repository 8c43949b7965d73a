import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startObjectStore, type TestObjectStore } from '../../support/object-store.js';
import { storedBlobs } from '../../support/stored-data.js';
import { startServer } from '../../support/server.js';
import { spawnBuiltServer } from '../../support/spawn-server.js';

let s3: TestObjectStore;
beforeAll(async () => {
  s3 = await startObjectStore();
});
afterAll(async () => {
  await s3?.remove();
});

const MiB = 1_048_576;

describe('multipart uploads recorded in the store (FILE_STORAGE=s3)', () => {
  it('records a multipart upload while it runs and forgets it once completed', async () => {
    const { env } = await s3.bucket();
    const server = await startServer({ ...env, FILES_REQUIRE_AUTH: 'false', MAX_FILE_BYTES: String(64 * MiB) });
    try {
      const store = server.server.store;
      // Seen from inside the upload: when the completed upload is about to be forgotten, its
      // record is there (it was made before the first part went out).
      const listing = new Date(Date.now() + 60_000);
      const forget = store.forgetMultipartUpload.bind(store);
      const recordedAtForget: string[][] = [];
      const spy = vi.spyOn(store, 'forgetMultipartUpload').mockImplementation(async (uploadId) => {
        recordedAtForget.push((await store.listMultipartUploads(listing, 10)).map((u) => u.uploadId).filter((id) => id === uploadId));
        return forget(uploadId);
      });
      const form = new FormData();
      form.append('push[files][]', new Blob([Buffer.alloc(9 * MiB, 3)]), 'nine.bin');
      const created = await fetch(`${server.url}/api/v2/pushes`, { method: 'POST', body: form }).finally(() => spy.mockRestore());
      expect(created.status).toBe(201);
      expect(recordedAtForget).toEqual([[expect.any(String)]]);
      expect(await store.listMultipartUploads(listing, 10)).toEqual([]);
    } finally {
      await server.stop();
    }
  });
});

describe('an instance killed mid-upload (FILE_STORAGE=s3)', () => {
  it('leaves no push and no object that looks whole: only an unfinished multipart upload', async () => {
    const { env } = await s3.bucket();
    const dataDir = mkdtempSync(join(tmpdir(), 'secret-push-kill-s3-'));
    try {
      const spawned = await spawnBuiltServer({ ...env, DATA_DIR: dataDir, FILES_REQUIRE_AUTH: 'false', MAX_FILE_BYTES: String(64 * MiB), ANONYMOUS_STORAGE_MB_PER_IP_PER_DAY: '0', LOG_LEVEL: 'error' });
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
        // The killed instance recorded its multipart upload in the store before sending a part:
        // the sweep finds it there without listing the bucket's uploads (s3rver cannot).
        const later = new Date(Date.now() + 1000);
        const [recorded, ...more] = await server.server.store.listMultipartUploads(later, 10);
        expect(more).toEqual([]);
        expect(recorded).toMatchObject({ uploadId: expect.any(String), key: expect.stringMatching(/\.bin$/) });
        // s3rver cannot abort it (405 MethodNotAllowed): the record is kept for a store that
        // can, the sweep goes on, and the operator is told once to add the lifecycle rule.
        await server.server.store.blobs.removeOrphans(later, 100);
        await server.server.store.blobs.removeOrphans(later, 100);
        expect(await server.server.store.listMultipartUploads(later, 10)).toEqual([recorded]);
        expect(server.logs.filter((line) => line.includes('AbortIncompleteMultipartUpload'))).toHaveLength(1);
      } finally {
        await server.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
