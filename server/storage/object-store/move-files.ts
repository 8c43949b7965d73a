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
  /** Ids without a push whose blobs were moved (a sliced upload's record, or its segments so far). */
  uploads: number;
}

async function sha256(stream: Readable): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of stream) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

async function hashOf(blobs: BlobStore, token: string, fileId: string, size: number): Promise<string> {
  return sha256(await blobs.read(token, fileId, 0, size));
}

/** Copies one blob to `to` unless it is there already, reads it back and compares SHA-256. */
async function copyVerified(from: BlobStore, to: BlobStore, token: string, id: string, counts: FileMoveCounts): Promise<void> {
  const size = await from.size(token, id);
  if (size === undefined) {
    if ((await to.size(token, id)) === undefined) throw new Error(`push ${token.slice(0, 4)}…: file ${id} is in neither place`);
    return; // moved by an earlier run
  }
  const sourceHash = await hashOf(from, token, id, size);
  const there = await to.size(token, id);
  if (there === size && (await hashOf(to, token, id, size)) === sourceHash) {
    counts.alreadyThere++;
    return;
  }
  const written = await to.write(token, id, await from.read(token, id, 0, size));
  const targetHash = written === size ? await hashOf(to, token, id, size) : 'size differs';
  if (targetHash !== sourceHash) {
    throw new Error(`push ${token.slice(0, 4)}…: file ${id} differs after copying (SHA-256 ${sourceHash} ≠ ${targetHash}); the source is kept`);
  }
  counts.moved++;
  counts.bytes += size;
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
  const pending = new Map<string, string[]>();
  for await (const { pushToken, fileId } of from.list()) {
    if (pushTokens.has(pushToken)) continue;
    pending.set(pushToken, [...(pending.get(pushToken) ?? []), fileId]);
  }
  for (const [token, ids] of pending) {
    for (const id of ids) await copyVerified(from, to, token, id, counts);
    await from.removeAll(token);
    counts.uploads++;
  }
  return counts;
}
