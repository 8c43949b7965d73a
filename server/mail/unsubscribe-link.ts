import { createHmac } from 'node:crypto';
import type { KeyRing } from '../crypto/key-ring.js';
import { safeEqual } from '../crypto/secret-hash.js';

/** The kinds of optional mail a link can stop: each is one of the account's receipt defaults. */
export const UNSUBSCRIBE_KINDS = ['opened', 'expiredUnopened', 'requestAnswered'] as const;
export type UnsubscribeKind = (typeof UNSUBSCRIBE_KINDS)[number];

/**
 * The token of a List-Unsubscribe link (RFC 2369, one-click per RFC 8058): `<account id>.<kind>.<MAC>`,
 * under a key derived for this purpose only, so it cannot stand for a reset or confirmation link
 * and can only do one thing: turn that kind of receipt off in the account's defaults. It needs
 * no sign-in and has no expiry (a mail read a year later must still be able to stop the next
 * one); turning a receipt off again changes nothing, so a replay is harmless.
 */
export function unsubscribeToken(keys: KeyRing, userId: string, kind: UnsubscribeKind): string {
  return `${Buffer.from(userId).toString('base64url')}.${kind}.${mac(keys, userId, kind)}`;
}

export function unsubscribeUrl(keys: KeyRing, origin: string, userId: string, kind: UnsubscribeKind): string {
  return `${origin}/mail/unsubscribe/${unsubscribeToken(keys, userId, kind)}`;
}

/** The account and kind a token stands for, when its MAC is right; else undefined. */
export function readUnsubscribeToken(keys: KeyRing, token: unknown): { userId: string; kind: UnsubscribeKind } | undefined {
  if (typeof token !== 'string' || token.length > 300) return undefined;
  const [id, kind, m, ...rest] = token.split('.');
  if (!id || !kind || !m || rest.length || !(UNSUBSCRIBE_KINDS as readonly string[]).includes(kind)) return undefined;
  const userId = Buffer.from(id, 'base64url').toString('utf8');
  if (!safeEqual(m, mac(keys, userId, kind))) return undefined;
  return { userId, kind: kind as UnsubscribeKind };
}

function mac(keys: KeyRing, userId: string, kind: string): string {
  return createHmac('sha256', keys.deriveKey('mail-unsubscribe')).update(JSON.stringify([userId, kind])).digest('base64url');
}
