import { CreateBucketCommand, CreateMultipartUploadCommand, S3Client, UploadPartCommand } from '@aws-sdk/client-s3';
import { randomBytes } from 'node:crypto';
import { startFauxqs } from 'fauxqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { S3BlobStore } from '../../../server/storage/object-store/s3-blob-store.js';
import { startServer, type TestServer } from '../../support/server.js';
import { CREDENTIALS } from '../../support/object-store.js';

/**
 * The sweep's abort of a stale multipart upload, seen succeeding against a real S3-protocol
 * server. s3rver (the suite's object store) answers AbortMultipartUpload with 405
 * MethodNotAllowed, so this file runs against fauxqs 1.9.2 (npm registry; pure JavaScript on
 * Node 20, in this process on loopback, in memory), which implements CreateMultipartUpload,
 * UploadPart, CompleteMultipartUpload and AbortMultipartUpload but not ListMultipartUploads:
 * that an upload is gone is seen by the server refusing a part for it (404 NoSuchUpload), which
 * it accepted before the sweep.
 */
type Fauxqs = Awaited<ReturnType<typeof startFauxqs>>;
let fauxqs: Fauxqs;
// s3rver's: the first S3 file of a worker sets process.env for all its later files (the clean-
// clone CI of b92dbda: missing-bucket after this file met 'test'/'test' and s3rver refused them).
const credentials = CREDENTIALS;
const MiB = 1_048_576;

beforeAll(async () => {
  fauxqs = await startFauxqs({ port: 0, host: '127.0.0.1', logger: false });
  process.env.AWS_ACCESS_KEY_ID ??= credentials.accessKeyId;
  process.env.AWS_SECRET_ACCESS_KEY ??= credentials.secretAccessKey;
});
afterAll(async () => {
  await fauxqs?.stop();
});

async function serverOnFauxqs(): Promise<{ server: TestServer; blobs: S3BlobStore; bucket: string; client: S3Client }> {
  const bucket = `b-${randomBytes(6).toString('hex')}`;
  const client = new S3Client({ endpoint: fauxqs.address, region: 'us-east-1', forcePathStyle: true, credentials });
  await client.send(new CreateBucketCommand({ Bucket: bucket }));
  const server = await startServer({ FILE_STORAGE: 's3', S3_ENDPOINT: fauxqs.address, S3_BUCKET: bucket, S3_FORCE_PATH_STYLE: 'true', FILES_REQUIRE_AUTH: 'false', MAX_FILE_BYTES: String(64 * MiB) });
  const blobs = server.server.store.blobs;
  if (!(blobs instanceof S3BlobStore)) throw new Error('the server does not keep its files in object storage');
  return { server, blobs, bucket, client };
}

const sendPart = (client: S3Client, bucket: string, key: string, uploadId: string) =>
  client.send(new UploadPartCommand({ Bucket: bucket, Key: key, UploadId: uploadId, PartNumber: 2, Body: Buffer.alloc(5 * MiB, 2) })).then(
    () => 'accepted',
    (e: { name?: string }) => e.name,
  );

describe('stale multipart uploads aborted by the sweep (fauxqs)', () => {
  it('a file sent in parts is stored, downloads whole, and its record is forgotten', async () => {
    const { server } = await serverOnFauxqs();
    try {
      const content = randomBytes(9 * MiB);
      const form = new FormData();
      form.append('push[files][]', new Blob([content]), 'nine.bin');
      const created = await fetch(`${server.url}/api/v2/pushes`, { method: 'POST', body: form });
      expect(created.status).toBe(201);
      const { url_token: token } = (await created.json()) as { url_token: string };
      const shown = (await (await fetch(`${server.url}/api/v2/pushes/${token}`)).json()) as { files: { url: string }[] };
      expect(Buffer.from(await (await fetch(shown.files[0]!.url)).arrayBuffer()).equals(content)).toBe(true);
      expect(await server.server.store.listMultipartUploads(new Date(Date.now() + 60_000), 10)).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it("aborts a recorded upload no instance finished (a killed one's): the object store refuses its parts afterwards", async () => {
    const { server, blobs, bucket, client } = await serverOnFauxqs();
    try {
      // As lib-storage begins a file's upload: through the server's own client, so the ledger
      // records it before a part is sent; then a part, and the instance "dies" (nothing more).
      const key = blobs.key(randomBytes(16).toString('base64url'), 'file1');
      const { UploadId: uploadId } = await blobs.client.send(new CreateMultipartUploadCommand({ Bucket: bucket, Key: key }));
      await blobs.client.send(new UploadPartCommand({ Bucket: bucket, Key: key, UploadId: uploadId, PartNumber: 1, Body: Buffer.alloc(5 * MiB, 1) }));
      const later = new Date(Date.now() + 1000);
      expect(await server.server.store.listMultipartUploads(later, 10)).toEqual([expect.objectContaining({ uploadId, key })]);
      expect(await sendPart(client, bucket, key, uploadId!)).toBe('accepted');

      // A sweep whose cut-off is before the upload began leaves it alone.
      await blobs.removeOrphans(new Date(Date.now() - 60_000), 100);
      expect(await sendPart(client, bucket, key, uploadId!)).toBe('accepted');

      await blobs.removeOrphans(later, 100);
      expect(await sendPart(client, bucket, key, uploadId!)).toBe('NoSuchUpload');
      expect(await server.server.store.listMultipartUploads(later, 10)).toEqual([]);
      // Aborted: no word to the operator about a lifecycle rule (that is for stores that cannot abort).
      expect(server.logs.filter((line) => line.includes('AbortIncompleteMultipartUpload'))).toEqual([]);
    } finally {
      client.destroy();
      await server.close();
    }
  });
});
