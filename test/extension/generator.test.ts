import { describe, expect, it } from 'vitest';
import { alphabetOf, generatePassphrase, generatePassword, passphraseBits, passwordBits, characterSets } from '../../extension/lib/generator/password';
import { uniformIndices } from '../../extension/lib/generator/random-index';
import { parseWordList } from '../../extension/lib/generator/word-list';

/** A random source that hands out the given words in order (the real one cannot be seeded). */
const scripted = (words: number[]) => {
  const queue = [...words];
  return (buffer: Uint32Array) => {
    for (let i = 0; i < buffer.length; i++) buffer[i] = queue.shift() ?? 0;
    return buffer;
  };
};

describe('the password generator', () => {
  it('states its strength in bits: length × log2(alphabet), words × log2(list)', () => {
    expect(alphabetOf(['lower'])).toHaveLength(26);
    expect(alphabetOf(['lower', 'upper', 'digits', 'symbols'])).toHaveLength(26 + 26 + 10 + characterSets.symbols.length);
    expect(passwordBits({ length: 16, sets: ['digits'] })).toBeCloseTo(16 * Math.log2(10), 10);
    expect(passwordBits({ length: 20, sets: ['lower', 'upper'] })).toBeCloseTo(20 * Math.log2(52), 10);
    expect(passwordBits({ length: 20, sets: ['lower', 'upper', 'digits', 'symbols'] })).toBeCloseTo(20 * Math.log2(90), 10);
    expect(passwordBits({ length: 20, sets: [] })).toBe(0);
    // The EFF large list: 7,776 words, 12.925 bits each; six words ≈ 77.5 bits.
    expect(passphraseBits(7776, 1)).toBeCloseTo(12.925, 3);
    expect(passphraseBits(7776, 6)).toBeCloseTo(77.55, 2);
  });

  it('draws again instead of folding the top of the 32-bit range (no modulo bias)', () => {
    // n = 3: 2^32 mod 3 = 1, so 2^32 − 1 is the one word that would favour index 0: it is
    // skipped (folded, the answer would be [0, 1]).
    expect(uniformIndices(3, 2, scripted([2 ** 32 - 1, 4, 2 ** 32 - 2]))).toEqual([1, 2]);
    // n = 10: the top 2^32 mod 10 = 6 words are drawn again.
    expect(uniformIndices(10, 1, scripted([2 ** 32 - 6, 2 ** 32 - 1, 2 ** 32 - 7]))).toEqual([(2 ** 32 - 7) % 10]);
    expect(() => uniformIndices(0, 1)).toThrow(RangeError);
  });

  it('makes passwords of the asked length from the chosen sets only, and passphrases of list words', () => {
    const p = generatePassword({ length: 64, sets: ['digits', 'symbols'] });
    expect(p).toHaveLength(64);
    expect([...p].every((c) => (characterSets.digits + characterSets.symbols).includes(c))).toBe(true);
    expect(() => generatePassword({ length: 8, sets: [] })).toThrow(RangeError);
    const words = parseWordList('alpha\nbravo\r\ncharlie\n\n');
    expect(words).toEqual(['alpha', 'bravo', 'charlie']);
    const phrase = generatePassphrase(words, 5);
    expect(phrase.split(' ')).toHaveLength(5);
    expect(phrase.split(' ').every((w) => words.includes(w))).toBe(true);
  });
});
