/** Fills a buffer with random words: `crypto.getRandomValues` (a test may pass its own). */
export type RandomFill = (buffer: Uint32Array) => Uint32Array;

const cryptoFill: RandomFill = (buffer) => crypto.getRandomValues(buffer);

/**
 * `count` indices uniform over 0..n-1. Rejection sampling: a 32-bit word at or above the largest
 * multiple of n below 2^32 is drawn again, so `word % n` favours no index (no modulo bias).
 */
export function uniformIndices(n: number, count: number, fill: RandomFill = cryptoFill): number[] {
  if (!Number.isInteger(n) || n < 1 || n > 2 ** 32) throw new RangeError('n must be an integer in 1..2^32');
  const limit = 2 ** 32 - (2 ** 32 % n);
  const out: number[] = [];
  while (out.length < count) {
    // getRandomValues takes at most 65,536 bytes a call.
    for (const word of fill(new Uint32Array(Math.min(count - out.length, 16_384)))) if (word < limit) out.push(word % n);
  }
  return out;
}
