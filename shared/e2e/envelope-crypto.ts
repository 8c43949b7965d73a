import {
  encodeHeader,
  envelopeLengthProblem,
  EnvelopeFormatError,
  HEADER_BYTES,
  MIN_PBKDF2_ITERATIONS,
  NONCE_PREFIX_BYTES,
  parseHeader,
  RECORD_BYTES,
  RECORD_PLAINTEXT_BYTES,
  SALT_BYTES,
  TAG_BYTES,
  type EnvelopeContent,
  type EnvelopeHeader,
} from './envelope-format.js';
import { PUSH_KEY_BYTES } from './link-key.js';

/**
 * Encryption and decryption of end-to-end envelopes with WebCrypto only (browsers, and Node's
 * globalThis.crypto), as streams of 64 KiB records so that no side holds a file whole.
 * docs/end-to-end-encryption.md is the specification; this is one implementation of it.
 */

type AesKey = Awaited<ReturnType<SubtleCrypto['importKey']>>;
const subtle = () => globalThis.crypto.subtle;
const HKDF_INFO = new TextEncoder().encode('secret-push e2e v1 content key');

/** Why an envelope could not be opened. */
export type EnvelopeErrorCode =
  /** Not an envelope this version reads (see the message). */
  | 'format'
  /** The envelope stops before its final record (a cut-off download or upload). */
  | 'truncated'
  /** The envelope needs a passphrase and none was given. */
  | 'passphrase_required'
  /** A record failed authentication: wrong key or passphrase, or altered, reordered or cut data. */
  | 'authentication';

