import { createHmac } from 'node:crypto';

/**
 * RFC 6238 TOTP written out with node:crypto, as an authenticator app computes it, so the tests
 * check the server against an implementation that is not the library it uses.
 */
export function base32Decode(text: string): Buffer {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const ch of text.replace(/[\s=]/g, '').toUpperCase()) {
    const index = alphabet.indexOf(ch);
    if (index < 0) throw new Error(`not base32: ${ch}`);
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

/** The HOTP value (RFC 4226) of `key` at `counter`, `digits` long. */
export function hotp(key: Buffer, counter: number, digits = 6): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac('sha1', key).update(message).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  const binary = mac.readUInt32BE(offset) & 0x7fffffff;
  return String(binary % 10 ** digits).padStart(digits, '0');
}

/** The 30-second time step of `ms`. */
export const timeStep = (ms = Date.now()) => Math.floor(ms / 1000 / 30);

/** The code an app shows for the base32 `secret` at time step `step` (default: now). */
export function totpCode(secret: string, step = timeStep()): string {
  return hotp(base32Decode(secret), step);
}
