import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { StoredPush } from '../records.js';
import { blobIdsOf } from '../segmented-file.js';
import type { BlobStore } from '../store.js';

export interface FileMoveCounts {
  moved: number;
  bytes: number;
  /** Already in the target (a run cut short, or run again): checked, not copied. */
  alreadyThere: number;
}

async function sha256(stream: Readable): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of stream) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

async function hashOf(blobs: BlobStore, token: string, fileId: string, size: number): Promise<string> {
  return sha256(await blobs.read(token, fileId, 0, size));
}

/**
 * Moves every file of `pushes` from one blob store to the other (the store's own files ↔ an
 * object store), as the stored ciphertext: each is copied, then read back from the target and
 * its SHA-256 compared with the source's, and only then removed from the source. Re-runnable: a
 * file already in the target with the source's hash is not copied again; one only in the target
 * (moved by an earlier run) is left. A difference stops the move with an error, source intact.
 */
export async function moveFiles(pushes: Iterable<StoredPush>, from: BlobStore, to: BlobStore, say: (line: string) => void = () => {}): Promise<FileMoveCounts> {
  const counts: FileMoveCounts = { moved: 0, bytes: 0, alreadyThere: 0 };
  for (const push of pushes) {
    if (!push.files.length) continue;
    // A segmented file (a sliced upload's) is moved segment by segment, each counted as a file.
    for (const id of push.files.flatMap(blobIdsOf)) {
      const size = await from.size(push.token, id);
      if (size === undefined) {
        if ((await to.size(push.token, id)) === undefined) throw new Error(`push ${push.token.slice(0, 4)}…: file ${id} is in neither place`);
        continue; // moved by an earlier run
      }
      const sourceHash = await hashOf(from, push.token, id, size);
      const there = await to.size(push.token, id);
      if (there === size && (await hashOf(to, push.token, id, size)) === sourceHash) {
        counts.alreadyThere++;
        continue;
      }
      const written = await to.write(push.token, id, await from.read(push.token, id, 0, size));
      const targetHash = written === size ? await hashOf(to, push.token, id, size) : 'size differs';
      if (targetHash !== sourceHash) {
        throw new Error(`push ${push.token.slice(0, 4)}…: file ${id} differs after copying (SHA-256 ${sourceHash} ≠ ${targetHash}); the source is kept`);
      }
      counts.moved++;
      counts.bytes += size;
    }
    // Only once every file of the push is verified in the target.
    await from.removeAll(push.token);
    if (counts.moved % 100 === 0 && counts.moved) say(`  ${counts.moved} files moved…`);
  }
  return counts;
}
