import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeyRing } from '../../../server/crypto/key-ring.js';
import { parseKey } from '../../../server/crypto/master-key.js';
import { UrlTokenIds } from '../../../server/pushes/url-token-id.js';
import { api } from '../../support/http.js';
import { createTestDatabase, type TestDatabase } from '../../support/postgres-database.js';
import { spawnBuiltServer, type SpawnedServer } from '../../support/spawn-server.js';

/**
 * Scheduled release (issue 35) on three server processes sharing one PostgreSQL database: a push
 * made on one instance is refused (425) alike by the others before its release, and nothing is
 * counted on any of them. The processes' clocks cannot be faked, so the release is a day ahead,
 * and "the time has come" is written into the stored record (its release moved into the past):
 * the same state the clock reaching it would give, with no waiting.
 */
const MASTER_KEY = randomBytes(32).toString('hex');
let db: TestDatabase;
let servers: SpawnedServer[] = [];
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

async function storageId(token: string): Promise<string> {
  const [row] = await sql("SELECT value FROM settings WHERE name = 'url-token-key'");
  return new UrlTokenIds(new KeyRing(parseKey(MASTER_KEY, 'MASTER_KEY')).open(row.value)).of(token);
}

beforeAll(async () => {
  db = await createTestDatabase();
  servers = await Promise.all([0, 1, 2].map(() => spawnBuiltServer({ DATABASE_URL: db.url, MASTER_KEY, LOG_LEVEL: 'error' })));
}, 90_000);

afterAll(async () => {
  for (const s of servers) s.child.kill('SIGTERM');
  await Promise.all(servers.map((s) => s.exited));
  await db.drop();
});

describe('scheduled release across three instances on PostgreSQL', () => {
  it('made on one, refused by all three before the release (nothing counted, concurrently too), opened once per view after it', async () => {
    const opens = new Date(Date.now() + 24 * 3_600_000).toISOString();
    const created = await api.post(at(0), '/api/v2/pushes', { json: { push: { payload: 'for March', expire_after_days: 3, expire_after_views: 2, not_before: opens } } });
    expect(created.status).toBe(201);
    const token = created.body.url_token;

    const early = await Promise.all(Array.from({ length: 12 }, (_, i) => api.get(at(i), `/api/v2/pushes/${token}`)));
    for (const answer of early) {
      expect(answer.status).toBe(425);
      expect(answer.body.not_before).toBe(created.body.not_before);
      expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(23 * 3600);
      expect(answer.text).not.toContain('for March');
    }
    const id = await storageId(token);
    const [before] = await sql('SELECT record FROM pushes WHERE token = $1', [id]);
    expect(before.record.views).toBe(0);
    expect(before.record.notBefore).toBe(created.body.not_before);

    // The release time comes: the record now says it opened a second ago.
    await sql(`UPDATE pushes SET record = jsonb_set(record::jsonb, '{notBefore}', to_jsonb($2::text))::json WHERE token = $1`, [id, new Date(Date.now() - 1000).toISOString()]);
    const after = await Promise.all(Array.from({ length: 6 }, (_, i) => api.get(at(i), `/api/v2/pushes/${token}`)));
    expect(after.every((a) => a.status === 200)).toBe(true);
    expect(after.filter((a) => a.body.payload === 'for March')).toHaveLength(2);
    const [final] = await sql('SELECT record FROM pushes WHERE token = $1', [id]);
    expect(final.record.views).toBe(6);
    expect(final.record.expiredAt).not.toBeNull();
  });
});
