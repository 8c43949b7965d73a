import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readLineBlocks } from '../../../../server/storage/embedded/line-reader.js';
import { tempDirs } from '../../../support/temp-dirs.js';

const freshDir = tempDirs('line-reader');
const MiB = 1024 * 1024;

/** Every block of the file, and the generator's return value. */
async function readAll(path: string, onBytes?: (b: Buffer) => void) {
  const blocks = readLineBlocks(path, onBytes);
  const texts: string[] = [];
  const ends: number[] = [];
  for (;;) {
    const next = await blocks.next();
    if (next.done) return { texts, ends, tornAt: next.value.tornAt };
    texts.push(next.value.text);
    ends.push(next.value.end);
  }
}

/** Lines of distinct content (a line made of one repeated character would hide reused bytes). */
function line(length: number, seed: number): string {
  let s = '';
  for (let i = 0; s.length < length; i++) s += `${seed}:${i};`;
  return s.slice(0, length);
}

describe('readLineBlocks', () => {
  it('gives back every line exactly, across read boundaries and lines longer than a read', async () => {
    // Lengths around the 1 MiB read: a line ending just before, one across, one of several reads.
    const lines = [line(10, 1), line(MiB - 20, 2), line(30, 3), line(2.5 * MiB, 4), 'é∑😀 unicode across a boundary'.repeat(40_000), line(5, 6), ''];
    const text = lines.map((l) => `${l}\n`).join('');
    const path = join(freshDir(), 'lines.jsonl');
    writeFileSync(path, text);
    const hash = createHash('sha256');
    const { texts, ends, tornAt } = await readAll(path, (b) => hash.update(b));
    expect(texts.join('\n').split('\n')).toEqual(lines);
    expect(tornAt).toBeUndefined();
    expect(ends.at(-1)).toBe(Buffer.byteLength(text));
    // Every byte was seen once, in order (the snapshot's checksum is taken so).
    expect(hash.digest('hex')).toBe(createHash('sha256').update(text).digest('hex'));
  });

  it('reports an unterminated last line as torn, at the byte where it starts', async () => {
    const whole = `${line(MiB + 7, 1)}\n${line(40, 2)}\n`;
    const path = join(freshDir(), 'torn.jsonl');
    writeFileSync(path, `${whole}${line(MiB, 3)}`);
    const { texts, tornAt } = await readAll(path);
    expect(texts.join('\n')).toBe(whole.slice(0, -1));
    expect(tornAt).toBe(Buffer.byteLength(whole));
  });
});
