import { execFileSync } from 'node:child_process';
import { closeSync, copyFileSync, writeFileSync, existsSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, statSync, truncateSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { Transform, type Readable } from 'node:stream';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, filesUnder, type ApiResponse } from '../../support/http.js';
import { createUserWithToken, startServer, type TestServer } from '../../support/server.js';
import { readSnapshot } from '../../support/snapshot.js';

/**
 * Fault: a real full disk. The data dir is a 2 MiB tmpfs (the tests run as root here); where
 * mounting is not permitted the test says so and injects ENOSPC into the journal's writes
 * instead (as test/server/storage/embedded/journal.test.ts does). On the full disk:
 * - creates, retrievals and a multipart file upload answer 503 with a clear JSON message
 *   (never 500, never a hang), the upload leaves no file behind;
 * - nothing stored is corrupted: earlier pushes keep their payloads, a refused view is not
 *   counted, db.json stays valid, the journal has no half line;
 * - a compaction on a nearly full disk fails without harm (the rotated journal is kept and
 *   replayed after a crash);
 * then space returns and the server recovers without a restart, and after a restart (and after a
 * simulated crash) everything acknowledged is there.
 */

const MASTER_KEY = '5e'.repeat(32);
const root = mkdtempSync(join(tmpdir(), 'secret-push-full-disk-'));
const dataDir = join(root, 'mnt');
mkdirSync(dataDir);
let mounted = false;
let mountError = '';
if (process.env.SECRET_PUSH_TEST_NO_TMPFS) mountError = 'not tried: SECRET_PUSH_TEST_NO_TMPFS is set';
else {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=2m,mode=0700', 'tmpfs', dataDir], { stdio: 'pipe' });
    mounted = true;
  } catch (e) {
    mountError = String((e as { stderr?: Buffer }).stderr ?? e).trim();
  }
}
const mode = mounted ? 'a real 2 MiB tmpfs' : `injected ENOSPC, no tmpfs (${mountError})`;

let server: TestServer | undefined;
afterAll(async () => {
  await server?.close().catch(() => {});
  if (mounted) {
    try {
      execFileSync('umount', [dataDir], { stdio: 'pipe' });
    } catch {
      execFileSync('umount', ['-l', dataDir], { stdio: 'pipe' });
    }
  }
  rmSync(root, { recursive: true, force: true });
});

beforeAll(() => {
  // eslint-disable-next-line no-console
  console.log(`full-disk test runs on ${mode}`);
});

const filler = join(dataDir, 'filler.bin');

/** Takes every free byte of the tmpfs (big chunks, then smaller). */
function fillDisk(): number {
  const fd = openSync(filler, 'a');
  let written = 0;
  try {
    for (const size of [1 << 20, 64 << 10, 4096, 512, 1]) {
      const chunk = Buffer.alloc(size, 0x5a);
      for (let i = 0; i < 10_000; i++) {
        try {
          const n = writeSync(fd, chunk);
          written += n;
          if (n < size) break;
        } catch (e) {
          if ((e as NodeJS.ErrnoException).code !== 'ENOSPC') throw e;
          break;
        }
      }
    }
  } finally {
    closeSync(fd);
  }
  return written;
}

/**
 * With no tmpfs: every journal write fails as a full disk would, and every uploaded file's
 * stream errors with ENOSPC after its first chunk (through the vault's own cleanup), until
 * `restore` is called.
 */
function injectEnospc(s: TestServer): () => void {
  type Vault = { write: (token: string, id: string, source: Readable) => Promise<number> };
  const deps = (s.server.pushes as unknown as { deps: { store: { journal: { handle: { write: unknown } } }; vault: Vault } }).deps;
  const journal = deps.store.journal;
  const handle = journal.handle;
  const realWrite = handle.write;
  const enospc = () => Object.assign(new Error('no space left on device'), { code: 'ENOSPC' });
  handle.write = async () => {
    throw enospc();
  };
  const realVaultWrite = deps.vault.write;
  deps.vault.write = (token, id, source) => {
    let chunks = 0;
    const failing = new Transform({
      transform(chunk, _enc, done) {
        done(++chunks > 1 ? enospc() : null, chunk);
      },
    });
    source.on('error', (e) => failing.destroy(e));
    return realVaultWrite.call(deps.vault, token, id, source.pipe(failing));
  };
  return () => {
    journal.handle.write = realWrite;
    deps.vault.write = realVaultWrite;
  };
}

async function checkJournalFiles(dir: string) {
  for (const name of ['journal.jsonl', 'journal.rotated.jsonl']) {
    const path = join(dir, name);
    if (!existsSync(path)) continue;
    const bytes = readFileSync(path);
    expect(bytes.includes(0), `${name} holds NUL bytes (a hole)`).toBe(false);
    const text = bytes.toString('utf8');
    expect(text === '' || text.endsWith('\n'), `${name} ends in a half line`).toBe(true);
    text
      .split('\n')
      .slice(0, -1)
      .forEach((line, i) => expect(() => JSON.parse(line), `${name} line ${i + 1}`).not.toThrow());
  }
  if (existsSync(join(dir, 'db.json'))) await expect(readSnapshot(join(dir, 'db.json')), 'db.json is a whole snapshot').resolves.toBeDefined();
}

