import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type pg from 'pg';
import { serverDir } from '../../server-dir.js';
import { CheckedOutClient } from './checked-out-client.js';
import { isUnavailable } from './unavailable.js';

const MIGRATIONS_DIR = join(serverDir, 'storage/postgres/migrations/');
/** Any constant both old and new servers agree on: instances starting together migrate one at a time. */
export const MIGRATION_LOCK = 0x5ec2e7_0001;

export class SchemaTooNewError extends Error {}

interface Migration {
  version: number;
  name: string;
  sql: string;
}

/** The versioned SQL files of migrations/, `NNNN_name.sql`, in order. */
export function migrations(): Migration[] {
  return readdirSync(MIGRATIONS_DIR)
    .filter((f) => /^\d{4}_[\w-]+\.sql$/.test(f))
    .sort()
    .map((f) => ({ version: Number(f.slice(0, 4)), name: f, sql: readFileSync(MIGRATIONS_DIR + f, 'utf8') }));
}

/**
 * Brings the database's schema up to this code's version, under an advisory lock so that
 * several instances starting at once apply each migration exactly once (the others wait, then
 * find nothing to do). Each migration runs in its own transaction with its version row. A
 * database whose schema is newer than this code knows is refused: an old server must not write
 * into a schema it does not understand.
 */
export async function migrate(pool: pg.Pool, through = Infinity): Promise<{ applied: string[]; version: number }> {
  // Its own connection for the session's advisory lock, watched: a database restarting while
  // an instance migrates must fail this start (and be retried), not end the process.
  const out = await CheckedOutClient.from(pool);
  const { client } = out;
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    try {
      await client.query(`CREATE TABLE IF NOT EXISTS schema_version (
        version integer PRIMARY KEY,
        name text NOT NULL,
        applied_at timestamptz NOT NULL DEFAULT now()
      )`);
      const { rows } = await client.query<{ v: number | null }>('SELECT max(version) AS v FROM schema_version');
      const current = rows[0]?.v ?? 0;
      // `through` stops short of the latest only in tests of an upgrade from an older schema.
      const known = migrations().filter((m) => m.version <= through);
      const latest = known.at(-1)?.version ?? 0;
      if (current > latest) {
        throw new SchemaTooNewError(
          `The database schema is at version ${current}, newer than this server knows (${latest}). Run the newer server version that migrated it, or restore a backup of the database.`,
        );
      }
      const applied: string[] = [];
      for (const m of known.filter((k) => k.version > current)) {
        await client.query('BEGIN');
        try {
          await client.query(m.sql);
          await client.query('INSERT INTO schema_version (version, name) VALUES ($1, $2)', [m.version, m.name]);
          await client.query('COMMIT');
        } catch (e) {
          if (isUnavailable(e)) throw e;
          await client.query('ROLLBACK');
          throw new Error(`Migration ${m.name} failed: ${(e as Error).message}`);
        }
        applied.push(m.name);
      }
      return { applied, version: Math.max(current, latest) };
    } finally {
      // A lost connection has lost its lock with its session: nothing to unlock.
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch((e) => {
        if (!isUnavailable(e)) throw e;
        out.markLost(e);
      });
    }
  } catch (e) {
    if (isUnavailable(e)) out.markLost(e);
    throw e;
  } finally {
    out.release();
  }
}
