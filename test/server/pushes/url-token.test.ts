import { describe, expect, it } from 'vitest';
import { newUrlToken, URL_TOKEN_LENGTH } from '../../../server/pushes/url-token.js';

describe('newUrlToken', () => {
  it('makes 19 characters of [a-z0-9_-], all different across many draws', () => {
    const tokens = new Set(Array.from({ length: 20_000 }, newUrlToken));
    expect(tokens.size).toBe(20_000);
    for (const t of tokens) expect(t).toMatch(new RegExp(`^[a-z0-9_-]{${URL_TOKEN_LENGTH}}$`));
  });

  it('uses every symbol about equally often (no modulo bias)', () => {
    const counts = new Map<string, number>();
    const draws = 4000;
    for (let i = 0; i < draws; i++) for (const ch of newUrlToken()) counts.set(ch, (counts.get(ch) ?? 0) + 1);
    expect(counts.size).toBe(38);
    const expected = (draws * URL_TOKEN_LENGTH) / 38; // 2000
    // Chi-squared with 37 degrees of freedom: 99.99th percentile ≈ 83.
    const chi2 = [...counts.values()].reduce((sum, n) => sum + (n - expected) ** 2 / expected, 0);
    expect(chi2).toBeLessThan(83);
  });
});
