import { encodeLinkKey } from '../../../shared/e2e/link-key.js';
import { encryptManifestPayload } from '../../../shared/e2e/push-content.js';
import { request } from '../../support/http.js';
import type { TestServer } from '../../support/server.js';

/** A file of `size` bytes that is the same on every run, with `marker` written into it. */
export function fileBytes(size: number, marker: string): Buffer {
  const bytes = Buffer.alloc(size);
  for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 13 + (i >> 8)) & 0xff;
  bytes.write(marker, 1000);
  return bytes;
}

/**
 * An end-to-end file push made over REST v2 from `envelope` (as a sender's browser uploads it,
 * or damaged on purpose); its whole link, key included.
 */
export async function endToEndFilePush(server: TestServer, key: Uint8Array, name: string, size: number, envelope: Uint8Array, options: { passphrase?: string } = {}): Promise<string> {
  const form = new FormData();
  form.append('push[payload]', await encryptManifestPayload(key, { message: '', files: [{ name, type: 'application/octet-stream', size }] }, options));
  form.append('push[end_to_end]', 'true');
  form.append('push[files][]', new Blob([new Uint8Array(envelope)]), 'file-1.bin');
  const res = await request(server, 'POST', '/api/v2/pushes', { raw: form });
  if (res.status !== 201) throw new Error(`creating the push answered ${res.status}: ${res.text}`);
  return `${server.url}/p/${res.body.url_token}/r#${await encodeLinkKey(key)}`;
}