function expect503(res: ApiResponse, what: string) {
  expect(res.status, `${what}: ${res.status} ${res.text}`).toBe(503);
  expect(res.body?.error, what).toMatch(/cannot store data right now.*(ENOSPC|no space)/i);
}

const big = (label: string, bytes: number) => `${label}:` + Buffer.alloc(bytes, label).toString('base64').slice(0, bytes);

describe(`fault: a full disk (${mode})`, () => {
  it('answers 503 without corrupting anything, survives a failed compaction, and recovers when space returns', async () => {
    server = await startServer({ DATA_DIR: dataDir, MASTER_KEY, LOG_LEVEL: 'silent' });
    const { token } = await createUserWithToken(server, 'disk@example.com');
    const url = server.url;
    const figures: Record<string, number | string> = { mode };

    /** Every push answered 201, with its payload and the views the test has had answered. */
    const acked = new Map<string, { payload: string; views: number; seen: number }>();
    const create = (payload: string, views = 5) =>
      api.post(url, '/api/v2/pushes', { json: { push: { payload, expire_after_views: views } }, token, timeoutMs: 15_000 }).then((res) => {
        if (res.status === 201) acked.set(res.body.url_token, { payload, views, seen: 0 });
        return res;
      });
    const view = async (t: string) => {
      const res = await api.get(url, `/api/v2/pushes/${t}`, { timeoutMs: 15_000 });
      if (res.status === 200 && res.body.payload !== null) acked.get(t)!.seen++;
      return res;
    };

    // Before the disk fills: pushes of 8 kB (a journal line larger than any page slack), one
    // view each of two of them, and a snapshot (a DELETE asks for the compaction).
    const early: string[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await create(big(`early${i}`, 8192), 3);
      expect(res.status).toBe(201);
      early.push(res.body.url_token);
    }
    expect((await view(early[0]!)).body.views_remaining).toBe(2);
    expect((await view(early[1]!)).body.views_remaining).toBe(2);
    const gone = (await create('deleted before the disk filled', 2)).body.url_token as string;
    expect((await api.delete(url, `/api/v2/pushes/${gone}`, { token })).status).toBe(200);
    acked.delete(gone);
    await new Promise((r) => setTimeout(r, 300));
    expect(existsSync(join(dataDir, 'db.json'))).toBe(true);
    const snapshotBefore = readFileSync(join(dataDir, 'db.json'), 'utf8');
    expect((await readSnapshot(join(dataDir, 'db.json'))).pushes![server.server.pushes.storageId(early[0]!)].views).toBe(1);

    // Fill: 100 kB pushes until the disk refuses one (bounded), then a filler file for the rest.
    let restoreWrites = () => {};
    let bigAcked = 0;
    let fillRefused = 0;
    if (mounted) {
      // Space to give back later: a filler file of 1.2 MiB first (the journal takes the rest).
      writeFileSync(filler, Buffer.alloc(1200 * 1024, 0x5a));
      for (let i = 0; i < 40 && fillRefused === 0; i++) {
        const res = await create(big(`fill${i}`, 100_000));
        if (res.status === 201) bigAcked++;
        else {
          expect503(res, 'create on a filling disk');
          fillRefused++;
        }
      }
      expect(fillRefused, 'the disk filled up').toBe(1);
      figures.fillerTopUpBytes = fillDisk();
    } else {
      restoreWrites = injectEnospc(server);
    }
    figures.bigPushesAcked = bigAcked;
    await checkJournalFiles(dataDir);

    // The disk is full: creates, views and an upload are refused with 503, nothing changes.
    let refused = fillRefused;
    const creates = await Promise.all(Array.from({ length: 5 }, (_, i) => create(big(`full${i}`, 8192))));
    for (const res of creates) expect503(res, 'create on a full disk');
    refused += creates.length;
    for (const t of [early[0]!, early[2]!]) {
      const res = await view(t);
      expect503(res, 'retrieval on a full disk');
      refused++;
    }
    const form = new FormData();
    form.append('push[payload]', 'see the file');
    form.append('push[files][]', new Blob([Buffer.alloc(300_000, 7)], { type: 'application/octet-stream' }), 'big.bin');
    const upload = await api.post(url, '/api/v2/pushes', { raw: form, token, timeoutMs: 15_000 });
    expect503(upload, 'file upload on a full disk');
    refused++;
    const leftFiles = existsSync(join(dataDir, 'files')) ? filesUnder(join(dataDir, 'files')) : [];
    expect(leftFiles, 'files left by a refused upload').toEqual([]);
    await checkJournalFiles(dataDir);
    expect(readFileSync(join(dataDir, 'db.json'), 'utf8')).toBe(snapshotBefore);
    // The server still answers what needs no write; it is alive, and says it should get no traffic.
    expect((await api.get(url, '/api/v2/version')).status).toBe(200);
    expect((await api.get(url, '/healthz')).status).toBe(200);
    if (mounted) {
      const ready = await api.get(url, '/readyz');
      expect(ready.status).toBe(503);
      expect(ready.body).toEqual({ status: 'not ready', reason: 'the store cannot be written' });
    }
    expect((await api.get(url, `/api/v2/pushes/${early[3]}/preview`)).status).toBe(200);

    // A compaction on a nearly full disk (a little space back: a DELETE fits, the snapshot does not).
    let rotatedAfterFailedCompaction = false;
    if (mounted) {
      truncateSync(filler, statSync(filler).size - 64 * 1024);
      const victim = early[5]!;
      expect((await api.delete(url, `/api/v2/pushes/${victim}`, { token, timeoutMs: 15_000 })).status).toBe(200);
      acked.delete(victim);
      await new Promise((r) => setTimeout(r, 500));
      rotatedAfterFailedCompaction = existsSync(join(dataDir, 'journal.rotated.jsonl'));
      await checkJournalFiles(dataDir);
      expect(rotatedAfterFailedCompaction, 'the rotated journal is kept after a failed compaction').toBe(true);
      expect(existsSync(join(dataDir, '.db.json.tmp')), 'no half snapshot left').toBe(false);
      await checkJournalFiles(dataDir);
      // db.json may only have been replaced by a complete snapshot; here it could not be written.
      expect(readFileSync(join(dataDir, 'db.json'), 'utf8')).toBe(snapshotBefore);
      // Fill again what the DELETE left.
      fillDisk();
      expect503(await create(big('again', 8192)), 'create on a full disk after the failed compaction');
      refused++;
    }
    figures.refused503 = refused;
    figures.rotatedAfterFailedCompaction = String(rotatedAfterFailedCompaction);

    // Space returns: the server recovers without a restart.
    if (mounted) {
      figures.fillerBytesFreed = statSync(filler).size;
      rmSync(filler);
    }
    else restoreWrites();
    if (mounted) expect((await api.get(url, '/readyz')).body).toEqual({ status: 'ready' });
    for (let i = 0; i < 5; i++) {
      const res = await create(big(`after${i}`, 8192));
      expect(res.status, `create after space returned: ${res.text}`).toBe(201);
    }
    // The refused views were not counted.
    expect((await view(early[0]!)).body.views_remaining).toBe(1);
    expect((await view(early[2]!)).body.views_remaining).toBe(2);
    const withFile = new FormData();
    withFile.append('push[payload]', 'see the file');
    withFile.append('push[files][]', new Blob([Buffer.alloc(100_000, 7)], { type: 'application/octet-stream' }), 'ok.bin');
    const uploaded = await api.post(url, '/api/v2/pushes', { raw: withFile, token, timeoutMs: 15_000 });
    expect(uploaded.status, uploaded.text).toBe(201);
    acked.set(uploaded.body.url_token, { payload: 'see the file', views: 5, seen: 0 });
    await checkJournalFiles(dataDir);

    /** Every acknowledged push is there with its payload and its views (owner reads count none). */
    const verify = async (base: string) => {
      for (const [t, p] of acked) {
        const res = await api.get(base, `/api/v2/pushes/${t}`, { token, timeoutMs: 15_000 });
        expect(res.status, `push ${t}: ${res.text}`).toBe(200);
        expect(res.body.payload, `payload of ${t}`).toBe(p.payload);
        expect(res.body.views_remaining, `views of ${t}`).toBe(p.views - p.seen);
      }
    };
    await verify(url);

    // A crash now (no close): a copy of the files as they are opens with everything acknowledged.
    const crashCopy = join(root, 'crash-copy');
    mkdirSync(crashCopy);
    for (const name of readdirSync(dataDir)) if (name !== 'secret-push.lock' && statSync(join(dataDir, name)).isFile()) copyFileSync(join(dataDir, name), join(crashCopy, name));
    const copy = await startServer({ DATA_DIR: crashCopy, MASTER_KEY, LOG_LEVEL: 'silent' });
    try {
      await verify(copy.url);
    } finally {
      await copy.close();
    }

    // A clean restart on the disk itself: close compacts (the leftover rotated journal too).
    await server.close();
    server = undefined;
    expect(existsSync(join(dataDir, 'journal.rotated.jsonl'))).toBe(false);
    await checkJournalFiles(dataDir);
    server = await startServer({ DATA_DIR: dataDir, MASTER_KEY, LOG_LEVEL: 'silent' });
    await verify(server.url);
    figures.acknowledgedPushes = acked.size;
    // eslint-disable-next-line no-console
    console.log('full-disk run:', JSON.stringify(figures));
  }, 60_000);
});
