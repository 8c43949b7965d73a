import { createTRPCClient, httpLink, TRPCClientError } from '@trpc/client';
import { createHash, pbkdf2Sync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppRouter } from '../../../server/http/trpc/app-router';
import { decodeBase64url, encodeBase64url } from '../../../shared/e2e/base64url.js';
import { createEncryptStream, createDecryptStream, encryptBytes } from '../../../shared/e2e/envelope-crypto.js';
import { encodeLinkKey, newPushKey } from '../../../shared/e2e/link-key.js';
import { passphraseCheck } from '../../../shared/e2e/passphrase-check.js';
import { decryptPayload, encryptManifestPayload, encryptTextPayload } from '../../../shared/e2e/push-content.js';
import { api, BASE_KEYS, OWNER_KEYS, secret } from '../../support/http.js';
import { storedContaining, tamperWithBlob } from '../../support/stored-data.js';
import { createUserWithToken, startServer, type TestServer } from '../../support/server.js';

let server: TestServer;
let owner: string;

beforeAll(async () => {
  server = await startServer();
  ({ token: owner } = await createUserWithToken(server, 'e2e@example.com'));
});
afterAll(() => server.stop());

const trpc = (token?: string) =>
  createTRPCClient<AppRouter>({ links: [httpLink({ url: `${server.url}/trpc`, headers: () => (token ? { authorization: `Bearer ${token}` } : {}) })] });

function fileForm(fields: Record<string, string>, files: Uint8Array[]) {
  const fd = new FormData();
  for (const [k, v] of Object.entries(fields)) fd.append(k, v);
  files.forEach((f, i) => fd.append('push[files][]', new Blob([new Uint8Array(f)], { type: 'application/octet-stream' }), `file-${i + 1}.bin`));
  return fd;
}

/** What the server and its logs hold must include neither the plaintext nor the key. */
async function expectNeverSeen(plaintext: string | Buffer, linkKey: string) {
  expect(await storedContaining(server, plaintext)).toEqual([]);
  expect(await storedContaining(server, linkKey)).toEqual([]);
  const logs = server.logs.join('\n');
  expect(logs.includes(typeof plaintext === 'string' ? plaintext : plaintext.toString('latin1'))).toBe(false);
  expect(logs).not.toContain(linkKey);
}

