import { once } from 'node:events';
import { Readable } from 'node:stream';
import { createServer } from 'node:http';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createDecryptStream, encryptBytes } from '../../../shared/e2e/envelope-crypto.js';
import { newPushKey } from '../../../shared/e2e/link-key.js';
import { decryptPayload, encryptManifestPayload } from '../../../shared/e2e/push-content.js';
import { finishSlices, sendSlices } from '../../../shared/e2e/sliced-upload-client.js';
import { api, request } from '../../support/http.js';
import { storedBlobs } from '../../support/stored-data.js';
import { createUserWithToken, startServer, storeEnv, type TestServer } from '../../support/server.js';
import { KeyRing } from '../../../server/crypto/key-ring.js';
import { loadMasterKey } from '../../../server/crypto/master-key.js';
import { createLogger } from '../../../server/logger.js';
import { FileVault } from '../../../server/storage/file-vault.js';

/**
 * Sliced uploads of end-to-end file pushes (server/pushes/sliced-upload.ts): a large envelope in
 * 8 MiB requests, for browsers that hold a request body in memory. Real server, both stores.
 */
const MiB = 1_048_576;
const SLICE = 8 * MiB;

let server: TestServer;
let owner: string;
let other: string;

beforeAll(async () => {
  server = await startServer();
  ({ token: owner } = await createUserWithToken(server, 'sliced@example.com'));
  ({ token: other } = await createUserWithToken(server, 'sliced-other@example.com'));
});
afterAll(() => server.stop());
afterEach(() => vi.useRealTimers());

/** A file envelope of `plainBytes` bytes of plaintext, with the push that carries it. */
async function sealedFile(plainBytes: number) {
  const key = newPushKey();
  const plain = Buffer.alloc(plainBytes);
  for (let i = 0; i < plainBytes; i++) plain[i] = (i * 2654435761) >>> 24;
  const envelope = Buffer.from(await encryptBytes(key, 'file', plain));
  const manifest = { message: '', files: [{ name: 'big.bin', type: 'application/octet-stream', size: plainBytes }] };
  const push = { kind: 'file', end_to_end: true, payload: await encryptManifestPayload(key, manifest), expire_after_views: 3 };
  return { key, plain, envelope, push, manifest };
}

const start = (s: TestServer, body: unknown, token?: string) => api.post(s, '/api/v2/uploads', { token, json: body });
function putSlice(s: TestServer, upload: string, file: number | string, offset: number | string | undefined, bytes: Buffer, token?: string) {
  const query = offset === undefined ? '' : `?offset=${offset}`;
  return request(s, 'PUT', `/api/v2/uploads/${upload}/files/${file}${query}`, { token, raw: bytes, contentType: 'application/octet-stream' });
}
const finish = (s: TestServer, upload: string, token?: string) => api.post(s, `/api/v2/uploads/${upload}/finish`, { token });
/** Every slice of file 0's envelope, in order, each expected to be stored. */
async function putAllSlices(s: TestServer, upload: string, envelope: Buffer, token?: string) {
  for (let at = 0; at < envelope.length; at += SLICE) expect((await putSlice(s, upload, 0, at, envelope.subarray(at, at + SLICE), token)).status).toBe(200);
}

async function downloaded(url: string, key: Uint8Array): Promise<Buffer> {
  const res = await fetch(url);
  expect(res.status).toBe(200);
  const { stream } = createDecryptStream(key);
  const out: Uint8Array[] = [];
  for await (const chunk of res.body!.pipeThrough(stream) as unknown as AsyncIterable<Uint8Array>) out.push(chunk);
  return Buffer.concat(out);
}

