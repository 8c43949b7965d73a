import { open } from 'node:fs/promises';

const READ_BYTES = 1024 * 1024;

/**
 * The complete lines of a file (without their '\n'), read in 1 MiB pieces so that no string
 * ever holds the whole file (V8 strings stop at ~512 MiB; a store may be larger). Lines come in
 * blocks, one per piece read (fewer async steps than a line at a time): `text` is the block's
 * lines joined by '\n', `end` the byte offset just past its last line. `onBytes` sees every byte of the file, in order. The
 * generator's return value `tornAt` is where an unterminated last line begins (a write cut short
 * by a crash), or undefined.
 */
export async function* readLineBlocks(
  path: string,
  onBytes?: (bytes: Buffer) => void,
): AsyncGenerator<{ text: string; end: number }, { tornAt: number | undefined }> {
  const fh = await open(path, 'r');
  try {
    // The start of a line that continues into the next piece, kept as pieces (a long line is
    // joined once, not re-copied on every read).
    let partial: Buffer[] = [];
    let partialBytes = 0;
    let offset = 0; // file offset of the next byte read
    // One buffer for every read: a fresh 1 MiB buffer per read left its memory with the
    // allocator after the start-up, about as much again as the store's own data (RSS).
    const buf = Buffer.allocUnsafe(READ_BYTES);
    for (;;) {
      const { bytesRead } = await fh.read(buf, 0, READ_BYTES, null);
      if (bytesRead === 0) break;
      const piece = buf.subarray(0, bytesRead);
      onBytes?.(piece);
      const lastNewline = piece.lastIndexOf(10);
      if (lastNewline < 0) {
        partial.push(Buffer.from(piece));
        partialBytes += bytesRead;
        offset += bytesRead;
        continue;
      }
      const complete = partialBytes ? Buffer.concat([...partial, piece.subarray(0, lastNewline)]) : piece.subarray(0, lastNewline);
      // Copied: the next read reuses the buffer.
      partial = lastNewline + 1 < bytesRead ? [Buffer.from(piece.subarray(lastNewline + 1))] : [];
      partialBytes = bytesRead - lastNewline - 1;
      offset += bytesRead;
      yield { text: complete.toString('utf8'), end: offset - partialBytes };
    }
    return { tornAt: partialBytes ? offset - partialBytes : undefined };
  } finally {
    await fh.close();
  }
}
