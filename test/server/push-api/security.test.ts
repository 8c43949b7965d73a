import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createPush, filesUnder, secret, waitFor } from '../../support/http.js';
import { storedContaining } from '../../support/stored-data.js';
import { createUserWithToken, startServer, testStore, type TestServer } from '../../support/server.js';

describe('secrets stay secret', () => {
  let server: TestServer;
  let owner: string;

  beforeAll(async () => {
    server = await startServer();
    ({ token: owner } = await createUserWithToken(server, 'sec@example.com'));
  });
  afterAll(() => server.stop());

  it('payload, note, passphrase, push token and API token never reach the logs; payload, note and passphrase never reach the data dir in clear', async () => {
    const payload = secret('PAYLOAD');
    const note = secret('NOTE');
    const passphrase = secret('PASSPHRASE');
    const p = await createPush(server, { payload, note, passphrase, name: 'named', expire_after_views: 3 }, owner);
    const t = p.url_token as string;
    // Exercise every endpoint, including failures that carry the secrets in the URL.
    await api.get(server, `/api/v2/pushes/${t}?passphrase=${encodeURIComponent('wrong ' + passphrase)}`);
    await api.get(server, `/api/v2/pushes/${t}?passphrase=${encodeURIComponent(passphrase)}`);
    await api.get(server, `/api/v2/pushes/${t}.json?passphrase=${encodeURIComponent(passphrase)}`);
    await api.get(server, `/api/v2/pushes/${t}/preview`);
    await api.get(server, `/api/v2/pushes/${t}/preview.json`);
    await api.get(server, `/api/v2/pushes/${t}/audit`, { token: owner });
    await api.get(server, `/api/v2/pushes/${t}/audit?page=abc`, { token: owner });
    await api.get(server, '/api/v2/pushes/active', { token: owner });
    await api.post(server, '/api/v2/pushes', { raw: `{"push": {"payload": "${payload}"`, contentType: 'application/json' }); // malformed
    await api.post(server, '/api/v2/pushes', { json: { push: { payload, passphrase, expire_after_days: 0 } } }); // 422
    await api.get(server, `/p/${t}/r`);
    await api.get(server, `/p/${t}`);
    await api.delete(server, `/api/v2/pushes/${t}`, { token: owner });
    await api.get(server, `/api/v2/pushes/${t}`);

    expect(server.logs.length).toBeGreaterThan(0); // the request log is on (debug)
    const logText = server.logs.join('\n');
    for (const [what, value] of [
      ['payload', payload],
      ['note', note],
      ['passphrase', passphrase],
      ['push token', t],
      ['API token', owner],
    ]) {
      expect.soft(logText.includes(value!), `${what} in logs`).toBe(false);
    }
    for (const [what, value] of [
      ['payload', payload],
      ['note', note],
      ['passphrase', passphrase],
    ]) {
      expect.soft(await storedContaining(server, value!), `${what} in the store`).toEqual([]);
    }
    // API tokens are stored as hashes only.
    expect(await storedContaining(server, owner)).toEqual([]);
  });

  it('security headers on secret responses and on errors', async () => {
    const p = await createPush(server, { payload: 'headers' });
    const responses = [
      await api.get(server, `/api/v2/pushes/${p.url_token}`),
      await api.get(server, `/api/v2/pushes/${p.url_token}/preview`),
      await api.post(server, '/api/v2/pushes', { json: { push: { payload: 'x' } } }),
      await api.get(server, '/api/v2/pushes/active', { token: owner }),
      await api.get(server, '/api/v2/pushes/abcdefghijklmnopqrs'),
      await api.post(server, '/api/v2/pushes', { raw: '{', contentType: 'application/json' }),
      await api.get(server, '/api/v2/version'),
    ];
    for (const res of responses) {
      expect.soft(res.headers.get('x-robots-tag')).toBe('noindex, nofollow');
      expect.soft(res.headers.get('x-content-type-options')).toBe('nosniff');
    }
    for (const res of responses.slice(0, 4)) expect.soft(res.headers.get('cache-control')).toContain('no-store');
  });

  it('passphrases are never returned: "" when none, [FILTERED] when set, in every record', async () => {
    const pw = secret('pw');
    const p = await createPush(server, { payload: 'x', passphrase: pw, expire_after_views: 1 }, owner);
    const records = [
      p,
      (await api.get(server, `/api/v2/pushes/${p.url_token}`, { token: owner })).body,
      (await api.get(server, '/api/v2/pushes/active', { token: owner })).body.find((r: any) => r.url_token === p.url_token),
      (await api.get(server, `/api/v2/pushes/${p.url_token}?passphrase=${pw}`)).body,
      (await api.delete(server, `/api/v2/pushes/${p.url_token}`, { token: owner })).body,
      (await api.get(server, '/api/v2/pushes/expired', { token: owner })).body.find((r: any) => r.url_token === p.url_token),
    ];
    for (const r of records) expect(r.passphrase).toBe('[FILTERED]');
    expect(JSON.stringify(records)).not.toContain(pw);
    const none = await createPush(server, { payload: 'x' });
    expect(none.passphrase).toBe('');
    expect((await api.get(server, `/api/v2/pushes/${none.url_token}`)).body.passphrase).toBe('');
  });

  it('url tokens are 19 characters of [a-z0-9_-] and do not repeat', async () => {
    const tokens = (await Promise.all(Array.from({ length: 30 }, () => createPush(server, { payload: 'x' })))).map((r) => r.url_token as string);
    for (const t of tokens) expect(t).toMatch(/^[a-z0-9_-]{19}$/);
    expect(new Set(tokens).size).toBe(tokens.length);
    // Not sequential or time-based: no common prefix across the batch.
    const prefixes = new Set(tokens.map((t) => t.slice(0, 3)));
    expect(prefixes.size).toBeGreaterThan(20);
  });

  it('a one-view push: after its last view the sealed payload leaves the store (the journal and the snapshot after compaction; the database row)', async () => {
    const p = await createPush(server, { payload: secret('one-view'), expire_after_views: 1 });
    const sealed = (await server.server.store.getPush(server.server.pushes.storageId(p.url_token)))!.payload!;
    expect(await storedContaining(server, sealed)).not.toEqual([]);
    await api.get(server, `/api/v2/pushes/${p.url_token}`);
    await waitFor(async () => (await storedContaining(server, sealed)).length === 0, 5000, 'the sealed payload to leave the store');
  });
});

