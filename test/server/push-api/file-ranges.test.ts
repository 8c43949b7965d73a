import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encryptBytes } from '../../../shared/e2e/envelope-crypto.js';
import { newPushKey } from '../../../shared/e2e/link-key.js';
import { encryptManifestPayload } from '../../../shared/e2e/push-content.js';
import { api } from '../../support/http.js';
import { createUserWithToken, startServer, type TestServer } from '../../support/server.js';

/**
 * Ranged downloads of end-to-end files (PushService.downloadFile, FileVault.readRange): what
 * Firefox's recipient page fetches in bounded pieces. Decrypted from rest by counter mode at the
 * range's offset; the recipient authenticates the envelope's records. Real server, both stores.
 */
let server: TestServer;
let owner: string;
beforeAll(async () => {
  // A rate limit low enough that 20 downloads would pass it, were ranges counted.
  server = await startServer({ RATE_LIMIT_PER_MINUTE: '12' });
  ({ token: owner } = await createUserWithToken(server, 'ranges@example.com'));
});
afterAll(() => server.stop());

async function fileLink(endToEnd: boolean, bytes: Uint8Array): Promise<string> {
  const key = newPushKey();
  const form = new FormData();
  if (endToEnd) {
    form.append('push[payload]', await encryptManifestPayload(key, { message: '', files: [{ name: 'r.bin', type: '', size: 1 }] }));
    form.append('push[end_to_end]', 'true');
  }
  form.append('push[kind]', 'file');
  form.append('push[files][]', new Blob([new Uint8Array(bytes)]), 'file-1.bin');
  const created = await api.post(server, '/api/v2/pushes', { token: owner, raw: form });
  expect(created.status).toBe(201);
  return (await api.get(server, `/api/v2/pushes/${created.body.url_token}`)).body.files[0].url;
}

const fetchRange = async (url: string, range: string) => {
  const res = await fetch(url, { headers: { range } });
  return { status: res.status, contentRange: res.headers.get('content-range'), length: res.headers.get('content-length'), body: Buffer.from(await res.arrayBuffer()) };
};

describe('ranged downloads of end-to-end files', () => {
  it('answers 206 with exactly the bytes asked for, at any offset (inside a cipher block too), and does not spend the rate limit', async () => {
    const envelope = Buffer.from(await encryptBytes(newPushKey(), 'file', new Uint8Array(300_000).map((_, i) => (i * 7) % 251)));
    const url = await fileLink(true, envelope);
    const size = envelope.length;
    for (const [range, start, end] of [
      ['bytes=0-99', 0, 100],
      ['bytes=17-65552', 17, 65553],
      [`bytes=${size - 5}-`, size - 5, size],
      [`bytes=100-${size + 1000}`, 100, size],
    ] as const) {
      const got = await fetchRange(url, range);
      expect([range, got.status, got.contentRange, got.length]).toEqual([range, 206, `bytes ${start}-${end - 1}/${size}`, String(end - start)]);
      expect(got.body.equals(envelope.subarray(start, end)), range).toBe(true);
    }
    // Eight ranges in a row (with the other requests of this test, over the limit of 12 were they counted).
    for (let at = 0; at < 8 * 30_000; at += 30_000) expect((await fetchRange(url, `bytes=${at}-${at + 29_999}`)).status).toBe(206);
    // What cannot be a range of this file is answered with the whole file, as HTTP allows.
    for (const range of [`bytes=${size}-`, 'bytes=50-10', 'bytes=0-1,5-9', 'items=0-1']) {
      const whole = await fetchRange(url, range);
      expect([range, whole.status, whole.body.equals(envelope)]).toEqual([range, 200, true]);
    }
  });

  it('answers a range of an ordinary file with the whole file: its at-rest tag is checked first, which needs all of it', async () => {
    const bytes = Buffer.from('plain file bytes, '.repeat(1000));
    const whole = await fetchRange(await fileLink(false, bytes), 'bytes=0-9');
    expect([whole.status, whole.contentRange, whole.body.equals(bytes)]).toEqual([200, null, true]);
  });
});
