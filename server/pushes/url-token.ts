import { randomInt } from 'node:crypto';

/**
 * URL tokens in Password Pusher's alphabet ([a-z0-9_-]); 19 characters from 38 symbols carry
 * 99.7 bits, above the 96 required. randomInt draws uniformly from the CSPRNG.
 */
const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789_-';
export const URL_TOKEN_LENGTH = 19;
export const URL_TOKEN_PATTERN = /^[a-z0-9_-]{1,64}$/;

export function newUrlToken(): string {
  let out = '';
  for (let i = 0; i < URL_TOKEN_LENGTH; i++) out += ALPHABET[randomInt(ALPHABET.length)];
  return out;
}
