import { CopyObjectCommand } from '@aws-sdk/client-s3';
import type { StoredPush } from '../records.js';
import { blobIdsOf } from '../segmented-file.js';
import type { Store } from '../store.js';
import { S3BlobStore, type S3Settings } from './s3-blob-store.js';

/**
 * `store` with its files in object storage: its records stay where they are (DATA_DIR or
 * PostgreSQL), its `blobs` are objects in the bucket. The store's own deletions (retention)
 * leave the objects of the pushes they delete to the sweep, which removes objects no push
 * references; renaming pushes (a store written before URL tokens were hashed) copies their
 * objects to the new keys.
 */
export function withObjectStorage(store: Store, settings: S3Settings, notice?: (message: string) => void): Store & { blobs: S3BlobStore } {
  // The store records the multipart uploads the bucket's client starts (multipart-ledger.ts).
  const blobs = new S3BlobStore(settings, async (token) => (await store.getPush(token))?.files.flatMap(blobIdsOf), store, notice);
  const renamePushes = async (rename: (push: StoredPush) => StoredPush | undefined) => {
    const moves: [string, string][] = [];
    const moved = await store.renamePushes((push) => {
      const next = rename(push);
      if (next && next.token !== push.token && push.files.length) moves.push([push.token, next.token]);
      return next;
    });
    // After the records: until then the old keys are the referenced ones. A process stopped in
    // between leaves the files under the old keys (the sweep would then take them: a rename of
    // this kind happens once, at the first start after an upgrade, before any upload).
    for (const [from, to] of moves) {
      for await (const page of blobs.keysUnder(`${settings.prefix}${from}/`)) {
        for (const o of page) {
          const fileId = o.key.slice(`${settings.prefix}${from}/`.length, -'.bin'.length);
          await blobs.client.send(new CopyObjectCommand({ Bucket: settings.bucket, Key: blobs.key(to, fileId), CopySource: `${settings.bucket}/${encodeURI(o.key)}` }));
        }
      }
      await blobs.removeAll(from);
    }
    return moved;
  };
  const close = async () => {
    try {
      await store.close();
    } finally {
      blobs.close();
    }
  };
  return new Proxy(store, {
    get(target, prop, receiver) {
      if (prop === 'blobs') return blobs;
      if (prop === 'renamePushes') return renamePushes;
      if (prop === 'close') return close;
      const value = Reflect.get(target, prop, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  }) as Store & { blobs: S3BlobStore };
}
