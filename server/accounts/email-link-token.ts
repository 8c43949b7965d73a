import { createHmac } from 'node:crypto';
import { safeEqual } from '../crypto/secret-hash.js';

/**
 * The token in a password-reset or confirmation link: `<account id>.<expiry ms>.<MAC>`, the MAC
 * over the purpose, the account, the expiry and the account's current state (its password hash
 * for a reset, its address for a confirmation). Nothing is stored, so a stolen data file holds
 * no usable link; and a reset link is single-use by construction: the reset changes the password
 * hash it is bound to, so the same link (and every older one) no longer verifies.
 */
export function makeLinkToken(key: Buffer, purpose: string, userId: string, state: string, expiresAt: number): string {
  return `${Buffer.from(userId).toString('base64url')}.${expiresAt.toString(36)}.${mac(key, purpose, userId, state, expiresAt)}`;
}

/** The token's account id and expiry, before the state is known (the MAC is checked by verifyLinkToken). */
export function readLinkToken(token: unknown): { userId: string; expiresAt: number } | undefined {
  if (typeof token !== 'string' || token.length > 300) return undefined;
  const [id, exp, m, ...rest] = token.split('.');
  if (!id || !exp || !m || rest.length) return undefined;
  const expiresAt = parseInt(exp, 36);
  if (!Number.isSafeInteger(expiresAt)) return undefined;
  return { userId: Buffer.from(id, 'base64url').toString('utf8'), expiresAt };
}

export function verifyLinkToken(key: Buffer, purpose: string, token: string, state: string, now: number): boolean {
  const read = readLinkToken(token);
  if (!read || read.expiresAt <= now) return false;
  return safeEqual(token.split('.')[2]!, mac(key, purpose, read.userId, state, read.expiresAt));
}

function mac(key: Buffer, purpose: string, userId: string, state: string, expiresAt: number): string {
  return createHmac('sha256', key).update(JSON.stringify([purpose, userId, state, expiresAt])).digest('base64url');
}
