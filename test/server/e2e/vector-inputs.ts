import type { EnvelopeContent } from '../../../shared/e2e/envelope-format.js';

/** The fixed inputs of the committed test vectors (scripts/e2e-test-vectors.ts writes vectors.json). */
export interface VectorInput {
  name: string;
  content: EnvelopeContent;
  keyHex: string;
  saltHex: string;
  noncePrefixHex: string;
  passphrase?: string;
  iterations?: number;
  /** UTF-8 text, or, for larger vectors, a length of the byte pattern i mod 251. */
  text?: string;
  patternBytes?: number;
}

const key = '000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f';
const salt = 'a0a1a2a3a4a5a6a7a8a9aaabacadaeaf';
const prefix = 'b0b1b2b3b4b5b6';

export const vectorInputs: VectorInput[] = [
  { name: 'text', content: 'text', keyHex: key, saltHex: salt, noncePrefixHex: prefix, text: 'correct horse battery staple ✓' },
  { name: 'empty text', content: 'text', keyHex: key, saltHex: salt, noncePrefixHex: prefix, text: '' },
  { name: 'text with passphrase', content: 'text', keyHex: key, saltHex: salt, noncePrefixHex: prefix, text: 'hunter2', passphrase: 'open sesame', iterations: 600_000 },
  { name: 'manifest', content: 'manifest', keyHex: key, saltHex: salt, noncePrefixHex: prefix, text: '{"message":"","files":[{"name":"a.txt","type":"text/plain","size":3}]}' },
  { name: 'file of exactly one record', content: 'file', keyHex: key, saltHex: salt, noncePrefixHex: prefix, patternBytes: 65_536 },
  { name: 'file of three records', content: 'file', keyHex: key, saltHex: salt, noncePrefixHex: prefix, patternBytes: 2 * 65_536 + 5 },
];

export function vectorPlaintext(v: VectorInput): Uint8Array<ArrayBuffer> {
  if (v.text !== undefined) return new TextEncoder().encode(v.text);
  const out = new Uint8Array(v.patternBytes ?? 0);
  for (let i = 0; i < out.length; i++) out[i] = i % 251;
  return out;
}
