import { randomBytes, scrypt, timingSafeEqual, createHash } from 'node:crypto';

/**
 * Passwords and push passphrases are stored as salted scrypt hashes (a slow KDF: guessing
 * from a stolen data file stays expensive) and compared in constant time.
 * Format: `scrypt$N$r$p$<salt b64url>$<hash b64url>`.
 */
/** scrypt's cost as log2 of N (PASSWORD_HASH_COST): 2^14 = 16384 by default. */
export const DEFAULT_HASH_COST = 14;
const R = 8;
const P = 1;
const KEYLEN = 32;
/** scrypt needs 128·N·r bytes: room for the highest cost the setting allows (2^17: 128 MiB). */
const MAX_MEMORY = 129 * 1024 * 1024;

function derive(secret: string, salt: Buffer, n: number, r: number, p: number): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(secret.normalize('NFC'), salt, KEYLEN, { N: n, r, p, maxmem: MAX_MEMORY }, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

/** A new hash at `cost` (log2 N); a stored hash keeps the cost it was made with. */
export async function hashSecret(secret: string, cost = DEFAULT_HASH_COST): Promise<string> {
  const salt = randomBytes(16);
  const N = 2 ** cost;
  const key = await derive(secret, salt, N, R, P);
  return `scrypt$${N}$${R}$${P}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

export async function verifySecret(secret: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const actual = await derive(secret, Buffer.from(salt, 'base64url'), Number(n), Number(r), Number(p));
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** SHA-256 for high-entropy random secrets (API tokens, session ids): looked up by digest. */
export function digest(secret: string): string {
  return createHash('sha256').update(secret).digest('base64url');
}

/** Constant-time equality of two strings of any length. */
export function safeEqual(a: string, b: string): boolean {
  const da = createHash('sha256').update(a).digest();
  const db = createHash('sha256').update(b).digest();
  return timingSafeEqual(da, db) && a.length === b.length;
}
