import { decodeBase64url, encodeBase64url } from './base64url.js';

/**
 * The push key as the link's fragment carries it: 32 random bytes and a 4-byte check value
 * (the first bytes of SHA-256 over a label and the key), base64url, 48 characters. The check
 * lets a recipient page tell a damaged or cut-off link from a good one *before* the retrieval
 * counts a view; it reveals nothing useful about a 256-bit key. The fragment never reaches the
 * server: browsers do not send it.
 */
export const PUSH_KEY_BYTES = 32;
const CHECK_BYTES = 4;
export const LINK_KEY_CHARS = 48;
const CHECK_LABEL = new TextEncoder().encode('secret-push e2e v1 link check');

export function newPushKey(): Uint8Array<ArrayBuffer> {
  return globalThis.crypto.getRandomValues(new Uint8Array(PUSH_KEY_BYTES));
}

async function checkValue(key: Uint8Array): Promise<Uint8Array> {
  const input = new Uint8Array(CHECK_LABEL.length + key.length);
  input.set(CHECK_LABEL);
  input.set(key, CHECK_LABEL.length);
  return new Uint8Array(await globalThis.crypto.subtle.digest('SHA-256', input)).slice(0, CHECK_BYTES);
}

/** The fragment text (without `#`) for a push key. */
export async function encodeLinkKey(key: Uint8Array): Promise<string> {
  if (key.length !== PUSH_KEY_BYTES) throw new Error(`a push key has ${PUSH_KEY_BYTES} bytes`);
  const out = new Uint8Array(PUSH_KEY_BYTES + CHECK_BYTES);
  out.set(key);
  out.set(await checkValue(key), PUSH_KEY_BYTES);
  return encodeBase64url(out);
}

export type LinkKeyResult = { ok: true; key: Uint8Array<ArrayBuffer> } | { ok: false; problem: 'missing' | 'damaged' };

/** Reads a fragment (`#…` or without the `#`): the key, or whether it is missing or damaged. */
export async function decodeLinkKey(fragment: string): Promise<LinkKeyResult> {
  const text = fragment.startsWith('#') ? fragment.slice(1) : fragment;
  if (text === '') return { ok: false, problem: 'missing' };
  const bytes = text.length === LINK_KEY_CHARS ? decodeBase64url(text) : null;
  if (!bytes) return { ok: false, problem: 'damaged' };
  const key = bytes.slice(0, PUSH_KEY_BYTES);
  const check = await checkValue(key);
  for (let i = 0; i < CHECK_BYTES; i++) if (check[i] !== bytes[PUSH_KEY_BYTES + i]) return { ok: false, problem: 'damaged' };
  return { ok: true, key };
}