describe('end-to-end pushes over REST v2', () => {
  it('stores the envelope as sent, marks the record, and counts views as for any push', async () => {
    const text = secret('e2e-text');
    const key = newPushKey();
    const payload = await encryptTextPayload(key, text);
    const res = await api.post(server, '/api/v2/pushes', { json: { push: { payload, end_to_end: true, expire_after_views: 2 } } });
    expect(res.status).toBe(201);
    expect(res.body.end_to_end).toBe(true);
    expect(Object.keys(res.body)).toEqual([...BASE_KEYS, 'end_to_end', ...OWNER_KEYS.slice(BASE_KEYS.length)]);

    const shown = await api.get(server, `/api/v2/pushes/${res.body.url_token}`);
    expect(shown.status).toBe(200);
    expect(shown.body).toMatchObject({ payload, end_to_end: true, views_remaining: 1 });
    expect(await decryptPayload(key, shown.body.payload)).toEqual({ content: 'text', text });
    await expectNeverSeen(text, await encodeLinkKey(key));

    const last = await api.get(server, `/api/v2/pushes/${res.body.url_token}`);
    expect(last.body).toMatchObject({ payload, views_remaining: 0, expired: false });
    const gone = await api.get(server, `/api/v2/pushes/${res.body.url_token}`);
    expect(gone.body).toMatchObject({ payload: null, expired: true });
  });

  it('leaves ordinary pushes as Password Pusher clients know them: no end_to_end key', async () => {
    const res = await api.post(server, '/api/v2/pushes', { json: { push: { payload: 'plain' } } });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body)).toEqual([...OWNER_KEYS]);
    const shown = await api.get(server, `/api/v2/pushes/${res.body.url_token}`);
    expect(shown.body.payload).toBe('plain');
    expect('end_to_end' in shown.body).toBe(false);
  });

  it('refuses what is not a well-formed envelope, naming the problem (422)', async () => {
    const key = newPushKey();
    const good = decodeBase64url(await encryptTextPayload(key, 'x'))!;
    const cases: [string, Record<string, unknown>, string, RegExp][] = [
      ['plain text', { payload: 'hunter2' }, 'payload', /base64url/],
      ['padding', { payload: encodeBase64url(good) + '=' }, 'payload', /base64url/],
      ['unknown version', { payload: encodeBase64url(Uint8Array.from([9, ...good.subarray(1)])) }, 'payload', /unknown envelope version 9/],
      ['cut off', { payload: encodeBase64url(good.subarray(0, good.length - 5)) }, 'payload', /ends before its first record/],
      ['file content as a text', { payload: encodeBase64url(await encryptBytes(key, 'file', new Uint8Array(4))) }, 'payload', /must be a text envelope/],
      ['a passphrase', { payload: encodeBase64url(good), passphrase: 'pw' }, 'passphrase', /must be the passphrase check of an end_to_end push \(43 base64url characters.*never the passphrase itself/],
      ['an empty text', { payload: await encryptTextPayload(key, '') }, 'payload', /^can't be blank$/],
      ['burn on guessing without a check', { payload: encodeBase64url(good), max_failed_passphrase_attempts: 3 }, 'max_failed_passphrase_attempts', /needs a passphrase check with an end_to_end push/],
      ['a URL push', { payload: encodeBase64url(good), kind: 'url' }, 'end_to_end', /not offered for URL pushes/],
      ['a QR push', { payload: encodeBase64url(good), kind: 'qr' }, 'end_to_end', /not offered for QR code pushes/],
    ];
    for (const [what, push, field, message] of cases) {
      const res = await api.post(server, '/api/v2/pushes', { json: { push: { ...push, end_to_end: true } } });
      expect(res.status, what).toBe(422);
      expect(res.body[field]?.join(' '), what).toMatch(message);
    }
  });

  it('takes end-to-end files: envelopes in, the same envelopes out through the view’s links', async () => {
    const key = newPushKey();
    const plain = Buffer.from(Array.from({ length: 200_000 }, (_, i) => (i * 31) % 256));
    const fileEnvelope = await encryptBytes(key, 'file', plain);
    const manifest = { message: 'see attached', files: [{ name: 'quarterly-secret.pdf', type: 'application/pdf', size: plain.length }] };
    const payload = await encryptManifestPayload(key, manifest);
    const res = await api.post(server, '/api/v2/pushes', {
      token: owner,
      raw: fileForm({ 'push[payload]': payload, 'push[kind]': 'file', 'push[end_to_end]': 'true' }, [fileEnvelope]),
    });
    expect(res.status).toBe(201);
    expect(res.body.end_to_end).toBe(true);
    const shown = await api.get(server, `/api/v2/pushes/${res.body.url_token}`);
    expect(await decryptPayload(key, shown.body.payload)).toEqual({ content: 'manifest', manifest });
    expect(shown.body.files).toHaveLength(1);
    expect(shown.body.files[0].filename).toBe('file-1.bin');
    const download = await fetch(shown.body.files[0].url);
    expect(download.status).toBe(200);
    const { stream } = createDecryptStream(key);
    const out: Uint8Array[] = [];
    for await (const chunk of download.body!.pipeThrough(stream) as unknown as AsyncIterable<Uint8Array>) out.push(chunk);
    expect(Buffer.concat(out).equals(plain)).toBe(true);
    await expectNeverSeen(plain.subarray(1000, 1400), await encodeLinkKey(key));
    expect(await storedContaining(server, 'quarterly-secret')).toEqual([]);
  });

  it('refuses a file that is not a file envelope, and stores nothing of it', async () => {
    const key = newPushKey();
    const payload = await encryptManifestPayload(key, { message: '', files: [{ name: 'a', type: '', size: 3 }] });
    const marker = secret('not-an-envelope');
    const res = await api.post(server, '/api/v2/pushes', {
      token: owner,
      raw: fileForm({ 'push[payload]': payload, 'push[kind]': 'file', 'push[end_to_end]': 'true' }, [new TextEncoder().encode(marker), await encryptBytes(key, 'text', new Uint8Array(3))]),
    });
    expect(res.status).toBe(422);
    expect(res.body.files.join(' ')).toMatch(/file 1 is not an end-to-end envelope/);
    expect(res.body.files.join(' ')).toMatch(/file 2 must be a file envelope \(this one holds text\)/);
    // A file push's payload must be the encrypted file list.
    const blank = await api.post(server, '/api/v2/pushes', {
      token: owner,
      raw: fileForm({ 'push[kind]': 'file', 'push[end_to_end]': 'true' }, [await encryptBytes(key, 'file', new Uint8Array(3))]),
    });
    expect(blank.status).toBe(422);
    expect(blank.body.payload.join(' ')).toMatch(/encrypted file list/);
  });

  it('streams a multi-record file envelope in and out unchanged (encrypted as it is produced)', async () => {
    const key = newPushKey();
    const size = 3 * 1_048_576 + 17;
    const source = new ReadableStream<Uint8Array>({
      start(c) {
        for (let at = 0; at < size; at += 100_000) c.enqueue(new Uint8Array(Math.min(100_000, size - at)).fill(at % 251));
        c.close();
      },
    });
    const encrypted = source.pipeThrough(await createEncryptStream(key, 'file'));
    const blob = await new Response(encrypted).blob();
    const payload = await encryptManifestPayload(key, { message: '', files: [{ name: 'big.bin', type: '', size }] });
    const fd = new FormData();
    fd.append('push[payload]', payload);
    fd.append('push[end_to_end]', 'true');
    fd.append('push[files][]', blob, 'file-1.bin');
    const res = await api.post(server, '/api/v2/pushes', { token: owner, raw: fd });
    expect(res.status).toBe(201);
    const shown = await api.get(server, `/api/v2/pushes/${res.body.url_token}`);
    const download = await fetch(shown.body.files[0].url);
    const { stream } = createDecryptStream(key);
    let total = 0;
    for await (const chunk of download.body!.pipeThrough(stream) as unknown as AsyncIterable<Uint8Array>) total += chunk.length;
    expect(total).toBe(size);
  });
});

