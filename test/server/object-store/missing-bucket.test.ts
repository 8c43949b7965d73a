import { CreateBucketCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../../support/http.js';
import { startObjectStore, type TestObjectStore } from '../../support/object-store.js';
import { startServer } from '../../support/server.js';

/**
 * S3_BUCKET naming a bucket that does not exist (a typo, or not created yet: the server never
 * creates it). The object store answers 404 NoSuchBucket: a file create must be a 503 naming the
 * cause, as for a store that is down, never a 500; text pushes keep working.
 */
let s3: TestObjectStore;
beforeAll(async () => {
  s3 = await startObjectStore();
});
afterAll(async () => {
  await s3?.remove();
});

describe('S3_BUCKET names a bucket that does not exist', () => {
  it('file creates answer 503 with Retry-After and the log names NoSuchBucket; text pushes 201', async () => {
    const { env, client } = await s3.bucket();
    const server = await startServer({ ...env, S3_BUCKET: 'no-such-bucket-here', FILES_REQUIRE_AUTH: 'false' });
    try {
      for (const size of [1_000, 9 * 1_048_576]) {
        const form = new FormData();
        form.append('push[files][]', new Blob([Buffer.alloc(size, 1)]), 'notes.bin');
        const created = await api.post(server, '/api/v2/pushes', { raw: form });
        expect(created.status, `${size} bytes`).toBe(503);
        expect(created.headers.get('retry-after')).toBeTruthy();
      }
      expect(server.logs.some((line) => line.includes('NoSuchBucket'))).toBe(true);
      expect((await api.post(server, '/api/v2/pushes', { json: { push: { payload: 'text still works' } } })).status).toBe(201);
      // The operator creates the bucket: files work at once, nothing to restart.
      await client.send(new CreateBucketCommand({ Bucket: 'no-such-bucket-here' }));
      const form = new FormData();
      form.append('push[files][]', new Blob(['now stored']), 'notes.txt');
      const created = await api.post(server, '/api/v2/pushes', { raw: form });
      expect(created.status).toBe(201);
      const shown = await api.get(server, `/api/v2/pushes/${created.body.url_token}`);
      expect(await (await fetch((shown.body.files as { url: string }[])[0]!.url)).text()).toBe('now stored');
    } finally {
      await server.close();
    }
  });
});
