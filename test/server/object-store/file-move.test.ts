import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../../support/http.js';
import { startObjectStore, type TestObjectStore } from '../../support/object-store.js';
import { storedBlobs } from '../../support/stored-data.js';
import { startServer, type TestServer } from '../../support/server.js';
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

describe('npm run store:migrate -- --files-to s3|store', () => {
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
});
