import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { createLogger } from '../../../server/logger.js';
import { migrate, migrations } from '../../../server/storage/postgres/migrate.js';
import { PostgresStore } from '../../../server/storage/postgres/postgres-store.js';
import type { AuditRecord } from '../../../server/storage/records.js';
import { createTestDatabase, type TestDatabase } from '../../support/postgres-database.js';
import { iso, storedPush, T0 } from '../../support/stored-push.js';

const entry = (kind: AuditRecord['kind'], s: number): AuditRecord => ({ kind, ip: '192.0.2.7', userAgent: 'upgrade test', referrer: '', at: iso(T0 + s * 1000) });

/**
 * A database a server of schema 5 wrote (records as jsonb, the audit trail tied to its push by a
 * foreign key) is taken to the current schema at start with nothing lost, and then works as a new
 * one does.
 */
describe('PostgreSQL: upgrading a database from schema 5', () => {
  let db: TestDatabase;
  let pool: pg.Pool;
  let store: PostgresStore;
  const live = storedPush({ name: 'kept 𝔘 ✓', expireAfterViews: 3 });
  const old = storedPush({ expiredAt: iso(T0 - 90 * 86_400_000) });

  beforeAll(async () => {
    db = await createTestDatabase();
    pool = new pg.Pool({ connectionString: db.url, max: 1 });
    expect((await migrate(pool, 5)).version).toBe(5);
    // Rows as the schema-5 server wrote them.
    for (const p of [live, old]) {
      await pool.query(
        `WITH p AS (INSERT INTO pushes (token, owner_id, created_at, expires_at, expired_at, files_purge_at, record) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING token)
         INSERT INTO audit (token, entry) SELECT token, $8 FROM p`,
        [p.token, p.ownerId, p.createdAt, p.expiresAt, p.expiredAt, p.filesPurgeAt, JSON.stringify(p), JSON.stringify(entry('creation', 0))],
      );
    }
    await pool.query('INSERT INTO audit (token, entry) VALUES ($1, $2)', [live.token, JSON.stringify(entry('view', 1))]);
    store = await PostgresStore.open({ url: db.url, poolSize: 2, logger: createLogger('silent') });
  });
  afterAll(async () => {
    await store.close();
    await pool.end();
    await db.drop();
  });

  it('migrates to the latest schema and keeps every record and audit entry', async () => {
    const { rows } = await pool.query('SELECT max(version)::int AS v FROM schema_version');
    expect(rows[0].v).toBe(migrations().at(-1)!.version);
    expect(await store.getPush(live.token)).toEqual(live);
    expect(await store.listAudit(live.token, 0, 10)).toEqual([entry('creation', 0), entry('view', 1)]);
  });

  it('then counts views, stores names schema 5 could not (NUL) and retention still takes trails along', async () => {
    expect(await store.updatePush(live.token, (p) => ({ next: { ...p, views: p.views + 1 }, audit: entry('view', 2), result: 'ok' }))).toBe('ok');
    expect((await store.getPush(live.token))!.views).toBe(1);
    expect((await store.listAudit(live.token, 0, 10)).map((a) => a.kind)).toEqual(['creation', 'view', 'view']);

    const nul = storedPush({ name: 'a\u0000b' });
    await store.insertPush(nul, entry('creation', 3));
    expect((await store.getPush(nul.token))!.name).toBe('a\u0000b');

    expect(await store.deleteExpiredBefore(new Date(T0 - 30 * 86_400_000), 10)).toBe(1);
    expect(await store.getPush(old.token)).toBeUndefined();
    const orphans = await pool.query('SELECT count(*)::int AS n FROM audit WHERE token = $1', [old.token]);
    expect(orphans.rows[0].n).toBe(0);
  });
});
