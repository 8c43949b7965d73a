import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDecryptStream, encryptBytes } from '../../../shared/e2e/envelope-crypto.js';
import { newPushKey } from '../../../shared/e2e/link-key.js';
import { encryptManifestPayload } from '../../../shared/e2e/push-content.js';
import { api, request } from '../../support/http.js';
import { startObjectStore, type TestObjectStore } from '../../support/object-store.js';
import { createTestDatabase } from '../../support/postgres-database.js';
import { storedBlobs } from '../../support/stored-data.js';
import { startServer, testStore, type TestServer } from '../../support/server.js';
import { spawnNode } from '../../support/spawn-server.js';

let s3: TestObjectStore;
beforeAll(async () => {
  s3 = await startObjectStore();
});
afterAll(async () => {
  await s3?.remove();
});

async function storeMigrate(args: string[], env: Record<string, string>): Promise<{ code: number | string; output: string }> {
  const run = spawnNode(['scripts/cli.mjs', 'store-migrate', ...args], env);
  return { code: await run.exited, output: run.output() };
}

function fileForm(content: string) {
  const fd = new FormData();
  fd.append('push[payload]', 'see attached');
  fd.append('push[files][]', new Blob([content], { type: 'text/plain' }), 'notes.txt');
  return fd;
}

// Each test runs the CLI three or four times (a process each) beside servers: 12–21 s alone,
// past vitest's 30 s when the shared machine is loaded.
describe('npm run store:migrate -- --files-to s3|store', { timeout: 90_000 }, () => {
  it('moves files into the bucket and back, verified, re-runnable, and they download after each move', async () => {
    const { env: bucketEnv } = await s3.bucket();
    let server: TestServer = await startServer({ FILE_STORAGE: 'store', FILES_REQUIRE_AUTH: 'false' });
    const { dataDir, databaseUrl } = server;
    const created = await api.post(server, '/api/v2/pushes', { raw: fileForm('moved between stores'), json: undefined });
    expect(created.status).toBe(201);
    const token = created.body.url_token as string;
    await server.close();

    // The CLI reads the same environment as the server (MASTER_KEY only satisfies the config: files move as ciphertext).
    const cliEnv = { DATA_DIR: dataDir, ...(databaseUrl ? { DATABASE_URL: databaseUrl, MASTER_KEY: 'not-used-files-move-as-ciphertext' } : {}), ...bucketEnv };
    const toS3 = await storeMigrate(['--files-to', 's3'], cliEnv);
    expect(toS3.output).toMatch(/Moved 1 files .* into the bucket/);
    expect(toS3.code).toBe(0);
    const again = await storeMigrate(['--files-to', 's3'], cliEnv);
    expect(again.output).toMatch(/Moved 0 files/);
    expect(again.code).toBe(0);

    server = await startServer({ ...bucketEnv, DATA_DIR: dataDir, FILES_REQUIRE_AUTH: 'false' });
    expect(await storedBlobs(server, token)).toHaveLength(1);
    let shown = await api.get(server, `/api/v2/pushes/${token}?view_count=false`);
    expect(await (await fetch((shown.body.files as { url: string }[])[0]!.url)).text()).toBe('moved between stores');
    await server.close();

    const back = await storeMigrate(['--files-to', 'store'], cliEnv);
    expect(back.output).toMatch(/Moved 1 files .* out of the bucket/);
    expect(back.code).toBe(0);
    server = await startServer({ FILE_STORAGE: 'store', DATA_DIR: dataDir, FILES_REQUIRE_AUTH: 'false' });
    try {
      expect(await storedBlobs(server, token)).toHaveLength(1);
      shown = await api.get(server, `/api/v2/pushes/${token}`);
      expect(await (await fetch((shown.body.files as { url: string }[])[0]!.url)).text()).toBe('moved between stores');
    } finally {
      await server.stop();
    }
  });

  it('moves a sliced upload in progress with its slices: the client goes on against the bucket, and its push moves back', async () => {
    const MiB = 1_048_576;
    const SLICE = 8 * MiB;
    const { env: bucketEnv } = await s3.bucket();
    let server: TestServer = await startServer({ FILE_STORAGE: 'store', FILES_REQUIRE_AUTH: 'false' });
    const { dataDir, databaseUrl } = server;
    const key = newPushKey();
    const plain = Buffer.alloc(9 * MiB, 5);
    const envelope = Buffer.from(await encryptBytes(key, 'file', plain));
    const push = { kind: 'file', end_to_end: true, payload: await encryptManifestPayload(key, { message: '', files: [{ name: 'big.bin', type: '', size: plain.length }] }) };
    const started = await api.post(server, '/api/v2/uploads', { json: { push, files: [{ size: envelope.length }] } });
    expect(started.status).toBe(201);
    const upload = started.body.upload as string;
    const putSlice = (s: TestServer, at: number) =>
      request(s, 'PUT', `/api/v2/uploads/${upload}/files/0?offset=${at}`, { raw: envelope.subarray(at, at + SLICE), contentType: 'application/octet-stream' });
    expect((await putSlice(server, 0)).status).toBe(200);
    await server.close();

    const cliEnv = { DATA_DIR: dataDir, ...(databaseUrl ? { DATABASE_URL: databaseUrl, MASTER_KEY: 'not-used-files-move-as-ciphertext' } : {}), ...bucketEnv };
    const toS3 = await storeMigrate(['--files-to', 's3'], cliEnv);
    // The upload's record and its first slice's segment.
    expect(toS3.output).toMatch(/Moved 2 files .* into the bucket.* 2 storage ids without a push yet/);
    expect(toS3.code).toBe(0);

    server = await startServer({ ...bucketEnv, DATA_DIR: dataDir, FILES_REQUIRE_AUTH: 'false' });
    expect((await api.get(server, `/api/v2/uploads/${upload}`)).body.files).toEqual([{ size: envelope.length, received: SLICE }]);
    expect((await putSlice(server, SLICE)).status).toBe(200);
    const done = await api.post(server, `/api/v2/uploads/${upload}/finish`);
    expect(done.status).toBe(201);
    const token = done.body.url_token as string;
    await server.close();

    const back = await storeMigrate(['--files-to', 'store'], cliEnv);
    expect(back.code).toBe(0);
    server = await startServer({ FILE_STORAGE: 'store', DATA_DIR: dataDir, FILES_REQUIRE_AUTH: 'false' });
    try {
      // Its two segments.
      expect(await storedBlobs(server, token)).toHaveLength(2);
      const shown = await api.get(server, `/api/v2/pushes/${token}`);
      const res = await fetch((shown.body.files as { url: string }[])[0]!.url);
      const { stream } = createDecryptStream(key);
      const out: Uint8Array[] = [];
      for await (const chunk of res.body!.pipeThrough(stream) as unknown as AsyncIterable<Uint8Array>) out.push(chunk);
      expect(Buffer.concat(out).equals(plain)).toBe(true);
    } finally {
      await server.stop();
    }
  });

  // Its source is a data dir written by the embedded store: the PostgreSQL run's servers write to
  // their database, so the case runs in the embedded projects (server-s3) only.
  it.skipIf(testStore === 'postgres')('store:migrate --from/--to with FILE_STORAGE=s3 moves the records and leaves the files in the bucket, checked', async () => {
    const { env: bucketEnv } = await s3.bucket();
    const dataDir = mkdtempSync(join(tmpdir(), 'secret-push-migrate-s3-'));
    const db = await createTestDatabase();
    try {
      let server: TestServer = await startServer({ ...bucketEnv, DATA_DIR: dataDir, FILES_REQUIRE_AUTH: 'false' });
      const created = await api.post(server, '/api/v2/pushes', { raw: fileForm('stays in the bucket'), json: undefined });
      expect(created.status).toBe(201);
      const token = created.body.url_token as string;
      await server.close();

      const moved = await storeMigrate(['--from', dataDir, '--to', db.url], bucketEnv);
      expect(moved.output).toContain('Copied 1 pushes');
      expect(moved.output).toMatch(/Files stay in the bucket b-\w+ \(FILE_STORAGE=s3\): 1 checked there, none copied/);
      expect(moved.output).toContain('Verified: all 1 pushes');
      expect(moved.code).toBe(0);

      const masterKey = readFileSync(join(dataDir, 'master.key'), 'utf8').trim();
      server = await startServer({ ...bucketEnv, DATABASE_URL: db.url, MASTER_KEY: masterKey, FILES_REQUIRE_AUTH: 'false' });
      try {
        const shown = await api.get(server, `/api/v2/pushes/${token}`);
        expect(await (await fetch((shown.body.files as { url: string }[])[0]!.url)).text()).toBe('stays in the bucket');
      } finally {
        await server.close();
      }
    } finally {
      await db.drop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