export class EnvelopeError extends Error {
  override readonly name = 'EnvelopeError';
  constructor(
    readonly code: EnvelopeErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export interface EncryptOptions {
  /** Mixed into the key with PBKDF2-SHA-256: the link alone then does not decrypt. */
  passphrase?: string;
  iterations?: number;
  /** Fixed salt and nonce prefix, for test vectors only; otherwise fresh random bytes. */
  salt?: Uint8Array<ArrayBuffer>;
  noncePrefix?: Uint8Array<ArrayBuffer>;
}

/** The AES-256-GCM key of one envelope: HKDF-SHA-256 over the push key and the passphrase key. */
async function contentKey(pushKey: Uint8Array, header: EnvelopeHeader, passphrase: string | undefined): Promise<AesKey> {
  if (pushKey.length !== PUSH_KEY_BYTES) throw new EnvelopeError('format', `a push key has ${PUSH_KEY_BYTES} bytes`);
  let ikm = new Uint8Array(pushKey);
  if (header.iterations > 0) {
    if (passphrase === undefined || passphrase === '') throw new EnvelopeError('passphrase_required', 'This secret is protected by a passphrase.');
    const material = await subtle().importKey('raw', new TextEncoder().encode(passphrase.normalize('NFC')), 'PBKDF2', false, ['deriveBits']);
    const derived = new Uint8Array(await subtle().deriveBits({ name: 'PBKDF2', hash: 'SHA-256', salt: header.salt, iterations: header.iterations }, material, 256));
    ikm = new Uint8Array(PUSH_KEY_BYTES + derived.length);
    ikm.set(pushKey);
    ikm.set(derived, PUSH_KEY_BYTES);
  }
  const hkdf = await subtle().importKey('raw', ikm, 'HKDF', false, ['deriveKey']);
  return subtle().deriveKey({ name: 'HKDF', hash: 'SHA-256', salt: header.salt, info: HKDF_INFO }, hkdf, { name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt']);
}

/** Record i's nonce: the header's 7-byte prefix, i as 32-bit big-endian, 1 for the final record. */
function nonce(header: EnvelopeHeader, index: number, final: boolean): Uint8Array<ArrayBuffer> {
  if (index > 0xffff_ffff) throw new EnvelopeError('format', 'an envelope holds at most 2^32 records');
  const n = new Uint8Array(12);
  n.set(header.noncePrefix);
  new DataView(n.buffer).setUint32(NONCE_PREFIX_BYTES, index);
  n[11] = final ? 1 : 0;
  return n;
}

/** Plaintext (or ciphertext) arriving in pieces of any size, taken out in records. */
class ByteQueue {
  private parts: Uint8Array[] = [];
  length = 0;

  push(chunk: Uint8Array) {
    if (chunk.length === 0) return;
    this.parts.push(chunk);
    this.length += chunk.length;
  }

  take(n: number): Uint8Array<ArrayBuffer> {
    const out = new Uint8Array(n);
    let filled = 0;
    while (filled < n) {
      const head = this.parts[0]!;
      const used = Math.min(head.length, n - filled);
      out.set(head.subarray(0, used), filled);
      filled += used;
      if (used === head.length) this.parts.shift();
      else this.parts[0] = head.subarray(used);
    }
    this.length -= n;
    return out;
  }
}

/**
 * A stream that turns plaintext into an envelope: the header first, then records. A record is
 * written only once more plaintext follows it, so the last one can carry the final flag.
 */
export async function createEncryptStream(pushKey: Uint8Array, content: EnvelopeContent, options: EncryptOptions = {}): Promise<TransformStream<Uint8Array, Uint8Array>> {
  const random = (n: number) => globalThis.crypto.getRandomValues(new Uint8Array(n));
  const header = encodeHeader({
    content,
    iterations: options.passphrase ? (options.iterations ?? MIN_PBKDF2_ITERATIONS) : 0,
    salt: options.salt ?? random(SALT_BYTES),
    noncePrefix: options.noncePrefix ?? random(NONCE_PREFIX_BYTES),
  });
  const key = await contentKey(pushKey, header, options.passphrase);
  const pending = new ByteQueue();
  let index = 0;
  const seal = async (plain: Uint8Array<ArrayBuffer>, final: boolean) =>
    new Uint8Array(await subtle().encrypt({ name: 'AES-GCM', iv: nonce(header, index++, final), additionalData: header.bytes }, key, plain));
  return new TransformStream<Uint8Array, Uint8Array>({
    start(controller) {
      controller.enqueue(header.bytes);
    },
    async transform(chunk, controller) {
      pending.push(chunk);
      while (pending.length > RECORD_PLAINTEXT_BYTES) controller.enqueue(await seal(pending.take(RECORD_PLAINTEXT_BYTES), false));
    },
    async flush(controller) {
      controller.enqueue(await seal(pending.take(pending.length), true));
    },
  });
}

export interface DecryptStream {
  stream: TransformStream<Uint8Array, Uint8Array>;
  /** The header, once the first bytes have arrived. */
  header: Promise<EnvelopeHeader>;
}

/**
 * A stream that turns an envelope back into plaintext, record by record; it errors with an
 * EnvelopeError as soon as a record fails, and at the end when the final record is missing.
 */
export function createDecryptStream(pushKey: Uint8Array, passphrase?: string): DecryptStream {
  const pending = new ByteQueue();
  let header: EnvelopeHeader | undefined;
  let key: AesKey | undefined;
  let index = 0;
  let total = 0;
  let resolveHeader!: (h: EnvelopeHeader) => void;
  let rejectHeader!: (e: unknown) => void;
  const headerPromise = new Promise<EnvelopeHeader>((resolve, reject) => ((resolveHeader = resolve), (rejectHeader = reject)));
  headerPromise.catch(() => undefined);
  const open = async (sealed: Uint8Array<ArrayBuffer>, final: boolean) => {
    try {
      return new Uint8Array(await subtle().decrypt({ name: 'AES-GCM', iv: nonce(header!, index++, final), additionalData: header!.bytes }, key!, sealed));
    } catch {
      throw new EnvelopeError('authentication', header!.iterations > 0 ? 'The secret could not be decrypted: wrong passphrase or key, or the data was changed.' : 'The secret could not be decrypted: wrong key, or the data was changed.');
    }
  };
  const readHeader = async () => {
    try {
      header = parseHeader(pending.take(HEADER_BYTES));
      key = await contentKey(pushKey, header, passphrase);
      resolveHeader(header);
    } catch (e) {
      rejectHeader(e);
      throw e instanceof EnvelopeFormatError ? new EnvelopeError('format', e.message) : e;
    }
  };
  const stream = new TransformStream<Uint8Array, Uint8Array>({
    async transform(chunk, controller) {
      total += chunk.length;
      pending.push(chunk);
      if (!header && pending.length >= HEADER_BYTES) await readHeader();
      while (header && pending.length > RECORD_BYTES) controller.enqueue(await open(pending.take(RECORD_BYTES), false));
    },
    async flush(controller) {
      if (!header) {
        const e = new EnvelopeError('truncated', 'The secret ends before its header: the data is incomplete.');
        rejectHeader(e);
        throw e;
      }
      const problem = envelopeLengthProblem(total);
      // A stream cut at a record boundary looks well formed; its last record then fails as final.
      if (problem && pending.length < TAG_BYTES) throw new EnvelopeError('truncated', `The secret is incomplete: ${problem}.`);
      if (problem) throw new EnvelopeError('format', `The secret is not a well-formed envelope: ${problem}.`);
      controller.enqueue(await open(pending.take(pending.length), true));
    },
  });
  return { stream, header: headerPromise };
}

async function collect(stream: ReadableStream<Uint8Array>): Promise<Uint8Array<ArrayBuffer>> {
  const parts: Uint8Array[] = [];
  let length = 0;
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parts.push(value);
    length += value.length;
  }
  const out = new Uint8Array(length);
  let at = 0;
  for (const p of parts) (out.set(p, at), (at += p.length));
  return out;
}

function streamOf(bytes: Uint8Array): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      // In record-sized pieces, as a network would deliver them (and so each step stays small).
      for (let at = 0; at < bytes.length; at += RECORD_BYTES) controller.enqueue(bytes.subarray(at, at + RECORD_BYTES));
      controller.close();
    },
  });
}

/** A whole envelope for a small plaintext (a text push, a manifest). */
export async function encryptBytes(pushKey: Uint8Array, content: EnvelopeContent, plaintext: Uint8Array, options: EncryptOptions = {}): Promise<Uint8Array<ArrayBuffer>> {
  return collect(streamOf(plaintext).pipeThrough(await createEncryptStream(pushKey, content, options)));
}

/** Opens a whole envelope; `expected` refuses an envelope of another content type. */
export async function decryptBytes(pushKey: Uint8Array, envelope: Uint8Array, options: { passphrase?: string; expected?: EnvelopeContent } = {}): Promise<{ header: EnvelopeHeader; plaintext: Uint8Array<ArrayBuffer> }> {
  const { stream, header } = createDecryptStream(pushKey, options.passphrase);
  const plaintext = await collect(streamOf(envelope).pipeThrough(stream));
  const h = await header;
  if (options.expected && h.content !== options.expected) throw new EnvelopeError('format', `expected a ${options.expected} envelope, found ${h.content}`);
  return { header: h, plaintext };
}
