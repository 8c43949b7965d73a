import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';
import { pooledRandomBytes } from './random-pool.js';

/**
 * AES-256-GCM under a ring of keys: the newest key encrypts, every key decrypts, so an operator
 * can rotate MASTER_KEY and keep the old one in MASTER_KEY_OLD until old data has expired.
 * Each ciphertext names its key by a short fingerprint.
 */
const IV_BYTES = 12;
const TAG_BYTES = 16;
const VERSION = 'v1';

export class DecryptionError extends Error {}

export function keyFingerprint(key: Buffer): string {
  return createHash('sha256').update('secret-push key id').update(key).digest('hex').slice(0, 8);
}

export class KeyRing {
  private readonly keys = new Map<string, Buffer>();
  readonly currentId: string;

  constructor(current: Buffer, old: Buffer[] = []) {
    for (const key of [current, ...old]) {
      if (key.length !== 32) throw new Error('AES-256 keys must be 32 bytes');
      this.keys.set(keyFingerprint(key), key);
    }
    this.currentId = keyFingerprint(current);
  }

  /** A key for another purpose (e.g. signing download tickets), derived from the current key. */
  deriveKey(purpose: string): Buffer {
    return Buffer.from(hkdfSync('sha256', this.key(this.currentId), Buffer.alloc(0), `secret-push ${purpose}`, 32));
  }

  private key(id: string): Buffer {
    const key = this.keys.get(id);
    if (!key) throw new DecryptionError(`no key with id ${id} in the key ring (was an old MASTER_KEY removed?)`);
    return key;
  }

  /** Encrypts to a compact string: `v1.<key id>.<base64url(iv | ciphertext | tag)>`. */
  seal(plain: string | Buffer): string {
    const iv = pooledRandomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key(this.currentId), iv);
    const body = Buffer.concat([iv, cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
    return `${VERSION}.${this.currentId}.${body.toString('base64url')}`;
  }

  open(sealed: string): Buffer {
    const [version, id, data] = sealed.split('.');
    if (version !== VERSION || !id || data === undefined) throw new DecryptionError('not a sealed value');
    const body = Buffer.from(data, 'base64url');
    if (body.length < IV_BYTES + TAG_BYTES) throw new DecryptionError('sealed value too short');
    const decipher = createDecipheriv('aes-256-gcm', this.key(id), body.subarray(0, IV_BYTES));
    decipher.setAuthTag(body.subarray(body.length - TAG_BYTES));
    try {
      return Buffer.concat([decipher.update(body.subarray(IV_BYTES, body.length - TAG_BYTES)), decipher.final()]);
    } catch {
      throw new DecryptionError('sealed value failed authentication');
    }
  }

  openText(sealed: string): string {
    return this.open(sealed).toString('utf8');
  }

  /** Whether a sealed value was written under an older key (for re-encryption on rotation). */
  isStale(sealed: string): boolean {
    return sealed.split('.')[1] !== this.currentId;
  }

  /**
   * A stream that encrypts a file: header `<key id (8 ascii)><iv>`, the ciphertext, then the
   * 16-byte tag. Files are streamed, never buffered whole. `aad` binds the ciphertext to a
   * context (a segment's file and place) that decryption must name again.
   */
  createEncryptStream(aad?: Buffer): Transform {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key(this.currentId), iv);
    if (aad) cipher.setAAD(aad);
    let headerSent = false;
    const header = Buffer.concat([Buffer.from(this.currentId, 'ascii'), iv]);
    return new Transform({
      transform(chunk: Buffer, _enc, done: TransformCallback) {
        const out = cipher.update(chunk);
        if (!headerSent) {
          headerSent = true;
          done(null, Buffer.concat([header, out]));
        } else done(null, out);
      },
      flush(done: TransformCallback) {
        const tail = Buffer.concat([cipher.final(), cipher.getAuthTag()]);
        done(null, headerSent ? tail : Buffer.concat([header, tail]));
      },
    });
  }

  /**
   * A stream that decrypts the ciphertext part of a file from byte `offset` on, without its
   * tag: GCM's counter mode, started at the counter block of `offset`. Unauthenticated, so for
   * end-to-end files only, whose every record the recipient authenticates (a range of one is
   * all a ranged download needs, and the whole-file tag cannot be checked without the whole file).
   */
  createRangeDecryptStream(header: Buffer, offset: number): Transform {
    const id = header.subarray(0, 8).toString('ascii');
    // GCM with a 96-bit IV: J0 = IV || 1, and the first block of text is encrypted with J0 + 1.
    const counter = Buffer.alloc(16);
    header.copy(counter, 0, 8, 8 + IV_BYTES);
    counter.writeUInt32BE((2 + Math.floor(offset / 16)) % 2 ** 32, 12);
    const decipher = createDecipheriv('aes-256-ctr', this.key(id), counter);
    // Into the block: its first bytes' keystream is used up and their text thrown away.
    if (offset % 16) decipher.update(Buffer.alloc(offset % 16));
    return new Transform({
      transform(chunk: Buffer, _enc, done: TransformCallback) {
        done(null, decipher.update(chunk));
      },
      flush(done: TransformCallback) {
        done(null, decipher.final());
      },
    });
  }

  static readonly fileHeaderBytes = 8 + IV_BYTES;
  static readonly fileTagBytes = TAG_BYTES;

  /**
   * A stream that decrypts the ciphertext part of a file (between header and tag), given the
   * header and the tag read from the file's ends. GCM verifies the tag at the end: a tampered
   * file errors the stream instead of finishing cleanly.
   */
  createDecryptStream(header: Buffer, tag: Buffer, aad?: Buffer): Transform {
    const id = header.subarray(0, 8).toString('ascii');
    const decipher = createDecipheriv('aes-256-gcm', this.key(id), header.subarray(8, 8 + IV_BYTES));
    decipher.setAuthTag(tag);
    if (aad) decipher.setAAD(aad);
    return new Transform({
      transform(chunk: Buffer, _enc, done: TransformCallback) {
        done(null, decipher.update(chunk));
      },
      flush(done: TransformCallback) {
        try {
          done(null, decipher.final());
        } catch {
          done(new DecryptionError('file failed authentication'));
        }
      },
    });
  }
}