describe('sliced uploads of end-to-end file pushes (REST v2)', () => {
  it('takes a file in ordered slices, answers a retried slice as before, and creates the push only at the finish', async () => {
    const { key, plain, envelope, push, manifest } = await sealedFile(17 * MiB);
    const started = await start(server, { push, files: [{ size: envelope.length }] }, owner);
    expect(started.status).toBe(201);
    expect(started.body).toMatchObject({ slice_bytes: SLICE, files: [{ size: envelope.length, received: 0 }] });
    const upload: string = started.body.upload;
    expect(Date.parse(started.body.expires_at)).toBeGreaterThan(Date.now());

    const slice = (n: number) => envelope.subarray(n * SLICE, (n + 1) * SLICE);
    expect((await putSlice(server, upload, 0, 0, slice(0), owner)).body).toEqual({ file: 0, offset: 0, next_offset: SLICE });
    // A gap: the third slice before the second.
    const gap = await putSlice(server, upload, 0, 2 * SLICE, slice(2), owner);
    expect(gap.status).toBe(409);
    expect(gap.body.error).toMatch(new RegExp(`next slice starts at offset ${SLICE}`));
    expect((await putSlice(server, upload, 0, SLICE, slice(1), owner)).status).toBe(200);
    // The second slice again (its answer was lost): the same receipt, nothing rewritten.
    expect((await putSlice(server, upload, 0, SLICE, Buffer.alloc(SLICE, 0x55), owner)).body).toEqual({ file: 0, offset: SLICE, next_offset: 2 * SLICE });
    expect((await api.get(server, `/api/v2/uploads/${upload}`, { token: owner })).body.files).toEqual([{ size: envelope.length, received: 2 * SLICE }]);

    // Not viewable yet: there is no push, in the owner's list or anywhere.
    const early = await finish(server, upload, owner);
    expect(early.status).toBe(409);
    expect(early.body.error).toMatch(new RegExp(`File 0 is not complete: ${2 * SLICE} of its ${envelope.length} bytes`));
    expect((await api.get(server, '/api/v2/pushes/active', { token: owner })).body).toEqual([]);

    expect((await putSlice(server, upload, 0, 2 * SLICE, slice(2), owner)).body).toEqual({ file: 0, offset: 2 * SLICE, next_offset: envelope.length });
    // The finish rewrites nothing: what it stores is the note of the push it made (well under a
    // KiB), not the file's 17 MiB again. Counted at the server's own blob store.
    const blobs = server.server.store.blobs;
    const write = blobs.write.bind(blobs);
    let writtenAtFinish = 0;
    const counting = vi.spyOn(blobs, 'write').mockImplementation(async (...args) => {
      const bytes = await write(...args);
      writtenAtFinish += bytes;
      return bytes;
    });
    const done = await finish(server, upload, owner).finally(() => counting.mockRestore());
    expect(done.status).toBe(201);
    expect(writtenAtFinish).toBeLessThan(1024);
    expect(done.body).toMatchObject({ end_to_end: true, expire_after_views: 3 });
    expect((await api.get(server, '/api/v2/pushes/active', { token: owner })).body.map((p: { url_token: string }) => p.url_token)).toEqual([done.body.url_token]);

    const shown = await api.get(server, `/api/v2/pushes/${done.body.url_token}`);
    expect(await decryptPayload(key, shown.body.payload)).toEqual({ content: 'manifest', manifest });
    expect((await downloaded(shown.body.files[0].url, key)).equals(plain)).toBe(true);

    // The slices are the push's file (three sealed segments), beside a note of which push the upload made.
    expect((await storedBlobs(server)).length).toBe(4);
    expect(await storedBlobs(server, done.body.url_token)).toHaveLength(3);
    // Ranges across the segments' boundaries (206), as Firefox's recipient page fetches them.
    for (const [start, end] of [
      [SLICE - 10, SLICE + 10],
      [5, envelope.length],
      [2 * SLICE - 1, 2 * SLICE + 1],
      [SLICE, 2 * SLICE],
    ] as const) {
      const res = await fetch(shown.body.files[0].url, { headers: { range: `bytes=${start}-${end - 1}` } });
      expect([start, res.status, res.headers.get('content-range')]).toEqual([start, 206, `bytes ${start}-${end - 1}/${envelope.length}`]);
      expect(Buffer.from(await res.arrayBuffer()).equals(envelope.subarray(start, end)), `${start}-${end}`).toBe(true);
    }
    // The finish asked again (its answer lost): the same push, as it stands, and no second one.
    const again = await finish(server, upload, owner);
    expect(again.status).toBe(201);
    expect(again.body).toEqual({ ...done.body, views_remaining: 2, first_viewed_at: expect.any(String), updated_at: expect.any(String), days_remaining: expect.any(Number) });
    expect((await api.get(server, '/api/v2/pushes/active', { token: owner })).body).toHaveLength(1);
  });

  // These two move the clock hours ahead (a fake Date); on s3 the harness has the SDK sign with
  // the real clock (signWithRealClock), as s3rver refuses requests signed hours off.
  it('answers a finish asked again with the push it made, for its starter, for 15 minutes', async () => {
    const { envelope, push } = await sealedFile(1000);
    const upload = (await start(server, { push, files: [{ size: envelope.length }] }, owner)).body.upload;
    expect((await putSlice(server, upload, 0, 0, envelope, owner)).status).toBe(200);
    const made = await finish(server, upload, owner);
    expect(made.status).toBe(201);
    // Two retries at once (the first answer lost): both get that push; nobody else does.
    const retries = await Promise.all([finish(server, upload, owner), finish(server, upload, owner)]);
    expect(retries.map((r) => [r.status, r.body.url_token])).toEqual([
      [201, made.body.url_token],
      [201, made.body.url_token],
    ]);
    expect((await finish(server, upload, other)).status).toBe(403);
    expect((await finish(server, upload)).status).toBe(403);
    // As it stands: deleted meanwhile, the answer says so.
    expect((await api.delete(server, `/api/v2/pushes/${made.body.url_token}`, { token: owner })).status).toBe(200);
    expect((await finish(server, upload, owner)).body).toMatchObject({ url_token: made.body.url_token, expired: true, deleted: true });
    // Nothing else of the upload answers: it is finished.
    expect((await api.get(server, `/api/v2/uploads/${upload}`, { token: owner })).status).toBe(404);
    expect((await putSlice(server, upload, 0, 0, envelope, owner)).status).toBe(404);
    expect((await api.get(server, '/api/v2/pushes/expired', { token: owner })).body.filter((p: { url_token: string }) => p.url_token === made.body.url_token)).toHaveLength(1);

    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + 15 * 60_000 + 1000);
      const late = await finish(server, upload, owner);
      expect([late.status, late.body.error]).toEqual([404, expect.stringMatching(/No such upload/)]);
    } finally {
      vi.useRealTimers();
    }
    // The note of it went too: nothing of that upload is stored any more.
    expect((await finish(server, upload, owner)).status).toBe(404);
  });

  it('refuses bad slices with a 4xx that says what was expected', async () => {
    const { envelope, push } = await sealedFile(9 * MiB);
    const { upload } = (await start(server, { push, files: [{ size: envelope.length }] }, owner)).body;
    const last = envelope.subarray(SLICE);
    const cases: Array<[string, Promise<{ status: number; body: { error: string } }>, number, RegExp]> = [
      ['no offset', putSlice(server, upload, 0, undefined, envelope.subarray(0, SLICE), owner), 400, /offset must be a multiple of 8388608/],
      ['not on a slice boundary', putSlice(server, upload, 0, 5, envelope.subarray(5, SLICE + 5), owner), 400, /offset must be a multiple/],
      ['past the end', putSlice(server, upload, 0, 2 * SLICE, last, owner), 400, /below the file's size/],
      ['a file the upload does not have', putSlice(server, upload, 1, 0, last, owner), 404, /no file 1/],
      ['longer than a slice', putSlice(server, upload, 0, 0, envelope.subarray(0, SLICE + 1), owner), 413, /must be 8388608 bytes long; this one is 8388609/],
      ['a last slice cut short', putSlice(server, upload, 0, SLICE, last.subarray(1), owner), 400, new RegExp(`must be ${last.length} bytes long`)],
      ['an unknown upload', putSlice(server, 'A'.repeat(24), 0, 0, last, owner), 404, /No such upload/],
    ];
    for (const [what, answer, status, message] of cases) {
      const { status: got, body } = await answer;
      expect([what, got, body.error]).toEqual([what, status, expect.stringMatching(message)]);
    }
    // Nothing was stored by any of them: the upload still stands at 0.
    expect((await api.get(server, `/api/v2/uploads/${upload}`, { token: owner })).body.files[0].received).toBe(0);
  });

  it('answers a refused slice in JSON to a client that sends the whole slice before reading, and keeps the connection', async () => {
    const { envelope, push } = await sealedFile(9 * MiB);
    const { upload } = (await start(server, { push, files: [{ size: envelope.length }] }, owner)).body;
    const slice = envelope.subarray(SLICE);
    const { port, hostname } = new URL(server.url);
    const socket = connect(Number(port), hostname);
    await once(socket, 'connect');
    const received: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => received.push(chunk));
    const closed = once(socket, 'close');
    const errors: Error[] = [];
    socket.on('error', (e) => errors.push(e));
    const put = (path: string, body: Buffer, token = owner) =>
      Buffer.concat([
        Buffer.from(`PUT ${path} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/octet-stream\r\nContent-Length: ${body.length}\r\n\r\n`),
        body,
      ]);
    // A gap (409), an unknown upload (404) and a wrong token (401), each body sent whole before
    // anything is read, all on one kept-alive connection; then a GET on it.
    const written = socket.write(
      Buffer.concat([
        put(`/api/v2/uploads/${upload}/files/0?offset=${SLICE}`, slice),
        put(`/api/v2/uploads/${'A'.repeat(24)}/files/0?offset=0`, slice),
        put(`/api/v2/uploads/${upload}/files/0?offset=0`, slice, 'not-a-token'),
      ]),
    );
    if (!written) await once(socket, 'drain');
    socket.end(`GET /api/v2/uploads/${upload} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nAuthorization: Bearer ${owner}\r\nConnection: close\r\n\r\n`);
    await closed;
    expect(errors).toEqual([]);
    const answers = Buffer.concat(received).toString('latin1').split(/(?=HTTP\/1\.1 \d{3})/);
    expect(answers.map((a) => a.slice(0, 12))).toEqual(['HTTP/1.1 409', 'HTTP/1.1 404', 'HTTP/1.1 401', 'HTTP/1.1 200']);
    expect(answers[0]).toMatch(/"error":"[^"]*next slice starts at offset 0/);
    expect(answers[1]).toMatch(/No such upload/);
    expect(answers[2]).toMatch(/"error":/);
    expect(answers[3]).toMatch(/"received":0/);
  });

  it('closes the connection on a refused slice whose declared body is larger than a slice, rather than read it', async () => {
    const { port, hostname } = new URL(server.url);
    const socket = connect(Number(port), hostname);
    await once(socket, 'connect');
    const received: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => received.push(chunk));
    socket.on('error', () => {});
    const closed = once(socket, 'close');
    socket.write(`PUT /api/v2/uploads/${'A'.repeat(24)}/files/0?offset=0 HTTP/1.1\r\nHost: ${hostname}:${port}\r\nAuthorization: Bearer ${owner}\r\nContent-Length: ${64 * SLICE}\r\n\r\n`);
    socket.write(Buffer.alloc(MiB));
    await closed;
    const answer = Buffer.concat(received).toString('latin1');
    expect(answer).toMatch(/^HTTP\/1\.1 (404|413)/);
    expect(answer).toMatch(/connection: close/i);
  });

  it('checks the push at the start, as a create would, before a byte is sent', async () => {
    const { envelope, push } = await sealedFile(1000);
    const files = [{ size: envelope.length }];
    const cases: Array<[string, unknown, number, RegExp]> = [
      ['not end to end', { push: { ...push, end_to_end: false }, files }, 422, /end_to_end/],
      ['no encrypted file list', { push: { ...push, payload: undefined }, files }, 422, /payload/],
      ['a size no envelope has', { push, files: [{ size: 10 }] }, 422, /not a well-formed end-to-end envelope/],
      ['over the file size limit', { push, files: [{ size: 8 * 1024 * MiB }] }, 413, /larger than the limit/],
      ['no files', { push, files: [] }, 400, /A sliced upload starts with/],
      ['not JSON', 'x', 400, /A sliced upload starts with|must be JSON/],
    ];
    for (const [what, body, status, message] of cases) {
      const res = await start(server, body, owner);
      expect([what, res.status, res.text]).toEqual([what, status, expect.stringMatching(message)]);
    }
  });

  it("keeps an account's upload to that account", async () => {
    const { envelope, push } = await sealedFile(1000);
    const mine = (await start(server, { push, files: [{ size: envelope.length }] }, owner)).body.upload;
    expect((await putSlice(server, mine, 0, 0, envelope, other)).status).toBe(403);
    expect((await putSlice(server, mine, 0, 0, envelope)).status).toBe(403);
    expect((await finish(server, mine, other)).status).toBe(403);
    expect((await putSlice(server, mine, 0, 0, envelope, owner)).status).toBe(200);
    expect((await finish(server, mine, owner)).status).toBe(201);
  });

  it('gives an upload up on request, refuses it after six hours, and the sweep purges what was abandoned', async () => {
    const { envelope, push } = await sealedFile(2 * MiB);
    const files = [{ size: envelope.length }];
    // Uploads the tests above left unfinished go first (as below), so that what remains is the pushes' files.
    await server.server.store.blobs.removeOrphans(new Date(Date.now() + 1000), 100);
    const before = await storedBlobs(server);

    const given = (await start(server, { push, files }, owner)).body.upload;
    expect((await putSlice(server, given, 0, 0, envelope, owner)).status).toBe(200);
    expect((await api.delete(server, `/api/v2/uploads/${given}`, { token: owner })).status).toBe(204);
    expect((await finish(server, given, owner)).status).toBe(404);
    expect(await storedBlobs(server)).toEqual(before);

    const late = (await start(server, { push, files }, owner)).body.upload;
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 6 * 3_600_000 + 1000);
    const refused = await putSlice(server, late, 0, 0, envelope, owner);
    expect(refused.status).toBe(404);
    expect(refused.body.error).toMatch(/expired/);
    vi.useRealTimers();

    const abandoned = (await start(server, { push, files }, owner)).body.upload;
    expect((await putSlice(server, abandoned, 0, 0, envelope, owner)).status).toBe(200);
    expect((await storedBlobs(server)).length).toBe(before.length + 3); // two records, one slice
    // What the sweep does to blobs no push holds, a day after they were started.
    await server.server.store.blobs.removeOrphans(new Date(Date.now() + 1000), 100);
    expect(await storedBlobs(server)).toEqual(before);
    expect((await putSlice(server, abandoned, 0, 0, envelope, owner)).status).toBe(404);
  });
});

