import { randomInt } from 'node:crypto';

/**
 * The one rule for secrets the server generates for a batch's rows (`generate`): 20 characters
 * from 56 letters and digits without the look-alikes (0/O, 1/l/I), about 116 bits, readable
 * aloud and typable from a printout.
 */
const ALPHABET = 'abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';
export const GENERATED_SECRET_LENGTH = 20;

export function generatedSecret(): string {
  let s = '';
  for (let i = 0; i < GENERATED_SECRET_LENGTH; i++) s += ALPHABET[randomInt(ALPHABET.length)];
  return s;
}
