import { createHash } from 'node:crypto';
import { safeEqual } from '../../crypto/secret-hash.js';

/** RFC 7636: a verifier is 43–128 unreserved characters; an S256 challenge is 43 base64url characters. */
const VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;
export const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

/** Whether `verifier` is one whose S256 challenge is `challenge`. */
export function verifierMatches(verifier: unknown, challenge: string): boolean {
  if (typeof verifier !== 'string' || !VERIFIER.test(verifier)) return false;
  return safeEqual(createHash('sha256').update(verifier, 'ascii').digest('base64url'), challenge);
}
