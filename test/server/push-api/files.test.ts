import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTRPCClient, httpLink } from '@trpc/client';
import type { AppRouter } from '../../../server/http/trpc/app-router';
import { api, BASE_KEYS, createPush, secret, waitFor } from '../../support/http.js';
import { storedBlobs, storedContaining } from '../../support/stored-data.js';
import { createUserWithToken, startServer, type TestServer } from '../../support/server.js';

const MAX_FILE_BYTES = 64 * 1024;
let server: TestServer;
let owner: string;

beforeAll(async () => {
  server = await startServer({ MAX_FILE_BYTES: String(MAX_FILE_BYTES) });
  ({ token: owner } = await createUserWithToken(server, 'files@example.com'));
});
afterAll(() => server.stop());

function form(fields: Record<string, string>, files: { name: string; content: string | Buffer; type?: string; field?: string }[] = []) {
  const fd = new FormData();
  for (const [k, v] of Object.entries(fields)) fd.append(k, v);
  for (const f of files) fd.append(f.field ?? 'push[files][]', new Blob([typeof f.content === 'string' ? f.content : new Uint8Array(f.content)], { type: f.type ?? 'text/plain' }), f.name);
  return fd;
}

const pushFilesOnDisk = (token: string) => storedBlobs(server, token);
const allVaultFiles = () => storedBlobs(server);

async function download(url: string) {
  const res = await fetch(url);
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}