describe('end-to-end files damaged at rest', () => {
  it('stream from the first byte (no verifying pass), and the recipient’s decryption refuses the damage', async () => {
    const key = newPushKey();
    const plain = Buffer.alloc(300_000, 7);
    const payload = await encryptManifestPayload(key, { message: '', files: [{ name: 'x', type: '', size: plain.length }] });
    const res = await api.post(server, '/api/v2/pushes', {
      token: owner,
      raw: fileForm({ 'push[payload]': payload, 'push[end_to_end]': 'true' }, [await encryptBytes(key, 'file', plain)]),
    });
    expect(res.status).toBe(201);
    await tamperWithBlob(server, res.body.url_token);
    const shown = await api.get(server, `/api/v2/pushes/${res.body.url_token}`);
    const download = await fetch(shown.body.files[0].url);
    // Not refused up front as an ordinary push's damaged file is (503): the envelope's records are the check.
    expect(download.status).toBe(200);
    const { stream } = createDecryptStream(key);
    const read = async () => {
      for await (const _ of download.body!.pipeThrough(stream) as unknown as AsyncIterable<Uint8Array>) void _;
    };
    await expect(read()).rejects.toThrow();
  });

  it('a download that fails part way is logged once as a JSON line, and nothing is appended to the file', async () => {
    const key = newPushKey();
    const plain = Buffer.alloc(300_000, 9);
    const payload = await encryptManifestPayload(key, { message: '', files: [{ name: 'y', type: '', size: plain.length }] });
    const res = await api.post(server, '/api/v2/pushes', {
      token: owner,
      raw: fileForm({ 'push[payload]': payload, 'push[end_to_end]': 'true' }, [await encryptBytes(key, 'file', plain)]),
    });
    await tamperWithBlob(server, res.body.url_token);
    const shown = await api.get(server, `/api/v2/pushes/${res.body.url_token}`);
    const logged = server.logs.length;
    const download = await fetch(shown.body.files[0].url);
    const declared = Number(download.headers.get('content-length'));
    // The at-rest check (GCM's tag, at the end of the stored file) fails after the bytes went out.
    const received = await download.arrayBuffer().then((b) => b.byteLength, () => -1);
    expect(received === -1 || received <= declared).toBe(true);
    await expect.poll(() => server.logs.slice(logged).some((l) => l.includes('A download failed after it had started'))).toBe(true);
    // The Node adapter's own report of it was plain text on stderr, outside the log.
    expect(server.logs.slice(logged).filter((l) => l.includes('download failed'))).toHaveLength(1);
  });
});

