import { decodeBase64url, encodeBase64url } from './base64url.js';
import { MIN_PBKDF2_ITERATIONS } from './envelope-format.js';
import { PUSH_KEY_BYTES } from './link-key.js';

/**
 * The passphrase check of an end-to-end push (docs/end-to-end-encryption.md, "Passphrase
 * check"): what the server is given in place of the passphrase, so that it can ask for it
 * *before* a view is spent and count wrong ones (burn on guessing), without learning it.
 *
 *   salt  = first 16 bytes of SHA-256(UTF-8("secret-push e2e v1 passphrase check") ‖ K)
 *   check = base64url(PBKDF2-HMAC-SHA-256(UTF-8(NFC(passphrase)), salt, 600,000, 32 bytes))
 *
 * The salt comes from the push key, which the server never has: it cannot test guesses against
 * a check, and someone holding the link and a stored check must pay the same 600,000 iterations
 * per guess as against the envelopes themselves.
 */
const LABEL = new TextEncoder().encode('secret-push e2e v1 passphrase check');
export const PASSPHRASE_CHECK_CHARS = 43;
const CHECK_ITERATIONS = MIN_PBKDF2_ITERATIONS;

export async function passphraseCheck(pushKey: Uint8Array, passphrase: string): Promise<string> {
  if (pushKey.length !== PUSH_KEY_BYTES) throw new Error(`a push key has ${PUSH_KEY_BYTES} bytes`);
  if (passphrase === '') throw new Error('an empty passphrase is no passphrase: it has no check');
  const subtle = globalThis.crypto.subtle;
  const labelled = new Uint8Array(LABEL.length + pushKey.length);
  labelled.set(LABEL);
  labelled.set(pushKey, LABEL.length);
  const salt = new Uint8Array(await subtle.digest('SHA-256', labelled)).slice(0, 16);
  const material = await subtle.importKey('raw', new TextEncoder().encode(passphrase.normalize('NFC')), 'PBKDF2', false, ['deriveBits']);
  const bits = await subtle.deriveBits({ name: 'PBKDF2', hash: 'SHA-256', salt, iterations: CHECK_ITERATIONS }, material, 256);
  return encodeBase64url(new Uint8Array(bits));
}

/** Whether a text has the form of a passphrase check (what the server accepts as an end-to-end push's passphrase). */
export function isPassphraseCheck(text: string): boolean {
  return text.length === PASSPHRASE_CHECK_CHARS && decodeBase64url(text)?.length === 32;
}
