import { createDecipheriv, createHash, hkdfSync, pbkdf2Sync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { decodeBase64url, encodeBase64url } from '../../../shared/e2e/base64url.js';
import { createDecryptStream, decryptBytes, encryptBytes, EnvelopeError } from '../../../shared/e2e/envelope-crypto.js';
import { envelopeBytes, envelopeLengthProblem, HEADER_BYTES, parseHeader, plaintextBytes, RECORD_BYTES } from '../../../shared/e2e/envelope-format.js';
import { decodeLinkKey, encodeLinkKey, newPushKey } from '../../../shared/e2e/link-key.js';
import { decryptPayload, encryptManifestPayload, encryptTextPayload } from '../../../shared/e2e/push-content.js';
import { vectorInputs, vectorPlaintext } from './vector-inputs.js';
import vectorsJson from './vectors.json' with { type: 'json' };

interface Vector {
  name: string;
  passphrase?: string;
  keyHex: string;
  linkKey: string;
  envelopeBytes: number;
  envelopeSha256: string;
  envelopeBase64url?: string;
}
const vectors = vectorsJson as Vector[];
const hex = (s: string) => Uint8Array.from(Buffer.from(s, 'hex'));
const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

async function vectorEnvelope(name: string) {
  const input = vectorInputs.find((v) => v.name === name)!;
  return {
    input,
    envelope: await encryptBytes(hex(input.keyHex), input.content, vectorPlaintext(input), {
      passphrase: input.passphrase,
      iterations: input.iterations,
      salt: hex(input.saltHex),
      noncePrefix: hex(input.noncePrefixHex),
    }),
  };
}

async function expectEnvelopeError(p: Promise<unknown>, code: EnvelopeError['code']) {
  const e = await p.then(() => null, (err: unknown) => err);
  expect(e).toBeInstanceOf(EnvelopeError);
  expect((e as EnvelopeError).code).toBe(code);
}

describe('end-to-end envelope: committed test vectors', () => {
  it('has a committed vector for every input', () => {
    expect(vectors.map((v) => v.name)).toEqual(vectorInputs.map((v) => v.name));
  });

  for (const v of vectors) {
    it(`encrypts '${v.name}' to exactly the committed envelope and decrypts it back`, async () => {
      const { input, envelope } = await vectorEnvelope(v.name);
      expect(envelope.length).toBe(v.envelopeBytes);
      expect(await sha256(envelope)).toBe(v.envelopeSha256);
      if (v.envelopeBase64url) expect(encodeBase64url(envelope)).toBe(v.envelopeBase64url);
      const committed = v.envelopeBase64url ? decodeBase64url(v.envelopeBase64url)! : envelope;
      const { plaintext, header } = await decryptBytes(hex(v.keyHex), committed, { passphrase: v.passphrase });
      expect(Buffer.from(plaintext).equals(Buffer.from(vectorPlaintext(input)))).toBe(true);
      expect(header.content).toBe(input.content);
      expect(await encodeLinkKey(hex(v.keyHex))).toBe(v.linkKey);
    });
  }

  it('is implementable from the specification alone: node:crypto (not WebCrypto) opens the vectors', async () => {
    for (const name of ['text', 'text with passphrase', 'file of three records']) {
      const { input, envelope } = await vectorEnvelope(name);
      const header = envelope.subarray(0, HEADER_BYTES);
      const salt = header.subarray(7, 23);
      const iterations = Buffer.from(header).readUInt32BE(3);
      let ikm = Buffer.from(hex(input.keyHex));
      if (header[2] === 1) ikm = Buffer.concat([ikm, pbkdf2Sync(input.passphrase!.normalize('NFC'), salt, iterations, 32, 'sha256')]);
      const key = Buffer.from(hkdfSync('sha256', ikm, salt, 'secret-push e2e v1 content key', 32));
      const out: Buffer[] = [];
      const body = envelope.subarray(HEADER_BYTES);
      const records = Math.ceil(body.length / RECORD_BYTES);
      for (let i = 0; i < records; i++) {
        const rec = body.subarray(i * RECORD_BYTES, Math.min(body.length, (i + 1) * RECORD_BYTES));
        const iv = Buffer.alloc(12);
        Buffer.from(header.subarray(23, 30)).copy(iv);
        iv.writeUInt32BE(i, 7);
        iv[11] = i === records - 1 ? 1 : 0;
        const d = createDecipheriv('aes-256-gcm', key, iv);
        d.setAAD(header);
        d.setAuthTag(rec.subarray(rec.length - 16));
        out.push(d.update(rec.subarray(0, rec.length - 16)), d.final());
      }
      expect(Buffer.concat(out).equals(Buffer.from(vectorPlaintext(input)))).toBe(true);
    }
  });
});

describe('end-to-end envelope: refusals', () => {
  it('refuses a wrong key', async () => {
    const { envelope } = await vectorEnvelope('text');
    const wrong = hex(vectorInputs[0]!.keyHex);
    wrong[0]! ^= 1;
    await expectEnvelopeError(decryptBytes(wrong, envelope), 'authentication');
  });

  it('refuses a wrong or missing passphrase, and opens with the right one', async () => {
    const key = newPushKey();
    const envelope = await encryptBytes(key, 'text', new TextEncoder().encode('s3cret'), { passphrase: 'right one' });
    expect(parseHeader(envelope).iterations).toBeGreaterThanOrEqual(600_000);
    await expectEnvelopeError(decryptBytes(key, envelope, { passphrase: 'wrong one' }), 'authentication');
    await expectEnvelopeError(decryptBytes(key, envelope), 'passphrase_required');
    // The passphrase alone is not enough either: the link's key is mixed in.
    await expectEnvelopeError(decryptBytes(newPushKey(), envelope, { passphrase: 'right one' }), 'authentication');
    expect(new TextDecoder().decode((await decryptBytes(key, envelope, { passphrase: 'right one' })).plaintext)).toBe('s3cret');
  });

  it('refuses a truncated stream: inside a record, at a record boundary, inside the header', async () => {
    const { input, envelope } = await vectorEnvelope('file of three records');
    const key = hex(input.keyHex);
    await expectEnvelopeError(decryptBytes(key, envelope.subarray(0, envelope.length - 3)), 'authentication');
    await expectEnvelopeError(decryptBytes(key, envelope.subarray(0, HEADER_BYTES + 2 * RECORD_BYTES + 10)), 'truncated');
    // Cut after two full records: a well-formed length, but the last record was not the final one.
    const atBoundary = envelope.subarray(0, HEADER_BYTES + 2 * RECORD_BYTES);
    expect(envelopeLengthProblem(atBoundary.length)).toBeNull();
    await expectEnvelopeError(decryptBytes(key, atBoundary), 'authentication');
    await expectEnvelopeError(decryptBytes(key, envelope.subarray(0, HEADER_BYTES)), 'truncated');
    await expectEnvelopeError(decryptBytes(key, envelope.subarray(0, 10)), 'truncated');
  });

  it('refuses reordered and dropped records', async () => {
    const { input, envelope } = await vectorEnvelope('file of three records');
    const key = hex(input.keyHex);
    const h = envelope.subarray(0, HEADER_BYTES);
    const r0 = envelope.subarray(HEADER_BYTES, HEADER_BYTES + RECORD_BYTES);
    const r1 = envelope.subarray(HEADER_BYTES + RECORD_BYTES, HEADER_BYTES + 2 * RECORD_BYTES);
    const last = envelope.subarray(HEADER_BYTES + 2 * RECORD_BYTES);
    await expectEnvelopeError(decryptBytes(key, Buffer.concat([h, r1, r0, last])), 'authentication');
    await expectEnvelopeError(decryptBytes(key, Buffer.concat([h, r0, last])), 'authentication');
  });

  it('refuses a flipped bit anywhere: header, ciphertext, tag', async () => {
    const { input, envelope } = await vectorEnvelope('text');
    const key = hex(input.keyHex);
    for (const at of [7, 25, HEADER_BYTES, HEADER_BYTES + 10, envelope.length - 1]) {
      const changed = envelope.slice();
      changed[at]! ^= 0x01;
      await expectEnvelopeError(decryptBytes(key, changed), 'authentication');
    }
  });

  it('refuses unknown versions, content types and KDFs, and weak iteration counts, by name', async () => {
    const { input, envelope } = await vectorEnvelope('text');
    const key = hex(input.keyHex);
    const withByte = (at: number, value: number) => {
      const c = envelope.slice();
      c[at] = value;
      return c;
    };
    await expect(decryptBytes(key, withByte(0, 2))).rejects.toThrow(/unknown envelope version 2/);
    await expect(decryptBytes(key, withByte(1, 9))).rejects.toThrow(/unknown content type 9/);
    await expect(decryptBytes(key, withByte(2, 7))).rejects.toThrow(/unknown key derivation 7/);
    const weak = withByte(2, 1);
    new DataView(weak.buffer).setUint32(3, 1000);
    await expect(decryptBytes(key, weak, { passphrase: 'x' })).rejects.toThrow(/PBKDF2 iterations must be between 600000/);
    await expect(decryptPayload(key, '!!!')).rejects.toThrow(/not a base64url envelope/);
  });

  it('checks envelope lengths without the key, as the server does', () => {
    for (const plain of [0, 1, 65_535, 65_536, 65_537, 3 * 65_536, 3 * 65_536 + 1]) {
      expect(envelopeLengthProblem(envelopeBytes(plain))).toBeNull();
      expect(plaintextBytes(envelopeBytes(plain))).toBe(plain);
    }
    expect(envelopeLengthProblem(HEADER_BYTES + 15)).toMatch(/before its first record/);
    expect(envelopeLengthProblem(HEADER_BYTES + RECORD_BYTES + 5)).toMatch(/inside a record/);
    expect(envelopeLengthProblem(HEADER_BYTES + RECORD_BYTES + 16)).toMatch(/empty record/);
  });

  it('decrypts a stream that arrives in odd-sized pieces', async () => {
    const key = newPushKey();
    const plain = new Uint8Array(200_001).map((_, i) => (i * 7) % 256);
    const envelope = await encryptBytes(key, 'file', plain);
    const { stream } = createDecryptStream(key);
    const pieces = new ReadableStream<Uint8Array>({
      start(c) {
        for (let at = 0; at < envelope.length; at += 9_999) c.enqueue(envelope.subarray(at, at + 9_999));
        c.close();
      },
    });
    const out: Uint8Array[] = [];
    for await (const chunk of pieces.pipeThrough(stream) as unknown as AsyncIterable<Uint8Array>) out.push(chunk);
    expect(Buffer.concat(out).equals(Buffer.from(plain))).toBe(true);
  });
});

describe('end-to-end link keys and payloads', () => {
  it('round-trips a link key and tells a missing key from a damaged one', async () => {
    const key = newPushKey();
    const text = await encodeLinkKey(key);
    expect(text).toMatch(/^[A-Za-z0-9_-]{48}$/);
    const back = await decodeLinkKey(`#${text}`);
    expect(back.ok && Buffer.from(back.key).equals(Buffer.from(key))).toBe(true);
    expect(await decodeLinkKey('')).toEqual({ ok: false, problem: 'missing' });
    expect(await decodeLinkKey('#')).toEqual({ ok: false, problem: 'missing' });
    expect(await decodeLinkKey(text.slice(0, 40))).toEqual({ ok: false, problem: 'damaged' });
    const typo = text.slice(0, 10) + (text[10] === 'A' ? 'B' : 'A') + text.slice(11);
    expect(await decodeLinkKey(typo)).toEqual({ ok: false, problem: 'damaged' });
    expect(await decodeLinkKey(text.replace(/./, '+'))).toEqual({ ok: false, problem: 'damaged' });
  });

  it('opens text and manifest payloads, and refuses a payload of another content type', async () => {
    const key = newPushKey();
    expect(await decryptPayload(key, await encryptTextPayload(key, 'héllo'))).toEqual({ content: 'text', text: 'héllo' });
    const manifest = { message: 'see attached', files: [{ name: 'report.pdf', type: 'application/pdf', size: 12 }] };
    expect(await decryptPayload(key, await encryptManifestPayload(key, manifest))).toEqual({ content: 'manifest', manifest });
    const fileEnvelope = encodeBase64url(await encryptBytes(key, 'file', new Uint8Array(3)));
    await expect(decryptPayload(key, fileEnvelope)).rejects.toThrow(/cannot hold file content/);
  });

  it('base64url is strict: no padding, no other alphabet, canonical trailing bits', () => {
    expect(decodeBase64url('AQID')).toEqual(new Uint8Array([1, 2, 3]));
    expect(decodeBase64url('AQI=')).toBeNull();
    expect(decodeBase64url('AQ+/')).toBeNull();
    expect(decodeBase64url('AQJ')).toBeNull();
    expect(decodeBase64url('A')).toBeNull();
    const big = newPushKey();
    expect(decodeBase64url(encodeBase64url(big))).toEqual(big);
  });
});
