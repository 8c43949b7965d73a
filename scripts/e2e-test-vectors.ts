// Writes test/server/e2e/vectors.json: envelopes made with fixed keys, salts and nonce prefixes
// (docs/end-to-end-encryption.md). Run once with `npx tsx scripts/e2e-test-vectors.ts` and commit
// the output; the tests check that the implementation still produces and opens exactly these.
import { writeFileSync } from 'node:fs';
import { encodeBase64url } from '../shared/e2e/base64url.js';
import { encryptBytes } from '../shared/e2e/envelope-crypto.js';
import { encodeLinkKey } from '../shared/e2e/link-key.js';
import { vectorInputs, vectorPlaintext } from '../test/server/e2e/vector-inputs.js';

const out = [];
for (const v of vectorInputs) {
  const key = Uint8Array.from(Buffer.from(v.keyHex, 'hex'));
  const plaintext = vectorPlaintext(v);
  const envelope = await encryptBytes(key, v.content, plaintext, {
    passphrase: v.passphrase,
    iterations: v.iterations,
    salt: Uint8Array.from(Buffer.from(v.saltHex, 'hex')),
    noncePrefix: Uint8Array.from(Buffer.from(v.noncePrefixHex, 'hex')),
  });
  const digest = Buffer.from(await crypto.subtle.digest('SHA-256', envelope)).toString('hex');
  out.push({
    ...v,
    linkKey: await encodeLinkKey(key),
    envelopeBytes: envelope.length,
    envelopeSha256: digest,
    // Small envelopes are kept whole, so a third-party client can be checked against them.
    ...(envelope.length <= 4096 ? { envelopeBase64url: encodeBase64url(envelope) } : {}),
  });
}
writeFileSync(new URL('../test/server/e2e/vectors.json', import.meta.url), JSON.stringify(out, null, 2) + '\n');
console.log(`wrote ${out.length} vectors`);
