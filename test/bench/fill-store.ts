import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { createLogger } from '../../server/logger.js';
import { SnapshotFile } from '../../server/storage/embedded/snapshot-file.js';
import { PostgresStore } from '../../server/storage/postgres/postgres-store.js';

/**
 * Stores filled with N realistic pushes without going through HTTP (a million creates over HTTP
 * would take minutes): each push has a sealed-looking payload, some a note and an owner, and a
 * one-entry audit trail, as the server writes them. The payloads are not really sealed: these
 * stores are for measuring creates and start-up, not for reading old pushes back.
 */

const T0 = Date.parse('2026-01-01T00:00:00Z');
const sealed = () => `v1.${randomBytes(60).toString('base64url')}`;

/**
 * Filler pushes are stored under ids shaped like real storage ids (keyed hashes of URL tokens,
 * pushes/url-token-id.ts: 'H' + 43 characters), and the store is marked as holding only such ids,
 * so the server does not take them for plain tokens of an older version to migrate.
 */
export const HASHED_IDS_SETTING = { name: 'url-tokens', value: 'hashed' };

function pushRecord(i: number) {
  const token = `H${i.toString(36).padStart(8, '0')}${randomBytes(24).toString('base64url')}`.slice(0, 44);
  const at = new Date(T0 + i * 1000).toISOString();
  return {
    token, kind: 'text', ownerId: i % 10 === 0 ? `user${i % 1000}` : null, name: null, payload: sealed(), note: i % 3 === 0 ? sealed() : null,
    passphrase: null, hasPassphrase: false, files: [], filesPurgeAt: null, expireAfterDays: 90, expireAfterViews: 5,
    expiresAt: new Date(Date.now() + 90 * 86_400_000).toISOString(), deletableByViewer: true, retrievalStep: true,
    views: 0, createdAt: at, updatedAt: at, expiredAt: null, deleted: false,
  };
}

/** An embedded store directory holding `count` pushes (its snapshot written directly). */
export async function fillEmbedded(dir: string, count: number): Promise<void> {
  const pushes: Record<string, unknown> = {};
  const audit: Record<string, unknown> = {};
  for (let i = 0; i < count; i++) {
    const p = pushRecord(i);
    pushes[p.token] = p;
    audit[p.token] = [{ kind: 'creation', ip: '192.0.2.1', userAgent: 'bench/1.0', referrer: '', at: p.createdAt }];
  }
  await new SnapshotFile(join(dir, 'db.json')).write({ pushes, audit, users: {}, apiTokens: {}, sessions: {}, _meta: { seq: 0 } } as never);
  writeFileSync(join(dir, HASHED_IDS_SETTING.name), `${HASHED_IDS_SETTING.value}\n`, { mode: 0o600 });
}

/** A PostgreSQL database (migrated) holding `count` pushes, inserted by SQL in batches. */
export async function fillPostgres(url: string, count: number): Promise<void> {
  const store = await PostgresStore.open({ url, poolSize: 1, logger: createLogger('silent') });
  await store.close();
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    for (let from = 0; from < count; from += 10_000) {
      const batch = Array.from({ length: Math.min(10_000, count - from) }, (_, k) => pushRecord(from + k));
      await c.query(
        `INSERT INTO pushes (token, owner_id, created_at, expires_at, record)
         SELECT r->>'token', r->>'ownerId', (r->>'createdAt')::timestamptz, (r->>'expiresAt')::timestamptz, r FROM unnest($1::json[]) AS r`,
        [batch.map((p) => JSON.stringify(p))],
      );
      await c.query(
        `INSERT INTO audit (token, entry)
         SELECT r->>'token', json_build_object('kind', 'creation', 'ip', '192.0.2.1', 'userAgent', 'bench/1.0', 'referrer', '', 'at', r->>'createdAt')
         FROM unnest($1::json[]) AS r`,
        [batch.map((p) => JSON.stringify(p))],
      );
    }
    await c.query('INSERT INTO settings (name, value) VALUES ($1, $2) ON CONFLICT (name) DO UPDATE SET value = EXCLUDED.value', [HASHED_IDS_SETTING.name, HASHED_IDS_SETTING.value]);
    await c.query('ANALYZE');
  } finally {
    await c.end();
  }
}
