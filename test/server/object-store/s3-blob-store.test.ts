import { ListObjectsV2Command, PutObjectCommand } from '@aws-sdk/client-s3';
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { S3BlobStore } from '../../../server/storage/object-store/s3-blob-store.js';
import { StorageUnavailableError } from '../../../server/storage/store.js';
import { startObjectStore, type TestObjectStore } from '../../support/object-store.js';

async function bytesOf(stream: Readable): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const c of stream) parts.push(c as Buffer);
  return Buffer.concat(parts);
}

describe('S3 blob store against a real S3-protocol server (s3rver)', () => {
  let s3: TestObjectStore;
  beforeAll(async () => {
    s3 = await startObjectStore();
  });
  afterAll(async () => {
    await s3?.remove();
  });

  async function blobStore(referenced: Record<string, string[]> = {}) {
    const { bucket, client } = await s3.bucket();
    const store = new S3BlobStore({ endpoint: s3.endpoint, region: 'us-east-1', bucket, prefix: 'files/', forcePathStyle: true }, async (t) => referenced[t]);
    return { store, client, bucket };
  }

  it('streams a multipart object in and reads it whole and in ranges', async () => {
    const { store } = await blobStore();
    // 20 MiB + a bit: three parts of 8 MiB.
    const data = randomBytes(20 * 1_048_576 + 12345);
    const pieces = Array.from({ length: Math.ceil(data.length / 65536) }, (_, i) => data.subarray(i * 65536, (i + 1) * 65536));
    expect(await store.write('push1', 'f1', Readable.from(pieces))).toBe(data.length);
    expect(await store.size('push1', 'f1')).toBe(data.length);
    expect((await bytesOf(await store.read('push1', 'f1', 0, data.length))).equals(data)).toBe(true);
    expect((await bytesOf(await store.read('push1', 'f1', 8_388_600, 8_388_700))).equals(data.subarray(8_388_600, 8_388_700))).toBe(true);
    expect(await store.size('push1', 'nope')).toBeUndefined();
    await expect(store.read('push1', 'nope', 0, 10)).rejects.toMatchObject({ code: 'ENOENT' });
    await store.removeAll('push1');
    expect(await store.size('push1', 'f1')).toBeUndefined();
  });

  // (s3rver does not list multipart uploads, so that the failed upload's was aborted is not checked here.)
  it('a source that fails leaves no object, and its error is the one reported', async () => {
    const { store } = await blobStore();
    const boom = new Error('upload cut short');
    async function* failing() {
      yield randomBytes(9 * 1_048_576);
      throw boom;
    }
    await expect(store.write('push2', 'f1', Readable.from(failing()))).rejects.toBe(boom);
    expect(await store.size('push2', 'f1')).toBeUndefined();
  });

  it('the sweep removes orphans and unreferenced files of a stored push, never a referenced file nor what is not ours', async () => {
    const referenced = { kept: ['a'] } as Record<string, string[]>;
    const { store, client, bucket } = await blobStore(referenced);
    const put = (token: string, file: string) => store.write(token, file, Readable.from([Buffer.from(`${token}/${file}`)]));
    await put('kept', 'a');
    await put('kept', 'purged'); // a file whose delete failed: the push no longer references it
    await put('gone', 'x'); // a push that was never created
    await client.send(new PutObjectCommand({ Bucket: bucket, Key: 'elsewhere.txt', Body: 'not ours' }));

    // Started before a moment already past: the orphan push is too young, the rest is not.
    const removedEarly = await store.removeOrphans(new Date(Date.now() - 3_600_000), 100);
    expect(removedEarly).toBe(1);
    expect(await store.size('kept', 'a')).toBeDefined();
    expect(await store.size('kept', 'purged')).toBeUndefined();
    expect(await store.size('gone', 'x')).toBeDefined();

    const removed = await store.removeOrphans(new Date(Date.now() + 60_000), 100);
    expect(removed).toBe(1);
    expect(await store.size('gone', 'x')).toBeUndefined();
    expect(await store.size('kept', 'a')).toBeDefined();
    expect((await client.send(new ListObjectsV2Command({ Bucket: bucket }))).Contents?.map((o) => o.Key).sort()).toEqual(['elsewhere.txt', 'files/kept/a.bin']);
  });

  it('object store down: StorageUnavailableError on every call; back up: works again by itself', async () => {
    const { store } = await blobStore();
    await store.write('p', 'f', Readable.from([Buffer.from('before')]));
    await s3.stop();
    try {
      await expect(store.size('p', 'f')).rejects.toBeInstanceOf(StorageUnavailableError);
      await expect(store.read('p', 'f', 0, 3)).rejects.toBeInstanceOf(StorageUnavailableError);
      await expect(store.write('p', 'g', Readable.from([Buffer.from('x')]))).rejects.toBeInstanceOf(StorageUnavailableError);
      await expect(store.removeAll('p')).rejects.toBeInstanceOf(StorageUnavailableError);
    } finally {
      await s3.restart();
    }
    expect((await bytesOf(await store.read('p', 'f', 0, 6))).toString()).toBe('before');
  });
});
