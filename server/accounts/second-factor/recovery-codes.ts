import { randomInt } from 'node:crypto';
import { digest } from '../../crypto/secret-hash.js';

export const RECOVERY_CODE_COUNT = 10;
/** No 0/O, 1/I/L: a code read off paper is typed right. */
const ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
/** 16 of 31 symbols: about 79 bits, enough that a fast hash of it cannot be searched. */
const LENGTH = 16;

/** A fresh recovery code as it is shown: four groups of four. */
export function newRecoveryCode(): string {
  let code = '';
  for (let i = 0; i < LENGTH; i++) code += ALPHABET[randomInt(ALPHABET.length)];
  return code.match(/.{4}/g)!.join('-');
}

/** What a person typed, the way codes are compared: no spaces or dashes, upper case; null if it cannot be a code. */
export function normaliseRecoveryCode(raw: string): string | null {
  const code = raw.replace(/[\s-]/g, '').toUpperCase();
  return code.length === LENGTH && [...code].every((ch) => ALPHABET.includes(ch)) ? code : null;
}

/**
 * How a code is stored: SHA-256 of the account and the code. Like API tokens (random, about 79
 * bits), a fast hash suffices: a copy of the data cannot be searched for them. Unkeyed on
 * purpose, so that rotating MASTER_KEY leaves the codes working.
 */
export function recoveryCodeDigest(userId: string, normalised: string): string {
  return digest(`recovery-code:${userId}:${normalised}`);
}
