import type { BlobStore } from './store.js';

/**
 * The blobs of `blobs` under storage ids no push has, by storage id: sliced uploads in progress
 * (each one's record under the upload's id, the segments its slices stored so far under the id
 * its push will have), and what uploads given up left for the sweep.
 */
export async function blobsWithoutPush(blobs: BlobStore, pushTokens: ReadonlySet<string>): Promise<Map<string, string[]>> {
  const pending = new Map<string, string[]>();
  for await (const { pushToken, fileId } of blobs.list()) {
    if (pushTokens.has(pushToken)) continue;
    pending.set(pushToken, [...(pending.get(pushToken) ?? []), fileId]);
  }
  return pending;
}
