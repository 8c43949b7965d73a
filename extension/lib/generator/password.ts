import { uniformIndices, type RandomFill } from './random-index';

/** The character sets a generated password draws from (ASCII only: every keyboard and form takes them). */
export const characterSets = {
  lower: 'abcdefghijklmnopqrstuvwxyz',
  upper: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ',
  digits: '0123456789',
  symbols: '!#$%&()*+,-./:;<=>?@[]^_{|}~',
} as const;
export type CharacterSet = keyof typeof characterSets;

export interface PasswordRule {
  length: number;
  sets: CharacterSet[];
}

/** What the context menu's "Push a new password" generates: 20 characters of all four sets (≈ 128 bits). */
export const menuPasswordRule: PasswordRule = { length: 20, sets: ['lower', 'upper', 'digits', 'symbols'] };

export function alphabetOf(sets: CharacterSet[]): string {
  return [...new Set(sets)].map((s) => characterSets[s]).join('');
}

/**
 * Each character drawn uniformly and independently from the union of the sets. No set is forced
 * to appear: forcing one would make some passwords likelier than others and the strength shown
 * (`passwordBits`) would overstate it.
 */
export function generatePassword(rule: PasswordRule, fill?: RandomFill): string {
  const alphabet = alphabetOf(rule.sets);
  if (!alphabet) throw new RangeError('choose at least one character set');
  return uniformIndices(alphabet.length, rule.length, fill)
    .map((i) => alphabet[i])
    .join('');
}

/** Strength in bits: length × log2(alphabet size), exact for uniform independent characters. */
export function passwordBits(rule: PasswordRule): number {
  const size = alphabetOf(rule.sets).length;
  return size ? rule.length * Math.log2(size) : 0;
}

/** `count` words drawn uniformly from `words` (repeats allowed), joined by `separator` (a space: four EFF words hold a hyphen). */
export function generatePassphrase(words: readonly string[], count: number, separator = ' ', fill?: RandomFill): string {
  return uniformIndices(words.length, count, fill)
    .map((i) => words[i])
    .join(separator);
}

/** Strength in bits: count × log2(list size) (12.9 bits a word for the EFF large list). */
export function passphraseBits(listSize: number, count: number): number {
  return count * Math.log2(listSize);
}
