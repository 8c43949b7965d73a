import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unavailableAware } from '../../../server/storage/postgres/unavailable.js';
import { StorageUnavailableError } from '../../../server/storage/store.js';
import { createTestDatabase, type TestDatabase } from '../../support/postgres-database.js';

/**
 * A connection checked out of the pool for a transaction, killed on the server between two of
 * its statements (as a restart, a crash or pg_terminate_backend does). pg emits `error` on such
 * a client; without a listener that event ends the process (here: the test worker, reported as
 * an unhandled error). It must fail only the transaction, as unavailable, and the connection must
 * be discarded, not handed to the next request.
 */
describe('PostgreSQL: a transaction whose connection is killed', () => {
  let db: TestDatabase;
  let pool: pg.Pool;
  let admin: pg.Client;

  beforeAll(async () => {
    db = await createTestDatabase();
    pool = new pg.Pool({ connectionString: db.url, max: 2 });
    pool.on('error', () => {});
    admin = new pg.Client({ connectionString: db.url });
    await admin.connect();
  });
  afterAll(async () => {
    await admin?.end();
    await pool?.end();
    await db?.drop();
  });

  it('fails as unavailable (503), is discarded from the pool, and the next transaction gets a new connection', async () => {
    const store = unavailableAware(pool);
    let killed: number | undefined;
    const attempt = store.transaction(async (tx) => {
      killed = (await tx.query('SELECT pg_backend_pid() AS pid')).rows[0].pid as number;
      // Returns once the backend has ended: its connection is dead while the transaction holds it.
      await admin.query('SELECT pg_terminate_backend($1, 10000)', [killed]);
      return tx.query('SELECT 1');
    });
    await expect(attempt).rejects.toBeInstanceOf(StorageUnavailableError);
    expect(pool.totalCount).toBe(0);
    const next = await store.transaction(async (tx) => (await tx.query('SELECT pg_backend_pid() AS pid')).rows[0].pid as number);
    expect(next).not.toBe(killed);
    expect(pool.idleCount).toBe(1);
  });
});
