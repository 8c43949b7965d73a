import type { KeyRing } from '../../crypto/key-ring.js';

/**
 * A small value a browser carries for the server, sealed (AES-GCM under the master key): the
 * browser can neither read nor change it, and any instance with the same MASTER_KEY can open it,
 * so a flow started on one instance can finish on another without shared process memory. The
 * purpose is sealed in too, so a value sealed for one use (or any other sealed string of the
 * server) is never accepted for another; `expiresAt` bounds how long a copied value is good for.
 */
export function sealCookieValue(keys: KeyRing, purpose: string, value: object, expiresAt: Date): string {
  return keys.seal(JSON.stringify({ purpose, expiresAt: expiresAt.getTime(), value }));
}

/** The value, or undefined when it is missing, tampered with, for another purpose or expired. */
export function openCookieValue<T>(keys: KeyRing, purpose: string, sealed: string | undefined, now: Date): T | undefined {
  if (!sealed || sealed.length > 8192) return undefined;
  try {
    const parsed = JSON.parse(keys.openText(sealed)) as { purpose?: unknown; expiresAt?: unknown; value?: unknown };
    if (parsed.purpose !== purpose || typeof parsed.expiresAt !== 'number' || parsed.expiresAt <= now.getTime()) return undefined;
    return parsed.value as T;
  } catch {
    return undefined;
  }
}
