import { pooledRandomBytes } from '../crypto/random-pool.js';

/**
 * URL tokens in Password Pusher's alphabet ([a-z0-9_-]); 19 characters from 38 symbols carry
 * 99.7 bits, above the 96 required. Bytes come from the CSPRNG in one read per token; a byte
 * is used only below 228 (6 × 38), so every symbol stays exactly equally likely.
 */
const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789_-';
const UNBIASED_BELOW = 256 - (256 % ALPHABET.length);
export const URL_TOKEN_LENGTH = 19;
export const URL_TOKEN_PATTERN = /^[a-z0-9_-]{1,64}$/;

export function newUrlToken(): string {
  let out = '';
  while (out.length < URL_TOKEN_LENGTH) {
    for (const byte of pooledRandomBytes(32)) {
      if (byte < UNBIASED_BELOW) out += ALPHABET[byte % ALPHABET.length];
      if (out.length === URL_TOKEN_LENGTH) break;
    }
  }
  return out;
}
