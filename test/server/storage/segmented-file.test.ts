import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { KeyRing } from '../../../server/crypto/key-ring.js';
import { DiskBlobStore } from '../../../server/storage/embedded/disk-blob-store.js';
import { FileVault } from '../../../server/storage/file-vault.js';
import { segmentBlobId } from '../../../server/storage/segmented-file.js';

/**
 * Segmented files (storage/segmented-file.ts, FileVault): each segment sealed to its file, its
 * index and whether it is the last, so that segments cannot be reordered, moved to another file,
 * dropped from the end or cut short without the read failing; files stored whole read as before
 * beside them. On the data dir's blob store (a real directory); the HTTP tests run the same
 * format on every backend (sliced-upload.test.ts).
 */
const dir = mkdtempSync(join(tmpdir(), 'secret-push-segments-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const keys = new KeyRing(randomBytes(32));
const vault = new FileVault(new DiskBlobStore(dir, () => true), keys);
const SEGMENT = 1000;
const path = (token: string, blob: string) => join(dir, 'files', token, `${blob}.bin`);

async function text(stream: Readable): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of stream) parts.push(chunk as Buffer);
  return Buffer.concat(parts);
}

/** A file of 2.5 segments stored segment by segment, as a sliced upload stores it. */
async function segmented(token: string) {
  const plain = randomBytes(2500);
  const id = randomBytes(9).toString('base64url');
  for (let i = 0; i * SEGMENT < plain.length; i++) {
    const piece = plain.subarray(i * SEGMENT, (i + 1) * SEGMENT);
    await vault.writeSegment(token, id, i, (i + 1) * SEGMENT >= plain.length, Readable.from([piece]));
  }
  return { plain, file: { id, size: plain.length, segmentBytes: SEGMENT } };
}

describe('segmented files', () => {
  it('read whole and in ranges across segments, beside a file stored whole', async () => {
    const { plain, file } = await segmented('p1');
    expect((await text(await vault.readFile('p1', file))).equals(plain)).toBe(true);
    expect((await text(await vault.readFile('p1', file, { verifyFirst: false }))).equals(plain)).toBe(true);
    for (const [start, end] of [[0, 1], [990, 1010], [999, 2001], [0, 2500], [2400, 2500]] as const) {
      expect((await text(await vault.readFileRange('p1', file, start, end))).equals(plain.subarray(start, end)), `${start}-${end}`).toBe(true);
    }
    // A file stored whole, the format every file had before: read as it always was.
    const whole = randomBytes(3000);
    const size = await vault.write('p1', 'whole', Readable.from([whole]));
    const old = { id: 'whole', size };
    expect((await text(await vault.readFile('p1', old))).equals(whole)).toBe(true);
    expect((await text(await vault.readFileRange('p1', old, 1500, 2600))).equals(whole.subarray(1500, 2600))).toBe(true);
  });

  it('refuses segments reordered, taken from another file, cut short, or a file shortened to a non-final segment', async () => {
    const { file } = await segmented('p2');
    const swap = (a: string, b: string) => {
      renameSync(a, `${a}.x`);
      renameSync(b, a);
      renameSync(`${a}.x`, b);
    };
    const seg = (i: number, f = file) => path('p2', segmentBlobId(f.id, i));
    // Checked before a byte is handed out (the default read), and while streaming (verifyFirst: false).
    const refused = async (f: typeof file) => {
      await expect(vault.readFile('p2', f)).rejects.toThrow(/authentication/);
      await expect((async () => text(await vault.readFile('p2', f, { verifyFirst: false })))()).rejects.toThrow(/authentication/);
    };

    swap(seg(0), seg(1));
    await refused(file);
    swap(seg(0), seg(1));
    expect((await text(await vault.readFile('p2', file))).length).toBe(2500);

    // The same place in another file.
    const { file: other } = await segmented('p2');
    swap(seg(1), seg(1, other));
    await refused(file);
    swap(seg(1), seg(1, other));

    // The end dropped: two full segments claim to be the whole file, but the second was sealed as "more".
    await refused({ ...file, size: 2 * SEGMENT });

    // A segment cut short.
    const last = readFileSync(seg(2));
    writeFileSync(seg(2), last.subarray(0, last.length - 1));
    await refused(file);
  });

  it('streams a segmented file segment by segment: a paused reader holds the store to about one segment read ahead', async () => {
    // The data dir's blob store, its reads counted as the stream hands bytes on (an observing
    // wrapper of the real store: nothing is faked).
    const disk = new DiskBlobStore(dir, () => true);
    const opened: string[] = [];
    let delivered = 0;
    const counted = Object.create(disk) as DiskBlobStore;
    counted.read = async (token: string, id: string, start: number, end: number) => {
      opened.push(id);
      const stream = await disk.read(token, id, start, end);
      stream.on('data', (chunk: Buffer) => void (delivered += chunk.length));
      return stream;
    };
    const counting = new FileVault(counted, keys);
    const MiB = 1_048_576;
    const segmentBytes = MiB;
    const plain = randomBytes(16 * MiB);
    const id = randomBytes(9).toString('base64url');
    for (let i = 0; i * segmentBytes < plain.length; i++) {
      await counting.writeSegment('big', id, i, (i + 1) * segmentBytes >= plain.length, Readable.from([plain.subarray(i * segmentBytes, (i + 1) * segmentBytes)]));
    }
    const file = { id, size: plain.length, segmentBytes };
    const whole = Buffer.concat([plain]);

    for (const open of [() => counting.readFile('big', file, { verifyFirst: false }), () => counting.readFileRange('big', file, 0, plain.length)]) {
      opened.length = 0;
      delivered = 0;
      const stream = await open();
      const iterator = stream[Symbol.asyncIterator]();
      const first = (await iterator.next()).value as Buffer;
      // Give the stream every chance to read ahead while nobody reads.
      for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
      expect(new Set(opened).size).toBeLessThanOrEqual(2);
      expect(delivered).toBeLessThanOrEqual(2 * segmentBytes);
      const parts = [first];
      for (let next = await iterator.next(); !next.done; next = await iterator.next()) parts.push(next.value as Buffer);
      expect(Buffer.concat(parts).equals(whole)).toBe(true);
      expect(new Set(opened).size).toBe(16);
    }
  });
});

