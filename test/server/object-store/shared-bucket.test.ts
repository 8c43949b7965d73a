import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../../support/http.js';
import { startObjectStore, type TestObjectStore } from '../../support/object-store.js';
import { createTestDatabase, type TestDatabase } from '../../support/postgres-database.js';
import { storedBlobs } from '../../support/stored-data.js';
import { startServer, type TestServer } from '../../support/server.js';

let s3: TestObjectStore;
let db: TestDatabase;
let servers: TestServer[] = [];

beforeAll(async () => {
  s3 = await startObjectStore();
  db = await createTestDatabase();
  const { env } = await s3.bucket();
  const shared = { ...env, DATABASE_URL: db.url, MASTER_KEY: randomBytes(32).toString('hex'), FILES_REQUIRE_AUTH: 'false' };
  servers = [await startServer(shared), await startServer(shared), await startServer(shared)];
});
afterAll(async () => {
  for (const s of servers) await s.stop();
  await db?.drop();
  await s3?.remove();
});

describe('three instances on PostgreSQL sharing one bucket', () => {
  it('a file stored through one is viewed and downloaded through the others, and three sweeps at once keep it', async () => {
    const [a, b, c] = servers as [TestServer, TestServer, TestServer];
    const fd = new FormData();
    fd.append('push[payload]', 'shared');
    fd.append('push[files][]', new Blob(['one bucket, three instances']), 'shared.txt');
    const created = await api.post(a, '/api/v2/pushes', { raw: fd });
    expect(created.status).toBe(201);
    const token = created.body.url_token as string;

    const shown = await api.get(b, `/api/v2/pushes/${token}`);
    expect(shown.status).toBe(200);
    const url = new URL((shown.body.files as { url: string }[])[0]!.url);
    const onC = await fetch(`${c.url}${url.pathname}${url.search}`);
    expect(onC.status).toBe(200);
    expect(await onC.text()).toBe('one bucket, three instances');

    await Promise.all(servers.map((s) => s.server.pushes.sweep()));
    expect(await storedBlobs(a, token)).toHaveLength(1);
    expect(await storedBlobs(a)).toHaveLength(1);
  });
});
