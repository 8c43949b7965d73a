import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { digest } from '../../../server/crypto/secret-hash.js';
import { createLogger } from '../../../server/logger.js';
import { PostgresStore } from '../../../server/storage/postgres/postgres-store.js';
import { api } from '../../support/http.js';
import { createTestDatabase, type TestDatabase } from '../../support/postgres-database.js';
import { spawnBuiltServer, type SpawnedServer } from '../../support/spawn-server.js';

/**
 * Issue 32: a locked account stops working at once on every instance. Three real server
 * processes on one PostgreSQL database; the lock is made through one, and the very next request
 * to each of the others (no waiting, no retry) is refused, with an API token and with a session.
 */
const MASTER_KEY = randomBytes(32).toString('hex');
let db: TestDatabase;
let store: PostgresStore;
let servers: SpawnedServer[] = [];

async function account(email: string): Promise<{ id: string; token: string; session: string }> {
  const id = randomUUID();
  const now = new Date();
  await store.insertUser({ id, email, passwordHash: '', createdAt: now.toISOString() });
  const token = 'sp_' + randomBytes(32).toString('base64url');
  await store.insertApiToken({ id: randomUUID(), userId: id, hash: digest(token), label: 'test', createdAt: now.toISOString() });
  const session = randomBytes(32).toString('base64url');
  await store.insertSession({ id: digest(session), userId: id, createdAt: now.toISOString(), expiresAt: new Date(now.getTime() + 86_400_000).toISOString() });
  return { id, token, session };
}

beforeAll(async () => {
  db = await createTestDatabase();
  servers = await Promise.all([0, 1, 2].map(() => spawnBuiltServer({ DATABASE_URL: db.url, MASTER_KEY, ADMIN_EMAILS: 'admin@example.com', LOG_LEVEL: 'error' })));
  store = await PostgresStore.open({ url: db.url, poolSize: 2, logger: createLogger('silent') });
}, 90_000);

afterAll(async () => {
  await store?.close();
  for (const s of servers) s.child.kill('SIGTERM');
  await Promise.all(servers.map((s) => s.exited));
  await db.drop();
});

describe('locking across instances', () => {
  it('locked through one instance: API token and session refused by the next request on each of the three; unlocked: accepted again', async () => {
    const admin = await account('admin@example.com');
    const user = await account('leaver@example.com');
    const dashboard = (url: string) => fetch(`${url}/dashboard`, { headers: { cookie: `sp_session=${user.session}` }, redirect: 'manual' });
    for (const s of servers) {
      expect((await api.get(s.url, '/api/v2/pushes/active', { token: user.token })).status).toBe(200);
      expect((await dashboard(s.url)).status).toBe(200);
    }
    expect((await api.post(servers[0]!.url, `/api/v2/admin/users/${user.id}/lock`, { token: admin.token })).status).toBe(204);
    for (const s of [servers[1]!, servers[2]!, servers[0]!]) {
      expect((await api.get(s.url, '/api/v2/pushes/active', { token: user.token })).status).toBe(401);
      expect((await dashboard(s.url)).status).toBe(303);
    }
    expect((await api.post(servers[2]!.url, `/api/v2/admin/users/${user.id}/unlock`, { token: admin.token })).status).toBe(204);
    for (const s of servers) expect((await api.get(s.url, '/api/v2/pushes/active', { token: user.token })).status).toBe(200);
    const log = (await api.get(servers[1]!.url, '/api/v2/admin/log', { token: admin.token })).body;
    expect(log.map((e: any) => [e.action, e.target, e.actorEmail])).toEqual([
      ['user.unlock', 'leaver@example.com', 'admin@example.com'],
      ['user.lock', 'leaver@example.com', 'admin@example.com'],
    ]);
  });
});
