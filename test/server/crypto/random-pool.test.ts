import { describe, expect, it } from 'vitest';
import { pooledRandomBytes } from '../../../server/crypto/random-pool.js';

describe('pooledRandomBytes', () => {
  it('hands out each byte once: no two values alike across many pool refills', () => {
    // 12-byte values, as IVs: 50,000 of them span ~150 refills of the 4 KiB pool.
    const seen = new Set<string>();
    for (let i = 0; i < 50_000; i++) {
      const iv = pooledRandomBytes(12);
      expect(iv.length).toBe(12);
      seen.add(iv.toString('hex'));
    }
    expect(seen.size).toBe(50_000);
  });

  it('gives the caller its own copy: a refill of the pool does not change bytes handed out', () => {
    const iv = pooledRandomBytes(12);
    const before = Buffer.from(iv);
    expect(before.equals(Buffer.alloc(12))).toBe(false);
    pooledRandomBytes(4096); // refills the whole pool
    expect(iv.equals(before)).toBe(true);
  });

  it('draws every byte value about equally often', () => {
    const counts = new Array<number>(256).fill(0);
    for (let i = 0; i < 1000; i++) for (const byte of pooledRandomBytes(1024)) counts[byte]! += 1;
    const expected = (1000 * 1024) / 256;
    // Chi-squared with 255 degrees of freedom: its 99.99th percentile is about 360.
    const chi2 = counts.reduce((sum, n) => sum + (n - expected) ** 2 / expected, 0);
    expect(chi2).toBeLessThan(360);
  });

  it('refuses a request larger than the pool', () => {
    expect(() => pooledRandomBytes(5000)).toThrow(RangeError);
  });
});
