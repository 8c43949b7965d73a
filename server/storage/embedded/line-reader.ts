import { open } from 'node:fs/promises';

const READ_BYTES = 1024 * 1024;

/**
 * The complete lines of a file (without their '\n'), read in 1 MiB pieces so that no string
 * ever holds the whole file (V8 strings stop at ~512 MiB; a store may be larger), each with the
 * byte offset just past it. The generator's return value `tornAt` is where an unterminated last
 * line begins (a write cut short by a crash), or undefined.
 */
export async function* readLines(path: string): AsyncGenerator<{ line: string; end: number }, { tornAt: number | undefined }> {
  const fh = await open(path, 'r');
  try {
    // The start of a line that continues into the next piece, kept as pieces (a long line is
    // joined once, not re-copied on every read).
    let partial: Buffer[] = [];
    let partialBytes = 0;
    let offset = 0; // file offset of the next byte read
    for (;;) {
      const buf = Buffer.allocUnsafe(READ_BYTES);
      const { bytesRead } = await fh.read(buf, 0, READ_BYTES, null);
      if (bytesRead === 0) break;
      const piece = buf.subarray(0, bytesRead);
      let start = 0;
      for (let nl = piece.indexOf(10); nl >= 0; nl = piece.indexOf(10, start)) {
        const tail = piece.subarray(start, nl);
        const whole = partialBytes ? Buffer.concat([...partial, tail], partialBytes + tail.length) : tail;
        partial = [];
        partialBytes = 0;
        yield { line: whole.toString('utf8'), end: offset + nl + 1 };
        start = nl + 1;
      }
      if (start < bytesRead) {
        partial.push(piece.subarray(start));
        partialBytes += bytesRead - start;
      }
      offset += bytesRead;
    }
    return { tornAt: partialBytes ? offset - partialBytes : undefined };
  } finally {
    await fh.close();
  }
}
