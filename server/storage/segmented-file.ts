import type { StoredFile } from './records.js';

/**
 * A segmented file (one a sliced upload stored as it arrived): its bytes are sealed segment by
 * segment, each its own blob `<file id>.<index>` with its own nonce and tag, so that the upload's
 * finish only records the file and rewrites nothing. Each segment's additional authenticated
 * data names the file, its index and whether it is the last, so a segment moved to another
 * place or file, one dropped from the end, or a non-final one posing as the end fails
 * authentication. Files stored whole (every other upload) stay one blob named by their id.
 */

export function segmentCount(size: number, segmentBytes: number): number {
  return Math.max(1, Math.ceil(size / segmentBytes));
}

export function segmentBlobId(fileId: string, index: number): string {
  return `${fileId}.${String(index).padStart(6, '0')}`;
}

/** The blobs that hold a stored file: its one blob, or its segments in order. */
export function blobIdsOf(file: Pick<StoredFile, 'id' | 'size' | 'segmentBytes'>): string[] {
  if (!file.segmentBytes) return [file.id];
  return Array.from({ length: segmentCount(file.size, file.segmentBytes) }, (_, i) => segmentBlobId(file.id, i));
}

/** What a segment is sealed to (GCM's additional authenticated data). */
export function segmentBinding(fileId: string, index: number, final: boolean): Buffer {
  return Buffer.from(`secret-push segment v1\n${fileId}\n${index}\n${final ? 'final' : 'more'}`, 'utf8');
}
