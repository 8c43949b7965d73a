import { blobsWithoutPush } from '../blobs-without-push.js';
import type { StoredPush } from '../records.js';
import { blobIdsOf } from '../segmented-file.js';
import type { BlobStore } from '../store.js';
import { copyVerified, type VerifiedCopyCounts } from '../verified-blob-copy.js';

export interface FileMoveCounts extends VerifiedCopyCounts {
  /** Ids without a push whose blobs were moved (a sliced upload's record, or its segments so far). */
  uploads: number;
}

/**
 * Moves every file of `pushes` from one blob store to the other (the store's own files ↔ an
 * object store), as the stored ciphertext: each is copied, then read back from the target and
 * its SHA-256 compared with the source's, and only then removed from the source. Re-runnable: a
 * file already in the target with the source's hash is not copied again; one only in the target
 * (moved by an earlier run) is left. A difference stops the move with an error, source intact.
 * Then every blob no push has yet is moved the same way: sliced uploads in progress (their
 * record and the segments stored so far), so that their clients go on against the new place;
 * what is left of uploads given up goes with them, and the new place's sweep removes it.
 */
export async function moveFiles(pushes: Iterable<StoredPush>, from: BlobStore, to: BlobStore, say: (line: string) => void = () => {}): Promise<FileMoveCounts> {
  const counts: FileMoveCounts = { moved: 0, bytes: 0, alreadyThere: 0, uploads: 0 };
  const pushTokens = new Set<string>();
  for (const push of pushes) {
    pushTokens.add(push.token);
    if (!push.files.length) continue;
    // A segmented file (a sliced upload's) is moved segment by segment, each counted as a file.
    for (const id of push.files.flatMap(blobIdsOf)) await copyVerified(from, to, push.token, id, counts);
    // Only once every file of the push is verified in the target.
    await from.removeAll(push.token);
    if (counts.moved % 100 === 0 && counts.moved) say(`  ${counts.moved} files moved…`);
  }
  for (const [token, ids] of await blobsWithoutPush(from, pushTokens)) {
    for (const id of ids) await copyVerified(from, to, token, id, counts);
    await from.removeAll(token);
    counts.uploads++;
  }
  return counts;
}
