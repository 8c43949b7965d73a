import { DeleteObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { objectsWithoutPush } from '../../support/bucket-audit.js';
import { api } from '../../support/http.js';
import { startObjectStore, type TestObjectStore } from '../../support/object-store.js';
import { storedBlobs } from '../../support/stored-data.js';
import { createUserWithToken, startServer, type TestServer } from '../../support/server.js';

// The harness lists a server's bucket when it stops (and after each server-s3 file): this is
// the check itself, shown to find what it is for.
let s3: TestObjectStore;
let server: TestServer;
let bucket: Awaited<ReturnType<TestObjectStore['bucket']>>;

beforeAll(async () => {
  s3 = await startObjectStore();
  bucket = await s3.bucket();
  server = await startServer({ ...bucket.env, S3_PREFIX: 'files/' });
});
afterAll(async () => {
  await server?.stop();
  await s3?.remove();
});

describe('the bucket audit of the test harness', () => {
  it('passes with the files of pushes, and names an object of no push, a file its push does not list and a key outside the prefix', async () => {
    const { token } = await createUserWithToken(server, 'audit@example.com');
    const fd = new FormData();
    fd.append('push[payload]', 'see attached');
    fd.append('push[files][]', new Blob(['kept']), 'kept.txt');
    const created = await api.post(server, '/api/v2/pushes', { token, raw: fd });
    expect(created.status).toBe(201);
    const [stored] = await storedBlobs(server, created.body.url_token);
    expect(await objectsWithoutPush(server.server.store)).toEqual([]);

    const pushToken = stored!.split('/')[0]!;
    const strays = [`files/${pushToken}/extra.bin`, 'files/no-such-push/f.bin', 'elsewhere.txt'];
    for (const Key of strays) await bucket.client.send(new PutObjectCommand({ Bucket: bucket.bucket, Key, Body: 'x' }));
    const found = await objectsWithoutPush(server.server.store);
    expect(found).toHaveLength(3);
    for (const key of strays) expect(found.some((s) => s.startsWith(key))).toBe(true);

    for (const Key of strays) await bucket.client.send(new DeleteObjectCommand({ Bucket: bucket.bucket, Key }));
    expect(await objectsWithoutPush(server.server.store)).toEqual([]);
  });
});
