import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { S3BlobStore } from '../../server/storage/object-store/s3-blob-store.js';
import { filesContaining, filesUnder } from './http.js';
import type { TestServer } from './server.js';

/**
 * What a test server has stored, whichever store it runs on: for the embedded store, the files
 * under its DATA_DIR; for PostgreSQL, the rows of its database. Tests use these to show that a
 * secret is encrypted at rest, that nothing is left behind, that an erased secret is gone.
 */

async function withDb<T>(url: string, run: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return await run(c);
  } finally {
    await c.end();
  }
}

/** The stored blobs (encrypted files), as "push/file" names (of one push: by its URL token). */
export async function storedBlobs(server: TestServer, urlToken?: string): Promise<string[]> {
  const pushToken = urlToken === undefined ? undefined : server.server.pushes.storageId(urlToken);
  const objects = objectStoreOf(server);
  if (objects) return (await storedObjects(objects, pushToken)).map((o) => o.name);
  if (server.databaseUrl) {
    return withDb(server.databaseUrl, async (c) => {
      const { rows } = await c.query('SELECT push_token, file_id FROM blobs WHERE $1::text IS NULL OR push_token = $1 ORDER BY 1, 2', [pushToken ?? null]);
      return rows.map((r) => `${r.push_token}/${r.file_id}`);
    });
  }
  const dir = join(server.dataDir, 'files', pushToken ?? '');
  if (!existsSync(dir)) return [];
  return pushToken ? readdirSync(dir).map((f) => `${pushToken}/${f}`) : filesUnder(dir);
}

/**
 * Where `needle` (text or bytes) occurs in what the server stored: file paths, or for
 * PostgreSQL "table" names (every column of every row, blobs included).
 */
export async function storedContaining(server: TestServer, needle: string | Buffer): Promise<string[]> {
  const objects = objectStoreOf(server);
  if (objects) {
    const n = typeof needle === 'string' ? Buffer.from(needle) : needle;
    const found: string[] = [];
    for (const o of await storedObjects(objects)) if ((await objectBytes(objects, o.key)).includes(n)) found.push(`s3:${o.name}`);
    return [...found, ...(await storedRecordsContaining(server, needle))];
  }
  return storedRecordsContaining(server, needle);
}

async function storedRecordsContaining(server: TestServer, needle: string | Buffer): Promise<string[]> {
  if (!server.databaseUrl) return filesContaining(server.dataDir, needle);
  const n = typeof needle === 'string' ? Buffer.from(needle) : needle;
  return withDb(server.databaseUrl, async (c) => {
    const { rows: tables } = await c.query("SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY 1");
    const found: string[] = [];
    for (const { tablename } of tables) {
      const { rows } = await c.query(`SELECT row_to_json(t)::text AS text FROM ${tablename} t`);
      if (rows.some((r) => Buffer.from(r.text).includes(n))) found.push(tablename);
      if (tablename === 'blob_chunks') {
        const { rows: chunks } = await c.query('SELECT data FROM blob_chunks');
        if (chunks.some((r) => (r.data as Buffer).includes(n)) && !found.includes(tablename)) found.push(tablename);
      }
    }
    return found;
  });
}

/**
 * Changes one byte in the middle of a stored file of a push (by its URL token), as damage on
 * disk or an attacker with write access would: the file's authentication must catch it.
 */
export async function tamperWithBlob(server: TestServer, urlToken: string): Promise<void> {
  const pushToken = server.server.pushes.storageId(urlToken);
  const objects = objectStoreOf(server);
  if (objects) {
    const [first] = await storedObjects(objects, pushToken);
    const bytes = await objectBytes(objects, first!.key);
    bytes[40] = bytes[40]! ^ 0xff;
    await objects.client.send(new PutObjectCommand({ Bucket: objects.settings.bucket, Key: first!.key, Body: bytes }));
    return;
  }
  if (server.databaseUrl) {
    await withDb(server.databaseUrl, (c) =>
      c.query('UPDATE blob_chunks SET data = set_byte(data, 40, get_byte(data, 40) # 255) WHERE push_token = $1 AND seq = (SELECT min(seq) FROM blob_chunks WHERE push_token = $1)', [pushToken]),
    );
    return;
  }
  const { openSync, readSync, writeSync, closeSync } = await import('node:fs');
  const [file] = filesUnder(join(server.dataDir, 'files', pushToken));
  const fd = openSync(file!, 'r+');
  const byte = Buffer.alloc(1);
  readSync(fd, byte, 0, 1, 40);
  byte[0] = byte[0]! ^ 0xff;
  writeSync(fd, byte, 0, 1, 40);
  closeSync(fd);
}

/** The server's object store, when its files are in one (FILE_STORAGE=s3). */
function objectStoreOf(server: TestServer): S3BlobStore | undefined {
  const blobs = server.server.store.blobs;
  return blobs instanceof S3BlobStore ? blobs : undefined;
}

/** Objects under the store's prefix (of one push), named "push/file.bin" like the disk's. */
async function storedObjects(objects: S3BlobStore, pushToken?: string): Promise<{ key: string; name: string }[]> {
  const { prefix } = objects.settings;
  const found: { key: string; name: string }[] = [];
  for await (const page of objects.keysUnder(`${prefix}${pushToken ? `${pushToken}/` : ''}`)) {
    for (const o of page) found.push({ key: o.key, name: o.key.slice(prefix.length) });
  }
  return found;
}

async function objectBytes(objects: S3BlobStore, key: string): Promise<Buffer> {
  const got = await objects.client.send(new GetObjectCommand({ Bucket: objects.settings.bucket, Key: key }));
  return Buffer.from(await got.Body!.transformToByteArray());
}
