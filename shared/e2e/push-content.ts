import { decodeBase64url, encodeBase64url } from './base64url.js';
import { decryptBytes, encryptBytes, EnvelopeError, type EncryptOptions } from './envelope-crypto.js';

/**
 * What an end-to-end push's `payload` holds: a base64url envelope of either a text (content
 * `text`) or, for a file push, a manifest (content `manifest`) naming the files in the order
 * they were uploaded, so that file names never reach the server in clear.
 */
export interface E2eManifest {
  message: string;
  files: { name: string; type: string; size: number }[];
}

/**
 * Checks a decrypted manifest by hand rather than with zod: this module is bundled into the
 * recipient page and loaded by the extension on demand, where zod would weigh more than the rest.
 */
function asManifest(value: unknown): E2eManifest | null {
  if (typeof value !== 'object' || value === null) return null;
  const { message = '', files } = value as { message?: unknown; files?: unknown };
  if (typeof message !== 'string' || !Array.isArray(files) || files.length === 0) return null;
  const ok = files.every(
    (f: unknown) =>
      typeof f === 'object' && f !== null &&
      typeof (f as E2eManifest['files'][number]).name === 'string' && (f as { name: string }).name.length > 0 &&
      typeof (f as { type?: unknown }).type === 'string' &&
      Number.isSafeInteger((f as { size?: unknown }).size) && (f as { size: number }).size >= 0,
  );
  return ok ? { message, files: files.map((f: E2eManifest['files'][number]) => ({ name: f.name, type: f.type, size: f.size })) } : null;
}

export type OpenedPayload = { content: 'text'; text: string } | { content: 'manifest'; manifest: E2eManifest };

const utf8 = new TextEncoder();

export async function encryptTextPayload(pushKey: Uint8Array, text: string, options: EncryptOptions = {}): Promise<string> {
  return encodeBase64url(await encryptBytes(pushKey, 'text', utf8.encode(text), options));
}

export async function encryptManifestPayload(pushKey: Uint8Array, manifest: E2eManifest, options: EncryptOptions = {}): Promise<string> {
  return encodeBase64url(await encryptBytes(pushKey, 'manifest', utf8.encode(JSON.stringify(manifest)), options));
}

/** Opens a retrieved end-to-end payload (throws EnvelopeError). */
export async function decryptPayload(pushKey: Uint8Array, payload: string, passphrase?: string): Promise<OpenedPayload> {
  const envelope = decodeBase64url(payload);
  if (!envelope) throw new EnvelopeError('format', 'The secret is not a base64url envelope.');
  const { header, plaintext } = await decryptBytes(pushKey, envelope, { passphrase });
  const text = new TextDecoder('utf-8', { fatal: true }).decode(plaintext);
  if (header.content === 'text') return { content: 'text', text };
  if (header.content === 'manifest') {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new EnvelopeError('format', 'The file list of this secret is not JSON.');
    }
    const manifest = asManifest(json);
    if (!manifest) throw new EnvelopeError('format', 'The file list of this secret is not well formed.');
    return { content: 'manifest', manifest };
  }
  throw new EnvelopeError('format', `A payload cannot hold ${header.content} content.`);
}

/** Whether a passphrase is mixed into this payload's key (read from its header, no key needed). */
export function payloadNeedsPassphrase(payload: string): boolean {
  const envelope = decodeBase64url(payload);
  return envelope !== null && envelope.length > 2 && envelope[2] !== 0;
}