describe("the browsers' sliced upload client (shared/e2e/sliced-upload-client.ts)", () => {
  it('asks for the finish again when a proxy gave up on its answer, and gets the push the first one made', async () => {
    const { key, plain, envelope, push } = await sealedFile(SLICE + 1000);
    // A proxy in front of the server that, like one whose timeout ran out, answers the first
    // finish 504 after the server has done it.
    let finishesSeen = 0;
    const proxy = createServer(async (req, res) => {
      const parts: Buffer[] = [];
      for await (const chunk of req) parts.push(chunk as Buffer);
      const headers = Object.fromEntries(Object.entries(req.headers).filter(([name]) => name !== 'host' && name !== 'content-length')) as Record<string, string>;
      const answer = await fetch(`${server.url}${req.url}`, { method: req.method, headers, body: parts.length ? Buffer.concat(parts) : undefined });
      const body = Buffer.from(await answer.arrayBuffer());
      if (req.url!.endsWith('/finish') && ++finishesSeen === 1) {
        res.writeHead(504).end('gateway timeout');
        return;
      }
      res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/octet-stream' }).end(body);
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    try {
      const target = { uploadsUrl: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/api/v2/uploads`, headers: { Authorization: `Bearer ${owner}` } };
      const sent = await sendSlices(target, push, [new Blob([envelope])]);
      expect('upload' in sent).toBe(true);
      const finished = await finishSlices(target, (sent as { upload: string }).upload);
      expect(finished.status).toBe(201);
      expect(finishesSeen).toBe(2);
      const created = (await finished.json()) as { url_token: string };
      const mine = (await api.get(server, '/api/v2/pushes/active', { token: owner })).body.filter((p: { url_token: string }) => p.url_token === created.url_token);
      expect(mine).toHaveLength(1);
      const shown = await api.get(server, `/api/v2/pushes/${created.url_token}`);
      expect((await downloaded(shown.body.files[0].url, key)).equals(plain)).toBe(true);
    } finally {
      proxy.close();
    }
  });
});

describe('sliced uploads under the limits', () => {
  let limited: TestServer;
  beforeAll(async () => {
    limited = await startServer({ FILES_REQUIRE_AUTH: 'false', MAX_FILE_BYTES: String(20 * MiB), ANONYMOUS_STORAGE_MB_PER_IP_PER_DAY: '1', RATE_LIMIT_PER_MINUTE: '4' });
  });
  afterAll(() => limited.stop());

  it('applies the file size limit and the daily storage quota at the start; slices stored do not spend the rate limit', async () => {
    const { envelope, push } = await sealedFile(17 * MiB);
    // 1: over the file size limit.
    expect((await start(limited, { push, files: [{ size: 21 * MiB }] })).status).toBe(413);
    // 2: over the anonymous daily quota (1 MB), said before any slice is sent.
    const overQuota = await start(limited, { push, files: [{ size: envelope.length }] });
    expect(overQuota.status).toBe(429);
    expect(overQuota.body.error).toMatch(/stored too much in the last 24 hours/);
    expect(overQuota.headers.get('retry-after')).toMatch(/^\d+$/);
    // Anonymous callers may start uploads here (FILES_REQUIRE_AUTH off), within that quota.
    // 3 and 4: an account's upload (no quota) starts and finishes; its three slices in between are free.
    const { token } = await createUserWithToken(limited, 'limited@example.com');
    const { upload } = (await start(limited, { push, files: [{ size: envelope.length }] }, token)).body;
    await putAllSlices(limited, upload, envelope, token);
    expect((await finish(limited, upload, token)).status).toBe(201);
    // The fifth request counted is refused, as any other would be.
    expect((await api.get(limited, '/api/v2/pushes/active', { token })).status).toBe(429);
  });
});

describe('sliced uploads and the daily storage quota', () => {
  let quoted: TestServer;
  beforeAll(async () => {
    quoted = await startServer({ FILES_REQUIRE_AUTH: 'false', ANONYMOUS_STORAGE_MB_PER_IP_PER_DAY: '20' });
  });
  afterAll(() => quoted.stop());

  it('counts an upload from its start, finished or not, and a finished one once', async () => {
    const first = await sealedFile(12 * MiB);
    const a = await start(quoted, { push: first.push, files: [{ size: first.envelope.length }] });
    expect(a.status).toBe(201);
    // Never finished, the first upload's 12 MiB still count: a second 12 MiB is over the 20 MB a day.
    const b = await start(quoted, { push: first.push, files: [{ size: first.envelope.length }] });
    expect(b.status).toBe(429);
    expect(b.body.error).toMatch(/stored too much in the last 24 hours/);

    const { upload } = a.body as { upload: string };
    await putAllSlices(quoted, upload, first.envelope);
    expect((await finish(quoted, upload)).status).toBe(201);
    // Finished, it counts once (12 MiB and its record): 6 MiB more still fit in the day's 20.
    const second = await sealedFile(6 * MiB);
    expect((await start(quoted, { push: second.push, files: [{ size: second.envelope.length }] })).status).toBe(201);
  });

  it('refuses a start the store has no room for (507), before any slice is sent', async () => {
    const small = await startServer({ FILES_REQUIRE_AUTH: 'false', MAX_STORAGE_MB: '1' });
    try {
      const { envelope, push } = await sealedFile(2 * MiB);
      const refused = await start(small, { push, files: [{ size: envelope.length }] });
      expect(refused.status).toBe(507);
      expect(refused.body.error).toMatch(/storage is full/);
    } finally {
      await small.stop();
    }
  });
});

describe('sliced uploads given up and the daily storage quota', () => {
  let quoted: TestServer;
  beforeAll(async () => {
    quoted = await startServer({ FILES_REQUIRE_AUTH: 'false', ANONYMOUS_STORAGE_MB_PER_IP_PER_DAY: '20' });
  });
  afterAll(() => quoted.stop());

  it('gives the quota back for an upload given up (its slices are removed), once', async () => {
    const file = await sealedFile(12 * MiB);
    const body = { push: file.push, files: [{ size: file.envelope.length }] };
    const given = (await start(quoted, body)).body.upload as string;
    expect((await putSlice(quoted, given, 0, 0, file.envelope.subarray(0, SLICE))).status).toBe(200);
    // Given up twice at once (a retried DELETE): one 204, one 404, and the 12 MiB given back once.
    const statuses = (await Promise.all([api.delete(quoted, `/api/v2/uploads/${given}`), api.delete(quoted, `/api/v2/uploads/${given}`)])).map((r) => r.status).sort();
    expect(statuses).toEqual([204, 404]);
    const again = await start(quoted, body);
    expect(again.status).toBe(201);
    // That one counts, as any start does: a third is over the day's 20 MB.
    expect((await start(quoted, body)).status).toBe(429);
    expect((await api.delete(quoted, `/api/v2/uploads/${again.body.upload}`)).status).toBe(204);
    expect((await start(quoted, body)).status).toBe(201);
  });

  it('answers an upload started before slices were stored as segments 404 "start it again", and still lets it be given up', async () => {
    const legacy = await startServer({ FILES_REQUIRE_AUTH: 'false', ANONYMOUS_STORAGE_MB_PER_IP_PER_DAY: '20' });
    try {
      const file = await sealedFile(12 * MiB);
      const body = { push: file.push, files: [{ size: file.envelope.length }] };
      const upload = (await start(legacy, body)).body.upload as string;
      // Its record rewritten as the version before segments stored it (no URL token, no file
      // ids; slices under the upload's own storage id), with the start's quota reservation.
      const keys = new KeyRing(loadMasterKey(legacy.dataDir, (await storeEnv(legacy.dataDir)).MASTER_KEY, createLogger('error')));
      const { blobs } = legacy.server.store;
      const vault = new FileVault(blobs, keys);
      const sid = legacy.server.pushes.storageId(`upload:${upload}`);
      const parts: Buffer[] = [];
      for await (const chunk of await vault.read(sid, 'upload')) parts.push(chunk as Buffer);
      const { urlToken: _token, fileIds: _ids, ...older } = JSON.parse(Buffer.concat(parts).toString('utf8')) as Record<string, unknown>;
      expect(older.reservation).toBeDefined();
      await blobs.removeAll(sid);
      await vault.write(sid, 'upload', Readable.from([Buffer.from(JSON.stringify(older))]));
      await vault.write(sid, 'f0-000000', Readable.from([file.envelope.subarray(0, SLICE)]));

      const startAgain = /started before the server was upgraded and cannot be finished: start it again/;
      for (const answer of [await api.get(legacy, `/api/v2/uploads/${upload}`), await putSlice(legacy, upload, 0, SLICE, file.envelope.subarray(SLICE, 2 * SLICE)), await finish(legacy, upload)]) {
        expect(answer.status).toBe(404);
        expect(answer.body.error).toMatch(startAgain);
      }
      // Its client gives it up: its record and old slices go at once and the quota comes back.
      expect((await api.delete(legacy, `/api/v2/uploads/${upload}`)).status).toBe(204);
      expect(await storedBlobs(legacy)).toEqual([]);
      expect((await start(legacy, body)).status).toBe(201);
      expect((await start(legacy, body)).status).toBe(429);
    } finally {
      await legacy.stop();
    }
  });

  it('answers requests beside a give-up or a finish with what they found, never a 500', async () => {
    const { envelope, push } = await sealedFile(1000);
    const body = { push, files: [{ size: envelope.length }] };
    for (const ending of ['give up', 'finish'] as const) {
      for (let round = 0; round < 5; round++) {
        const upload = (await start(quoted, body)).body.upload as string;
        expect((await putSlice(quoted, upload, 0, 0, envelope)).status).toBe(200);
        const end = () => (ending === 'finish' ? finish(quoted, upload) : api.delete(quoted, `/api/v2/uploads/${upload}`));
        const answers = await Promise.all([end(), api.get(quoted, `/api/v2/uploads/${upload}`), end(), api.get(quoted, `/api/v2/uploads/${upload}`), putSlice(quoted, upload, 0, 0, envelope)]);
        for (const a of answers) expect([ending, a.status]).toEqual([ending, expect.toBeOneOf([200, 201, 204, 404])]);
      }
    }
    // A slice that came beside the give-up or the finish was not stored after it (as a slice of
    // no upload, left for the sweep).
    // (Segments are stored under the push's storage id: those of a finished upload are its push's file.)
    const segments = (await storedBlobs(quoted)).filter((name) => /\.\d{6}(\.bin)?$/.test(name));
    const pushless = [];
    for (const name of segments) if (!(await quoted.server.store.getPush(name.split('/').at(-2)!))) pushless.push(name);
    expect(pushless).toEqual([]);
  });
});