// The key file, file modes, the directory lock: the embedded store's data directory (PostgreSQL's
// key check and multi-instance rules are tested in test/server/scale-out/).
describe.skipIf(testStore === 'postgres')('master key and restarts (embedded data directory)', () => {
  it('without MASTER_KEY a key file is made with mode 0600, and the log says so without printing it', async () => {
    const server = await startServer();
    try {
      const path = join(server.dataDir, 'master.key');
      expect(existsSync(path)).toBe(true);
      expect(statSync(path).mode & 0o777).toBe(0o600);
      const key = readFileSync(path, 'utf8').trim();
      expect(key).toMatch(/^[0-9a-f]{64}$/);
      const logText = server.logs.join('\n');
      expect(logText).toMatch(/master\.key/);
      expect(logText).not.toContain(key);
    } finally {
      await server.stop();
    }
  });

  it('store files are owner-only (0600) even in an existing world-readable DATA_DIR: they name every URL token', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'secret-push-modes-'));
    chmodSync(dataDir, 0o755);
    try {
      const s = await startServer({ DATA_DIR: dataDir });
      try {
        const p = await createPush(s, { payload: 'x', expire_after_views: 1 });
        const fd = new FormData();
        fd.append('push[files][]', new Blob(['f']), 'f.txt');
        const { token } = await createUserWithToken(s, 'modes@example.com');
        expect((await api.post(s, '/api/v2/pushes', { token, raw: fd })).status).toBe(201);
        await api.get(s, `/api/v2/pushes/${p.url_token}`); // expiry: a compaction writes db.json
        await waitFor(() => existsSync(join(dataDir, 'db.json')), 5000, 'a snapshot');
        await waitFor(() => !readFileSync(join(dataDir, 'journal.jsonl'), 'utf8').includes(p.url_token), 5000, 'the compaction');
        const loose = filesUnder(dataDir).filter((f) => (statSync(f).mode & 0o077) !== 0);
        expect(loose).toEqual([]);
        // The vault's directories are named by URL token too.
        expect(statSync(join(dataDir, 'files')).mode & 0o077).toBe(0);
      } finally {
        await s.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('a push acknowledged with 201 survives a restart on the same DATA_DIR, with its views counted', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'secret-push-restart-'));
    try {
      const first = await startServer({ DATA_DIR: dataDir });
      const { token } = await createUserWithToken(first, 'restart@example.com');
      const p = await createPush(first, { payload: 'survives', note: 'kept', passphrase: 'pw', expire_after_views: 3 }, token);
      const files = new FormData();
      files.append('push[files][]', new Blob(['file survives']), 'f.txt');
      const fp = (await api.post(first, '/api/v2/pushes', { token, raw: files })).body;
      expect((await api.get(first, `/api/v2/pushes/${p.url_token}?passphrase=pw`)).body.views_remaining).toBe(2);
      await first.close();

      const second = await startServer({ DATA_DIR: dataDir });
      try {
        const shown = await api.get(second, `/api/v2/pushes/${p.url_token}?passphrase=pw`);
        expect(shown.body).toMatchObject({ payload: 'survives', views_remaining: 1, passphrase: '[FILTERED]' });
        // The API token still works, the note still decrypts.
        const active = await api.get(second, '/api/v2/pushes/active', { token });
        expect(active.body.find((r: any) => r.url_token === p.url_token)).toMatchObject({ note: 'kept' });
        const fshown = await api.get(second, `/api/v2/pushes/${fp.url_token}`);
        expect(Buffer.from(await (await fetch(fshown.body.files[0].url)).arrayBuffer()).toString()).toBe('file survives');
        expect((await api.get(second, `/api/v2/pushes/${p.url_token}/audit`, { token })).body.logs.map((l: any) => l.kind)).toEqual([
          'creation',
          'view',
          'view',
        ]);
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('a second server on the same DATA_DIR is refused while the first runs', async () => {
    const first = await startServer();
    try {
      await expect(startServer({ DATA_DIR: first.dataDir })).rejects.toThrow(/in use/);
    } finally {
      await first.stop();
    }
  });

  it('a wrong MASTER_KEY stops the start with a clear message (also without the key check); rotation keeps old data readable and links working', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'secret-push-wrongkey-'));
    const right = 'a1'.repeat(32);
    const wrong = 'b2'.repeat(32);
    try {
      const first = await startServer({ DATA_DIR: dataDir, MASTER_KEY: right });
      const { token } = await createUserWithToken(first, 'key@example.com');
      const once = await createPush(first, { payload: 'one view only', expire_after_views: 1 });
      const locked = await createPush(first, { payload: 'locked', passphrase: 'pw', expire_after_views: 1 });
      await createPush(first, { payload: 'x', note: 'a note' }, token);
      await first.close();

      await expect(startServer({ DATA_DIR: dataDir, MASTER_KEY: wrong })).rejects.toThrow(/MASTER_KEY does not match/);

      // Without the key check the start is still refused: the key URL tokens are hashed with is
      // sealed under MASTER_KEY too, and nothing could be found (or burned) without it.
      const { renameSync } = await import('node:fs');
      renameSync(join(dataDir, 'key-check'), join(dataDir, 'key-check.bak'));
      await expect(startServer({ DATA_DIR: dataDir, MASTER_KEY: wrong })).rejects.toThrow(/MASTER_KEY does not match/);
      renameSync(join(dataDir, 'key-check.bak'), join(dataDir, 'key-check'));

      // Rotation: the new key encrypts, the old one (MASTER_KEY_OLD) still decrypts.
      const rotated = 'c3'.repeat(32);
      const third = await startServer({ DATA_DIR: dataDir, MASTER_KEY: rotated, MASTER_KEY_OLD: right });
      let fresh: { url_token: string };
      try {
        expect((await api.get(third, `/api/v2/pushes/${once.url_token}`)).body).toMatchObject({ payload: 'one view only', expired: false });
        expect((await api.get(third, `/api/v2/pushes/${locked.url_token}?passphrase=pw`)).body).toMatchObject({ payload: 'locked' });
        fresh = await createPush(third, { payload: 'under the new key' });
      } finally {
        await third.close();
      }
      // The new push needs the new key: the old key alone is refused at start.
      await expect(startServer({ DATA_DIR: dataDir, MASTER_KEY: right })).rejects.toThrow(/MASTER_KEY does not match/);
      const fourth = await startServer({ DATA_DIR: dataDir, MASTER_KEY: rotated });
      try {
        expect((await api.get(fourth, `/api/v2/pushes/${fresh.url_token}`)).body).toMatchObject({ payload: 'under the new key' });
      } finally {
        await fourth.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
