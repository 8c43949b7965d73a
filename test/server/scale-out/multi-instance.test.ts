import { randomBytes } from 'node:crypto';
import { createDecryptStream, encryptBytes } from '../../../shared/e2e/envelope-crypto.js';
import { newPushKey } from '../../../shared/e2e/link-key.js';
import { encryptManifestPayload } from '../../../shared/e2e/push-content.js';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, request, type RequestOptions, waitFor } from '../../support/http.js';
import { KeyRing } from '../../../server/crypto/key-ring.js';
import { parseKey } from '../../../server/crypto/master-key.js';
import { UrlTokenIds } from '../../../server/pushes/url-token-id.js';
import { migrations } from '../../../server/storage/postgres/migrate.js';
import { freePort } from '../../support/postgres-cluster.js';
import { createTestDatabase, type TestDatabase } from '../../support/postgres-database.js';
import { spawnBuilt, spawnBuiltServer, type SpawnedServer } from '../../support/spawn-server.js';

/**
 * Three real server processes (the build the container runs: test/support/built-server.ts) on
 * one PostgreSQL database, as behind a load balancer: every rule that depends on shared state
 * must hold across them. Each client address is set with X-Forwarded-For (TRUST_PROXY=true, as
 * behind the balancer).
 */

const MASTER_KEY = randomBytes(32).toString('hex');
const RATE_LIMIT = 40;
let db: TestDatabase;
let servers: SpawnedServer[] = [];

const env = () => ({
  DATABASE_URL: db.url,
  MASTER_KEY,
  TRUST_PROXY: 'true',
  RATE_LIMIT_PER_MINUTE: String(RATE_LIMIT),
  EXPIRY_SWEEP_SECONDS: '1',
  FILES_REQUIRE_AUTH: 'false',
  LOG_LEVEL: 'error',
});

/** A request from client address `ip` to instance `i` (0, 1, 2). */
const from = (ip: string, o: RequestOptions = {}): RequestOptions => ({ ...o, headers: { ...o.headers, 'x-forwarded-for': ip } });
let ipCounter = 0;
const freshIp = () => `198.51.100.${++ipCounter}`;
const at = (i: number) => servers[i % servers.length]!.url;

async function sql<T extends pg.QueryResultRow = any>(text: string, values: unknown[] = []): Promise<T[]> {
  const c = new pg.Client({ connectionString: db.url });
  await c.connect();
  try {
    return (await c.query<T>(text, values)).rows;
  } finally {
    await c.end();
  }
}

/** Storage ids of URL tokens on this database (the HMAC key is sealed under MASTER_KEY in its settings). */
async function storageIds(): Promise<UrlTokenIds> {
  const [row] = await sql("SELECT value FROM settings WHERE name = 'url-token-key'");
  return new UrlTokenIds(new KeyRing(parseKey(MASTER_KEY, 'MASTER_KEY')).open(row.value));
}

beforeAll(async () => {
  db = await createTestDatabase();
  // Started together on an empty database: the migration runs once, under its advisory lock.
  servers = await Promise.all([0, 1, 2].map(() => spawnBuiltServer(env())));
}, 90_000);

afterAll(async () => {
  for (const s of servers) s.child.kill('SIGTERM');
  await Promise.all(servers.map((s) => s.exited));
  await db.drop();
});

