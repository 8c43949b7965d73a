/**
 * The end-to-end envelope's framing (docs/end-to-end-encryption.md): a fixed 30-byte header,
 * then AES-256-GCM records of 64 KiB plaintext each. Everything the server may check without
 * the key lives here: the header's fields and whether a length is a possible envelope.
 * No Node or DOM APIs.
 */

export const ENVELOPE_VERSION = 1;
export const HEADER_BYTES = 30;
export const RECORD_PLAINTEXT_BYTES = 65_536;
export const TAG_BYTES = 16;
/** A full record as stored: 64 KiB of ciphertext and its tag. */
export const RECORD_BYTES = RECORD_PLAINTEXT_BYTES + TAG_BYTES;
export const SALT_BYTES = 16;
export const NONCE_PREFIX_BYTES = 7;
export const MIN_PBKDF2_ITERATIONS = 600_000;
export const MAX_PBKDF2_ITERATIONS = 10_000_000;

/** What the plaintext is, bound into every record through the header (the AAD). */
export const ENVELOPE_CONTENT = { text: 1, file: 2, manifest: 3 } as const;
export type EnvelopeContent = keyof typeof ENVELOPE_CONTENT;
export const KDF = { none: 0, pbkdf2Sha256: 1 } as const;

export interface EnvelopeHeader {
  version: number;
  content: EnvelopeContent;
  /** PBKDF2-SHA-256 iterations when a passphrase is mixed into the key; 0 without. */
  iterations: number;
  salt: Uint8Array<ArrayBuffer>;
  noncePrefix: Uint8Array<ArrayBuffer>;
  /** The header as sent: every record's additional authenticated data. */
  bytes: Uint8Array<ArrayBuffer>;
}

/** The envelope is not one this version can read; the message names what is wrong. */
export class EnvelopeFormatError extends Error {
  override readonly name = 'EnvelopeFormatError';
}

const contentNames = Object.fromEntries(Object.entries(ENVELOPE_CONTENT).map(([k, v]) => [v, k])) as Record<number, EnvelopeContent>;

export function encodeHeader(h: Omit<EnvelopeHeader, 'bytes' | 'version'>): EnvelopeHeader {
  const bytes = new Uint8Array(HEADER_BYTES);
  const view = new DataView(bytes.buffer);
  bytes[0] = ENVELOPE_VERSION;
  bytes[1] = ENVELOPE_CONTENT[h.content];
  bytes[2] = h.iterations > 0 ? KDF.pbkdf2Sha256 : KDF.none;
  view.setUint32(3, h.iterations);
  bytes.set(h.salt, 7);
  bytes.set(h.noncePrefix, 7 + SALT_BYTES);
  return parseHeader(bytes);
}

/** Reads and checks the first HEADER_BYTES of an envelope. */
export function parseHeader(data: Uint8Array): EnvelopeHeader {
  if (data.length < HEADER_BYTES) throw new EnvelopeFormatError(`the envelope is shorter than its ${HEADER_BYTES}-byte header`);
  // A copy into a fresh buffer (a Node Buffer's slice would share, and offset, its pool).
  const bytes = new Uint8Array(HEADER_BYTES);
  bytes.set(data.subarray(0, HEADER_BYTES));
  const view = new DataView(bytes.buffer);
  if (bytes[0] !== ENVELOPE_VERSION) throw new EnvelopeFormatError(`unknown envelope version ${bytes[0]} (this server reads version ${ENVELOPE_VERSION})`);
  const content = contentNames[bytes[1]!];
  if (!content) throw new EnvelopeFormatError(`unknown content type ${bytes[1]} in the envelope header`);
  const kdf = bytes[2];
  const iterations = view.getUint32(3);
  if (kdf === KDF.none) {
    if (iterations !== 0) throw new EnvelopeFormatError('the envelope header gives iterations without a passphrase KDF');
  } else if (kdf === KDF.pbkdf2Sha256) {
    if (iterations < MIN_PBKDF2_ITERATIONS || iterations > MAX_PBKDF2_ITERATIONS) {
      throw new EnvelopeFormatError(`PBKDF2 iterations must be between ${MIN_PBKDF2_ITERATIONS} and ${MAX_PBKDF2_ITERATIONS}`);
    }
  } else throw new EnvelopeFormatError(`unknown key derivation ${kdf} in the envelope header`);
  return {
    version: ENVELOPE_VERSION,
    content,
    iterations,
    salt: bytes.slice(7, 7 + SALT_BYTES),
    noncePrefix: bytes.slice(7 + SALT_BYTES, HEADER_BYTES),
    bytes,
  };
}

/**
 * Why an envelope of `totalBytes` cannot be well formed, or null when it can: after the header,
 * full records, then a final record of 1..64 KiB of plaintext (0 only when it is the only one).
 */
export function envelopeLengthProblem(totalBytes: number): string | null {
  const body = totalBytes - HEADER_BYTES;
  if (body < TAG_BYTES) return 'the envelope ends before its first record';
  const rest = body % RECORD_BYTES;
  if (rest === 0) return null;
  if (rest < TAG_BYTES) return 'the envelope ends inside a record';
  if (rest === TAG_BYTES && body > TAG_BYTES) return 'the envelope ends with an empty record after full ones';
  return null;
}

/** The plaintext size of a well-formed envelope of `totalBytes`. */
export function plaintextBytes(totalBytes: number): number {
  const body = totalBytes - HEADER_BYTES;
  return body - Math.ceil(body / RECORD_BYTES) * TAG_BYTES;
}

/** The envelope size for `plaintext` bytes (what the server will store for a file of that size). */
export function envelopeBytes(plaintext: number): number {
  return HEADER_BYTES + plaintext + Math.max(1, Math.ceil(plaintext / RECORD_PLAINTEXT_BYTES)) * TAG_BYTES;
}