describe('file pushes (multipart push[files][])', () => {
  it('creates a file push, encrypts the files on disk, and serves them through the view’s links', async () => {
    const contentA = `file-A-plaintext ${secret('fa')} `.repeat(50);
    const contentB = Buffer.from(Array.from({ length: 3000 }, (_, i) => i % 256));
    const res = await api.post(server, '/api/v2/pushes', {
      token: owner,
      raw: form({ 'push[payload]': 'see attached', 'push[expire_after_views]': '3' }, [
        { name: 'notes.txt', content: contentA, type: 'text/plain' },
        { name: 'données 📎.bin', content: contentB, type: 'application/octet-stream' },
      ]),
    });
    expect(res.status).toBe(201);
    const token = res.body.url_token;
    expect(res.body.expire_after_views).toBe(3);
    expect(await pushFilesOnDisk(token)).toHaveLength(2);
    // Encrypted at rest: neither the content nor the file name is anywhere under DATA_DIR in clear.
    expect(await storedContaining(server, contentA.slice(0, 40))).toEqual([]);
    expect(await storedContaining(server, contentB.subarray(100, 400))).toEqual([]);
    expect(await storedContaining(server, 'données')).toEqual([]);
    expect(await storedContaining(server, 'notes.txt')).toEqual([]);

    const shown = await api.get(server, `/api/v2/pushes/${token}`);
    expect(shown.status).toBe(200);
    expect(shown.body.payload).toBe('see attached');
    expect(shown.body.views_remaining).toBe(2);
    const files = shown.body.files as { filename: string; content_type: string; url: string }[];
    expect(files.map((f) => Object.keys(f))).toEqual([
      ['filename', 'content_type', 'url'],
      ['filename', 'content_type', 'url'],
    ]);
    const byName = Object.fromEntries(files.map((f) => [f.filename, f]));
    expect(Object.keys(byName).sort()).toEqual(['données 📎.bin', 'notes.txt'].sort());
    expect(byName['notes.txt']!.content_type).toMatch(/^text\/plain/);
    expect(byName['notes.txt']!.url.startsWith(`${server.url}/`)).toBe(true);

    const a = await download(byName['notes.txt']!.url);
    expect(a.status).toBe(200);
    expect(a.bytes.toString()).toBe(contentA);
    expect(a.headers.get('content-disposition')).toContain('attachment');
    expect(a.headers.get('cache-control')).toContain('no-store');
    expect(a.headers.get('x-content-type-options')).toBe('nosniff');
    const b = await download(byName['données 📎.bin']!.url);
    expect(b.status).toBe(200);
    expect(b.bytes.equals(contentB)).toBe(true);
    expect(b.headers.get('content-disposition')).toContain(`filename*=UTF-8''${encodeURIComponent('données 📎.bin')}`);
    // Downloads count no view.
    expect((await api.get(server, `/api/v2/pushes/${token}/preview`)).status).toBe(200);
    const again = await api.get(server, `/api/v2/pushes/${token}`);
    expect(again.body.views_remaining).toBe(1);

    // A bad, missing, or re-signed ticket is refused.
    const u = new URL(byName['notes.txt']!.url);
    const badTicket = new URL(u);
    badTicket.searchParams.set('ticket', 'A'.repeat(43));
    expect((await download(badTicket.href)).status).toBe(403);
    const noTicket = new URL(u);
    noTicket.search = '';
    expect((await download(noTicket.href)).status).toBe(403);
    const laterExp = new URL(u);
    laterExp.searchParams.set('exp', String(Number(u.searchParams.get('exp')) + 1000));
    expect((await download(laterExp.href)).status).toBe(403);
    const pastExp = new URL(u);
    pastExp.searchParams.set('exp', String(Date.now() - 1000));
    expect((await download(pastExp.href)).status).toBe(403);
    // A ticket for one file does not open another.
    const otherFile = new URL(byName['données 📎.bin']!.url);
    otherFile.searchParams.set('ticket', u.searchParams.get('ticket')!);
    otherFile.searchParams.set('exp', u.searchParams.get('exp')!);
    expect((await download(otherFile.href)).status).toBe(403);

    // DELETE removes the files from disk; the links stop working.
    const del = await api.delete(server, `/api/v2/pushes/${token}`, { token: owner });
    expect(del.status).toBe(200);
    expect(await pushFilesOnDisk(token)).toEqual([]);
    expect((await download(byName['notes.txt']!.url)).status).toBe(404);
    const after = await api.get(server, `/api/v2/pushes/${token}`);
    expect(after.body).toMatchObject({ expired: true, payload: null, files: [] });
  });

  it('without a valid ticket, a real token and an unknown one get the same answer (existence is not revealed)', async () => {
    const res = await api.post(server, '/api/v2/pushes', { token: owner, raw: form({}, [{ name: 'x.txt', content: 'x' }]) });
    const real = await fetch(`${server.url}/p/${res.body.url_token}/files/abc?exp=1&ticket=nope`);
    const unknown = await fetch(`${server.url}/p/aaaaaaaaaaaaaaaaaaa/files/abc?exp=1&ticket=nope`);
    expect([real.status, await real.text()]).toEqual([unknown.status, await unknown.text()]);
    expect(real.status).toBe(403);
  });

  it('a file push may have no payload', async () => {
    const res = await api.post(server, '/api/v2/pushes', { token: owner, raw: form({}, [{ name: 'only.txt', content: 'just a file' }]) });
    expect(res.status).toBe(201);
    const shown = await api.get(server, `/api/v2/pushes/${res.body.url_token}`);
    expect(shown.body.files).toHaveLength(1);
    expect((await download(shown.body.files[0].url)).bytes.toString()).toBe('just a file');
  });

  it('names the files to their owner (create answer, active list, REST and tRPC); other pushes and other callers get no names', async () => {
    const res = await api.post(server, '/api/v2/pushes', {
      token: owner,
      raw: form({ 'push[name]': '' }, [
        { name: 'contract.pdf', content: 'pdf bytes', type: 'application/pdf' },
        { name: 'données 📎.txt', content: 'more' },
      ]),
    });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body)).toEqual([...BASE_KEYS, 'note', 'name', 'file_names']);
    expect(res.body.file_names).toEqual(['contract.pdf', 'données 📎.txt']);
    const text = await createPush(server, { payload: 'no files here' }, owner);

    const listed = await api.get(server, '/api/v2/pushes/active', { token: owner });
    const byToken = (list: Array<{ url_token: string }>, t: string) => list.find((r) => r.url_token === t) as Record<string, unknown> | undefined;
    expect(byToken(listed.body, res.body.url_token)?.file_names).toEqual(['contract.pdf', 'données 📎.txt']);
    expect(Object.keys(byToken(listed.body, text.url_token) ?? {})).toEqual([...BASE_KEYS, 'note', 'name']);
    const trpc = createTRPCClient<AppRouter>({ links: [httpLink({ url: `${server.url}/trpc`, headers: () => ({ authorization: `Bearer ${owner}` }) })] });
    const viaTrpc = await trpc.pushes.active.query({ page: 1 });
    expect(viaTrpc.find((r) => r.url_token === res.body.url_token)?.file_names).toEqual(['contract.pdf', 'données 📎.txt']);
    expect(viaTrpc.find((r) => r.url_token === text.url_token)).not.toHaveProperty('file_names');

    // Not in what others read of the push without viewing it (preview), nor in another account's list.
    const { token: stranger } = await createUserWithToken(server, 'files-stranger@example.com');
    expect(JSON.stringify((await api.get(server, `/api/v2/pushes/${res.body.url_token}/preview`, { token: stranger })).body)).not.toContain('contract');
    expect(JSON.stringify((await api.get(server, '/api/v2/pushes/active', { token: stranger })).body)).not.toContain('contract');
  });

  it('the view that uses up the last view still gets working links; later viewers get none', async () => {
    const res = await api.post(server, '/api/v2/pushes', { token: owner, raw: form({ 'push[expire_after_views]': '1' }, [{ name: 'last.txt', content: 'last view file' }]) });
    expect(res.status).toBe(201);
    const token = res.body.url_token;
    const last = await api.get(server, `/api/v2/pushes/${token}`);
    expect(last.body).toMatchObject({ expired: false, views_remaining: 0 });
    expect(last.body.files).toHaveLength(1);
    expect((await download(last.body.files[0].url)).bytes.toString()).toBe('last view file');
    const later = await api.get(server, `/api/v2/pushes/${token}`);
    expect(later.body).toMatchObject({ expired: true, files: [] });
  });

  it('at most 10 files: 11 is 422 on files and nothing stays on disk', async () => {
    const before = (await allVaultFiles()).length;
    const files = Array.from({ length: 11 }, (_, i) => ({ name: `f${i}.txt`, content: `content ${i}` }));
    const res = await api.post(server, '/api/v2/pushes', { token: owner, raw: form({ 'push[payload]': 'many' }, files) });
    expect(res.status).toBe(422);
    expect(res.body).toHaveProperty('files');
    expect(res.body.files.join(' ')).toMatch(/10/);
    expect((await allVaultFiles()).length).toBe(before);
    const ten = await api.post(server, '/api/v2/pushes', { token: owner, raw: form({}, files.slice(0, 10)) });
    expect(ten.status).toBe(201);
    expect(await pushFilesOnDisk(ten.body.url_token)).toHaveLength(10);
  });

  it('a file over MAX_FILE_BYTES is 413 with a JSON error, and nothing stays on disk', async () => {
    const before = (await allVaultFiles()).length;
    const res = await api.post(server, '/api/v2/pushes', {
      token: owner,
      timeoutMs: 5000,
      raw: form({ 'push[payload]': 'big' }, [
        { name: 'small.txt', content: 'small' },
        { name: 'big.bin', content: Buffer.alloc(MAX_FILE_BYTES + 1, 7) },
      ]),
    });
    expect(res.status).toBe(413);
    expect(typeof res.body.error).toBe('string');
    await waitFor(async () => (await allVaultFiles()).length === before, 2000, 'upload discarded');
    // Exactly the limit is fine.
    const ok = await api.post(server, '/api/v2/pushes', { token: owner, raw: form({}, [{ name: 'exact.bin', content: Buffer.alloc(MAX_FILE_BYTES, 7) }]) });
    expect(ok.status).toBe(201);
  });

  it('a file push without files, or files on a text push, is 422', async () => {
    const noFiles = await api.post(server, '/api/v2/pushes', { token: owner, json: { push: { kind: 'file', payload: 'x' } } });
    expect(noFiles.status).toBe(422);
    expect(noFiles.body).toHaveProperty('files');
    const textWithFiles = await api.post(server, '/api/v2/pushes', { token: owner, raw: form({ 'push[kind]': 'text', 'push[payload]': 'x' }, [{ name: 'a.txt', content: 'a' }]) });
    expect(textWithFiles.status).toBe(422);
    expect(textWithFiles.body).toHaveProperty('files');
  });

  it('multipart create also works on the .json path', async () => {
    const res = await api.post(server, '/api/v2/pushes.json', { token: owner, raw: form({ 'push[payload]': 'json suffix' }, [{ name: 'a.txt', content: 'suffix file' }]) });
    expect(res.status).toBe(201);
    const shown = await api.get(server, `/api/v2/pushes/${res.body.url_token}`);
    expect(shown.body.payload).toBe('json suffix');
    expect((await download(shown.body.files[0].url)).bytes.toString()).toBe('suffix file');
  });

  describe('FILES_REQUIRE_AUTH (default true): anonymous file pushes are 401', () => {
    it.each([
      ['multipart with a file', () => ({ raw: form({ 'push[payload]': 'x' }, [{ name: 'a.txt', content: 'anon file' }]) })],
      ['multipart with an empty file input (no filename: a plain field)', () => ({ raw: form({ 'push[payload]': 'x' }, [{ name: '', content: '' }]) })],
      [
        'multipart with an empty file input as browsers send it (filename="")',
        () => ({
          raw: [
            '--XyZ',
            'Content-Disposition: form-data; name="push[payload]"',
            '',
            'x',
            '--XyZ',
            'Content-Disposition: form-data; name="push[files][]"; filename=""',
            'Content-Type: application/octet-stream',
            '',
            '',
            '--XyZ--',
            '',
          ].join('\r\n'),
          contentType: 'multipart/form-data; boundary=XyZ',
        }),
      ],
      ['JSON with an empty files key', () => ({ json: { push: { payload: 'x', files: [] } } })],
      ['JSON with kind file', () => ({ json: { push: { payload: 'x', kind: 'file' } } })],
      ['form-encoded with push[files][]', () => ({ raw: 'push%5Bpayload%5D=x&push%5Bfiles%5D%5B%5D=', contentType: 'application/x-www-form-urlencoded' })],
    ])('%s', async (_label, body) => {
      const before = (await allVaultFiles()).length;
      const res = await api.post(server, '/api/v2/pushes', body());
      expect(res.status).toBe(401);
      expect(typeof res.body.error).toBe('string');
      expect((await allVaultFiles()).length).toBe(before);
    });
  });
});