describe('three instances on one PostgreSQL database', () => {
  it('started together, they migrated the schema exactly once', async () => {
    expect(await sql('SELECT version, name FROM schema_version ORDER BY version')).toEqual(migrations().map((m) => ({ version: m.version, name: m.name })));
    for (const s of servers) expect((await api.get(s.url, '/api/v2/version')).status).toBe(200);
  });

  it('a one-view push fetched 30 times at once across the three gives exactly one payload', async () => {
    const created = await api.post(at(0), '/api/v2/pushes', from(freshIp(), { json: { push: { payload: 'only once', expire_after_views: 1 } } }));
    expect(created.status).toBe(201);
    const token = created.body.url_token;
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => api.get(at(i), `/api/v2/pushes/${token}`, from(freshIp()))));
    expect(answers.map((a) => a.status).every((s) => s === 200)).toBe(true);
    expect(answers.filter((a) => a.body.payload === 'only once')).toHaveLength(1);
    expect(answers.filter((a) => a.body.expired === true && a.body.payload === null)).toHaveLength(29);
  });

  it('the passphrase guess limit holds across instances (5 per push a minute)', async () => {
    const created = await api.post(at(1), '/api/v2/pushes', from(freshIp(), { json: { push: { payload: 'guarded', passphrase: 'right one', expire_after_views: 10 } } }));
    const token = created.body.url_token;
    const guesses = await Promise.all(Array.from({ length: 9 }, (_, i) => api.get(at(i), `/api/v2/pushes/${token}?passphrase=wrong${i}`, from(freshIp()))));
    expect(guesses.filter((g) => g.status === 401)).toHaveLength(5);
    expect(guesses.filter((g) => g.status === 429)).toHaveLength(4);
    // Even the right passphrase waits now, on every instance.
    for (let i = 0; i < 3; i++) {
      const right = await api.get(at(i), `/api/v2/pushes/${token}?passphrase=${encodeURIComponent('right one')}`, from(freshIp()));
      expect(right.status).toBe(429);
      expect(Number(right.headers.get('retry-after'))).toBeGreaterThan(0);
    }
  });

  it(`the rate limit (${RATE_LIMIT} a minute per client) counts requests on every instance together`, async () => {
    const ip = '203.0.113.77';
    const statuses: number[] = [];
    for (let i = 0; i < RATE_LIMIT; i++) statuses.push((await api.get(at(i), '/api/v2/version', from(ip))).status);
    expect(statuses.every((s) => s === 200)).toBe(true);
    for (let i = 0; i < 3; i++) {
      const limited = await api.get(at(i), '/api/v2/version', from(ip));
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    // Another client is not affected.
    expect((await api.get(at(0), '/api/v2/version', from(freshIp()))).status).toBe(200);
  });

  it('a file uploaded through one instance downloads through another', async () => {
    const content = randomBytes(700_000); // several database chunks
    const fd = new FormData();
    fd.append('push[payload]', 'see file');
    fd.append('push[files][]', new Blob([new Uint8Array(content)]), 'data.bin');
    const created = await api.post(at(0), '/api/v2/pushes', from(freshIp(), { raw: fd }));
    expect(created.status).toBe(201);
    const shown = await api.get(at(1), `/api/v2/pushes/${created.body.url_token}`, from(freshIp()));
    const url = new URL(shown.body.files[0].url);
    const res = await fetch(`${at(2)}${url.pathname}${url.search}`, { headers: { 'x-forwarded-for': freshIp() } });
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer()).equals(content)).toBe(true);
  });

  it('a sliced upload goes through all three: slices to each in turn, one slice to two at once, two finishes at once make one push', async () => {
    const MiB = 1_048_576;
    const key = newPushKey();
    const plain = randomBytes(17 * MiB);
    const envelope = Buffer.from(await encryptBytes(key, 'file', plain));
    const manifest = { message: '', files: [{ name: 'big.bin', type: 'application/octet-stream', size: plain.length }] };
    const push = { kind: 'file', end_to_end: true, payload: await encryptManifestPayload(key, manifest), expire_after_views: 2 };
    const ip = freshIp(); // one client behind the balancer
    const started = await api.post(at(0), '/api/v2/uploads', from(ip, { json: { push, files: [{ size: envelope.length }] } }));
    expect(started.status).toBe(201);
    const { upload, slice_bytes: slice } = started.body as { upload: string; slice_bytes: number };
    const put = (i: number, offset: number) =>
      request(at(i), 'PUT', `/api/v2/uploads/${upload}/files/0?offset=${offset}`, from(ip, { raw: envelope.subarray(offset, offset + slice), contentType: 'application/octet-stream' }));
    expect((await put(0, 0)).status).toBe(200);
    // A retry racing its first try, on another instance: both answered, the slice stored once.
    const raced = await Promise.all([put(1, slice), put(2, slice)]);
    for (const r of raced) expect([200, 409]).toContain(r.status);
    if (raced.some((r) => r.status === 409)) expect((await put(1, slice)).status).toBe(200);
    expect((await put(2, 2 * slice)).status).toBe(200);
    expect((await api.get(at(1), `/api/v2/uploads/${upload}`, from(ip))).body.files).toEqual([{ size: envelope.length, received: envelope.length }]);

    const before = (await sql('SELECT count(*)::int AS n FROM pushes'))[0].n as number;
    const finishes = await Promise.all([1, 2].map((i) => api.post(at(i), `/api/v2/uploads/${upload}/finish`, from(ip))));
    const statuses = finishes.map((f) => f.status).sort();
    expect(statuses[0]).toBe(201);
    // The other ran while the first held the upload (409), or after it (the same push).
    expect([201, 409]).toContain(statuses[1]);
    expect((await sql('SELECT count(*)::int AS n FROM pushes'))[0].n).toBe(before + 1);

    const created = finishes.find((f) => f.status === 201)!.body as { url_token: string };
    for (const f of finishes) if (f.status === 201) expect(f.body.url_token).toBe(created.url_token);
    // The finish asked again on the third instance (the first answer lost): that push.
    const again = await api.post(at(0), `/api/v2/uploads/${upload}/finish`, from(ip));
    expect([again.status, again.body.url_token]).toEqual([201, created.url_token]);
    const shown = await api.get(at(0), `/api/v2/pushes/${created.url_token}`, from(freshIp()));
    const url = new URL(shown.body.files[0].url);
    const res = await fetch(`${at(1)}${url.pathname}${url.search}`, { headers: { 'x-forwarded-for': freshIp() } });
    expect(res.status).toBe(200);
    const out: Uint8Array[] = [];
    for await (const chunk of res.body!.pipeThrough(createDecryptStream(key).stream) as unknown as AsyncIterable<Uint8Array>) out.push(chunk);
    expect(Buffer.concat(out).equals(plain)).toBe(true);
  });

  it('a push created on one instance is deleted on another, and is gone on the third', async () => {
    const created = await api.post(at(2), '/api/v2/pushes', from(freshIp(), { json: { push: { payload: 'delete me', deletable_by_viewer: true, expire_after_views: 5 } } }));
    const token = created.body.url_token;
    expect((await api.delete(at(0), `/api/v2/pushes/${token}`, from(freshIp()))).body).toMatchObject({ expired: true, deleted: true });
    expect((await api.get(at(1), `/api/v2/pushes/${token}`, from(freshIp()))).body).toMatchObject({ expired: true, payload: null });
  });

  it('with all three sweeping, a push due by time is expired once: one expire entry, payload erased', async () => {
    const made = await spawnBuilt('server/cli/users.js', ['create', 'sweeper@example.com'], env());
    expect(await made.exited).toBe(0);
    const ownerToken = made.output().trim().split('\n').at(-1)!;
    const tokens: string[] = [];
    for (let i = 0; i < 10; i++) {
      const c = await api.post(at(i), '/api/v2/pushes', from(freshIp(), { token: ownerToken, json: { push: { payload: `due ${i}`, expire_after_days: 1 } } }));
      tokens.push(c.body.url_token);
    }
    // Time passes for these pushes: their time limit is moved into the past in the database
    // (where they are stored under keyed hashes of their tokens).
    const ids = await storageIds();
    const urlTokens = tokens.splice(0, tokens.length, ...tokens.map((t) => ids.of(t)));
    const past = new Date(Date.now() - 1000).toISOString();
    await sql(`UPDATE pushes SET expires_at = $2::timestamptz, record = jsonb_set(record::jsonb, '{expiresAt}', to_jsonb($3::text))::json WHERE token = ANY($1)`, [tokens, past, past]);
    await waitFor(async () => (await sql('SELECT count(*)::int AS n FROM pushes WHERE token = ANY($1) AND expired_at IS NULL', [tokens]))[0].n === 0, 10_000, 'the sweepers');
    for (const t of urlTokens) {
      const logs = (await api.get(at(0), `/api/v2/pushes/${t}/audit`, from(freshIp(), { token: ownerToken }))).body.logs.map((l: any) => l.kind);
      expect(logs).toEqual(['creation', 'expire']);
    }
    const rows = await sql("SELECT count(*)::int AS n FROM pushes WHERE token = ANY($1) AND record->>'payload' IS NOT NULL", [tokens]);
    expect(rows[0].n).toBe(0);
  });

  it('an instance given another MASTER_KEY refuses to start, saying so', async () => {
    await expect(spawnBuiltServer({ ...env(), MASTER_KEY: randomBytes(32).toString('hex') })).rejects.toThrow(/MASTER_KEY does not match the key the data in the PostgreSQL database was stored under/);
  });

  it('an instance refuses a database whose schema is newer than it knows', async () => {
    await sql("INSERT INTO schema_version (version, name) VALUES (999, '0999_from_the_future.sql')");
    try {
      await expect(spawnBuiltServer(env())).rejects.toThrow(new RegExp(`schema is at version 999, newer than this server knows \\(${migrations().at(-1)!.version}\\)`));
    } finally {
      await sql('DELETE FROM schema_version WHERE version = 999');
    }
  });

  it('a database that cannot be reached is waited for, saying which (and no password); one that does not exist stops the start', async () => {
    const closed = await freePort();
    const waiting = await spawnBuilt('server/main.js', [], { ...env(), PORT: '0', HOST: '127.0.0.1', DATABASE_URL: `postgres://postgres:s3cret-pw@127.0.0.1:${closed}/secretpush` });
    try {
      const said = new RegExp(`Cannot reach PostgreSQL at 127\\.0\\.0\\.1:${closed} \\(database secretpush\\) \\(ECONNREFUSED\\)[^\\n]*Waiting for it`);
      await waitFor(() => said.test(waiting.output()) || waiting.child.exitCode !== null, 20_000, 'the waiting message');
      expect(waiting.child.exitCode, waiting.output()).toBeNull();
      expect(waiting.output()).not.toContain('s3cret-pw');
    } finally {
      waiting.child.kill('SIGKILL');
      await waiting.exited;
    }
    const missing = new URL(db.url);
    missing.pathname = '/no_such_database';
    await expect(spawnBuiltServer({ ...env(), DATABASE_URL: missing.toString() })).rejects.toThrow(/\(database no_such_database\) does not exist \(3D000\)/);
  });

  it('without MASTER_KEY, DATABASE_URL is refused at start with a message naming the variable', async () => {
    const { MASTER_KEY: _omit, ...rest } = env();
    await expect(spawnBuiltServer(rest)).rejects.toThrow(/MASTER_KEY must be set with DATABASE_URL/);
  });
});
