import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { BlobStore } from './store.js';

/** What copies made by copyVerified came to. */
export interface VerifiedCopyCounts {
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
 * Copies one blob to `to` unless it is there already with the same SHA-256, reads the copy back
 * and compares SHA-256 with the source's; a difference is an error (the source is never touched
 * here). A blob only in the target (moved by an earlier run) is taken as done. Streams, so a
 * blob of any size costs bounded memory.
 */
export async function copyVerified(from: BlobStore, to: BlobStore, token: string, id: string, counts: VerifiedCopyCounts): Promise<void> {
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
