// The measured file: random bytes (1 MiB of them, each MiB stamped with its index so no two are
// alike), written to disk and hashed. Shared by the measurement scripts.
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';

const MiB = 1024 ** 2;

export async function makeFile(path: string, bytes: number): Promise<string> {
  const base = randomBytes(MiB);
  const hash = createHash('sha256');
  const out = createWriteStream(path);
  for (let at = 0; at < bytes; at += MiB) {
    const piece = Buffer.from(base.subarray(0, Math.min(MiB, bytes - at)));
    piece.writeUInt32BE(at / MiB, 0);
    hash.update(piece);
    if (!out.write(piece)) await new Promise<void>((r) => out.once('drain', () => r()));
  }
  await new Promise<void>((resolve, reject) => out.once('error', reject).end(() => resolve()));
  return hash.digest('hex');
}

export async function sha256(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}