describe('the passphrase check of end-to-end pushes', () => {
  it('is PBKDF2 over the passphrase with a salt from the push key, as the document specifies (checked with node:crypto)', async () => {
    const key = Uint8Array.from({ length: 32 }, (_, i) => i);
    const salt = createHash('sha256').update('secret-push e2e v1 passphrase check').update(key).digest().subarray(0, 16);
    const expected = pbkdf2Sync(Buffer.from('Ångström'.normalize('NFC')), salt, 600_000, 32, 'sha256').toString('base64url');
    // The same passphrase in another normalisation gives the same check.
    expect(await passphraseCheck(key, 'A\u030Angstro\u0308m')).toBe(expected);
    expect(await passphraseCheck(key, 'Ångström')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await passphraseCheck(Uint8Array.from({ length: 32 }, () => 7), 'Ångström')).not.toBe(expected);
  });

  it('lets the server ask for the passphrase before a view is spent, and count wrong ones (burn on guessing)', async () => {
    const key = newPushKey();
    const text = secret('e2e-checked');
    const passphrase = `right ${secret('pp')}`;
    const check = await passphraseCheck(key, passphrase);
    const payload = await encryptTextPayload(key, text, { passphrase });
    const created = await api.post(server, '/api/v2/pushes', { json: { push: { payload, end_to_end: true, passphrase: check, max_failed_passphrase_attempts: 3, expire_after_views: 2 } } });
    expect(created.status).toBe(201);
    expect(created.body.passphrase).toBe('[FILTERED]');
    const token: string = created.body.url_token;
    const wrong = await api.get(server, `/p/${token}.json?passphrase=${await passphraseCheck(key, 'wrong')}`);
    expect(wrong.status).toBe(401);
    expect((await server.server.pushes.peek(token))!.views).toBe(0);
    const right = await api.get(server, `/p/${token}.json?passphrase=${check}`);
    expect(right.status).toBe(200);
    expect(await decryptPayload(key, right.body.payload, passphrase)).toEqual({ content: 'text', text });
    expect((await server.server.pushes.peek(token))!.views).toBe(1);
    // Two more wrong ones make three: the push is burned.
    for (let i = 0; i < 2; i++) expect((await api.get(server, `/p/${token}.json?passphrase=${await passphraseCheck(key, `wrong ${i}`)}`)).status).toBe(401);
    const burned = await api.get(server, `/p/${token}.json?passphrase=${check}`);
    expect(burned.body.expired).toBe(true);
    expect(burned.body.payload).toBeNull();
    await expectNeverSeen(text, await encodeLinkKey(key));
    expect(await storedContaining(server, passphrase)).toEqual([]);
    expect(server.logs.join('\n')).not.toContain(passphrase);
  });
});

describe('end-to-end pushes over tRPC', () => {
  it('creates and retrieves the same way, and refuses a bad envelope with the field named', async () => {
    const key = newPushKey();
    const text = secret('e2e-trpc');
    const payload = await encryptTextPayload(key, text, { passphrase: 'client side only' });
    const created = await trpc(owner).pushes.create.mutate({ payload, end_to_end: true });
    expect(created.end_to_end).toBe(true);
    const shown = await trpc().pushes.retrieve.mutate({ url_token: created.url_token });
    expect(shown.end_to_end).toBe(true);
    expect(await decryptPayload(key, shown.payload!, 'client side only')).toEqual({ content: 'text', text });
    await expectNeverSeen(text, await encodeLinkKey(key));
    expect(await storedContaining(server, 'client side only')).toEqual([]);

    const refused = await trpc().pushes.create.mutate({ payload: 'not an envelope', end_to_end: true }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(refused).toBeInstanceOf(TRPCClientError);
    expect((refused as TRPCClientError<AppRouter>).message).toMatch(/payload must be an end-to-end envelope/);
  });
});

describe('end-to-end pushes over the v1 JSON API (same service, same rule)', () => {
  it('takes the flag under `password`, shows the envelope unchanged, and refuses a bad one with the field named', async () => {
    const key = newPushKey();
    const text = secret('e2e-v1');
    const payload = await encryptTextPayload(key, text);
    const res = await api.post(server, '/p.json', { json: { password: { payload, end_to_end: true, expire_after_views: 1 } } });
    expect(res.status).toBe(201);
    expect(res.body.end_to_end).toBe(true);
    const shown = await api.get(server, `/p/${res.body.url_token}.json`);
    expect(shown.body).toMatchObject({ payload, end_to_end: true, views_remaining: 0 });
    expect(await decryptPayload(key, shown.body.payload)).toEqual({ content: 'text', text });
    await expectNeverSeen(text, await encodeLinkKey(key));

    const refused = await api.post(server, '/p.json', { json: { password: { payload: 'hunter2', end_to_end: true } } });
    expect(refused.status).toBe(422);
    expect(JSON.stringify(refused.body)).toMatch(/payload.*base64url/);
    // A v1 client that never heard of the flag gets an ordinary push, without the key.
    const plain = await api.post(server, '/p.json', { json: { password: { payload: 'plain v1' } } });
    expect('end_to_end' in plain.body).toBe(false);
  });
});