describe('instance settings for files', () => {
  it('FILES_REQUIRE_AUTH=false lets anonymous callers attach files', async () => {
    const s = await startServer({ FILES_REQUIRE_AUTH: 'false' });
    try {
      const version = await api.get(s, '/api/v2/version');
      expect(version.body.features.pushes.file_attachments).toEqual({ enabled: true, requires_authentication: false });
      const res = await api.post(s, '/api/v2/pushes', { raw: form({}, [{ name: 'anon.txt', content: 'anon ok' }]) });
      expect(res.status).toBe(201);
    } finally {
      await s.stop();
    }
  });

  it('ENABLE_FILE_PUSHES=false refuses file pushes with 422 on kind', async () => {
    const s = await startServer({ ENABLE_FILE_PUSHES: 'false' });
    try {
      const { token } = await createUserWithToken(s, 'nofiles@example.com');
      const version = await api.get(s, '/api/v2/version');
      expect(version.body.features.pushes.file_attachments.enabled).toBe(false);
      const res = await api.post(s, '/api/v2/pushes', { token, raw: form({}, [{ name: 'a.txt', content: 'a' }]) });
      expect(res.status).toBe(422);
      expect(res.body.kind).toEqual(['File pushes are disabled.']);
      expect(await storedBlobs(s)).toEqual([]);
    } finally {
      await s.stop();
    }
  });
});
