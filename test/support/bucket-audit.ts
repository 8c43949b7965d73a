import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import type { Store } from '../../server/storage/store.js';
import { S3BlobStore } from '../../server/storage/object-store/s3-blob-store.js';
import { blobIdsOf } from '../../server/storage/segmented-file.js';

/**
 * The bucket listed against the pushes: every object a server with FILE_STORAGE=s3 left must be
 * a file of a stored push (issue 33: "no object without a push"). The one other kind allowed is
 * a sliced upload's own blobs (its record, its slices, the note of the push it made): they live
 * under the upload's storage id, which no push has, beside an `upload` or `finished` blob, and
 * the sweep takes them when the upload is given up.
 */
export async function objectsWithoutPush(store: Store): Promise<string[]> {
  const blobs = store.blobs;
  if (!(blobs instanceof S3BlobStore)) return [];
  const { bucket, prefix } = blobs.settings;
  const byToken = new Map<string, string[]>();
  const strays: string[] = [];
  let continuation: string | undefined;
  // The whole bucket, not only the prefix: an object outside S3_PREFIX is a stray too.
  do {
    const page = await blobs.client.send(new ListObjectsV2Command({ Bucket: bucket, ContinuationToken: continuation }));
    for (const { Key: key } of page.Contents ?? []) {
      if (!key) continue;
      const rest = key.startsWith(prefix) ? key.slice(prefix.length) : undefined;
      const match = rest === undefined ? null : /^([^/]+)\/([^/]+)\.bin$/.exec(rest);
      if (!match) {
        strays.push(`${key} (not a file key under S3_PREFIX '${prefix}')`);
        continue;
      }
      byToken.set(match[1]!, [...(byToken.get(match[1]!) ?? []), match[2]!]);
    }
    continuation = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (continuation);
  for (const [token, fileIds] of byToken) {
    if (fileIds.includes('upload') || fileIds.includes('finished')) continue; // a sliced upload's
    const files = (await store.getPush(token))?.files.flatMap(blobIdsOf);
    for (const id of fileIds) {
      if (!files) strays.push(`${prefix}${token}/${id}.bin (no push ${token.slice(0, 8)}…)`);
      else if (!files.includes(id)) strays.push(`${prefix}${token}/${id}.bin (push ${token.slice(0, 8)}… has no file ${id})`);
    }
  }
  return strays;
}

/** Servers with files in object storage started by this test file and not yet audited. */
const open = new Set<{ store: Store; name: string }>();

/**
 * Audits a test server's bucket when it stops (test/support/server.ts calls it before closing,
 * while its store can still be asked), and keeps track of those not stopped yet for the
 * afterAll of test/support/bucket-audit-setup.ts.
 */
export function auditedServer(store: Store, name: string): { beforeClose(): Promise<string[]> } {
  const entry = { store, name };
  if (store.blobs instanceof S3BlobStore) open.add(entry);
  return {
    async beforeClose() {
      if (!open.delete(entry)) return [];
      return objectsWithoutPush(store);
    },
  };
}

/** Audits every server still open (a file that never stopped one): the strays found. */
export async function auditOpenServers(): Promise<string[]> {
  const found: string[] = [];
  for (const entry of [...open]) {
    open.delete(entry);
    found.push(...(await objectsWithoutPush(entry.store)).map((s) => `${entry.name}: ${s}`));
  }
  return found;
}

export function strayError(where: string, strays: string[]): Error {
  return new Error(`${where}: the bucket holds ${strays.length} object(s) no push references:\n  ${strays.join('\n  ')}`);
}
