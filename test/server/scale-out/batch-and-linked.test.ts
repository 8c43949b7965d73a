import { randomBytes } from 'node:crypto';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../../support/http.js';
import { createTestDatabase, type TestDatabase } from '../../support/postgres-database.js';
import { spawnBuilt, spawnBuiltServer, type SpawnedServer } from '../../support/spawn-server.js';

/**
 * One link per recipient and linked secrets (issue 35) on three server processes sharing one
 * PostgreSQL database, with the default limits: a 120-row batch made on one instance, its links
 * opened on the other two, each once to its own secret; a linked secret's first opened on
 * instance A and its second on B with the same proof (the recipient's session), refused on C
 * without it.
 */
const MASTER_KEY = randomBytes(32).toString('hex');
let db: TestDatabase;
let servers: SpawnedServer[] = [];
let owner: string;
const at = (i: number) => servers[i % servers.length]!.url;
// Each recipient from their own address (TRUST_PROXY): the default per-client rate limit stays on.
const from = (n: number) => ({ headers: { 'x-forwarded-for': `10.2.${n >> 8}.${n & 255}` } });

beforeAll(async () => {
  db = await createTestDatabase();
  const env = { DATABASE_URL: db.url, MASTER_KEY, LOG_LEVEL: 'error', RATE_LIMIT_PER_MINUTE: '120', TRUST_PROXY: 'true' };
  // A loaded shared machine can take more than the default 20 s to start three processes.
  servers = await Promise.all([0, 1, 2].map(() => spawnBuiltServer(env, 90_000)));
  const made = await spawnBuilt('server/cli/users.js', ['create', 'scale-batch@example.com'], { DATABASE_URL: db.url, MASTER_KEY, LOG_LEVEL: 'error' });
  expect(await made.exited).toBe(0);
  owner = made.output().trim().split('\n').at(-1)!;
}, 240_000);

afterAll(async () => {
  for (const s of servers) s.child.kill('SIGTERM');
  await Promise.all(servers.map((s) => s.exited));
  await db?.drop();
});

describe('batch and linked secrets across three instances on PostgreSQL', () => {
  it('a 120-row batch made on instance 0: every link opens once, to its own secret, on instances 1 and 2', async () => {
    const recipients = Array.from({ length: 120 }, (_, i) => ({ name: `Row ${i + 1}`, payload: `row secret ${i + 1}` }));
    const res = await api.post(at(0), '/api/v2/pushes/batch?format=csv', { token: owner, json: { push: { expire_after_views: 1 }, recipients } });
    expect(res.status).toBe(201);
    const rows: Record<string, string>[] = parse(res.text, { columns: true });
    expect(rows).toHaveLength(120);
    for (let from0 = 0; from0 < rows.length; from0 += 20) {
      await Promise.all(
        rows.slice(from0, from0 + 20).map(async (r, j) => {
          const n = from0 + j + 1;
          const token = new URL(r.link!).pathname.split('/')[2]!;
          // Opened on 1 and 2 at once: exactly one of them gets the secret.
          const both = await Promise.all([1, 2].map((i) => api.get(at(i), `/api/v2/pushes/${token}`, from(n))));
          expect(both.filter((b) => b.body.payload === `row secret ${n}`)).toHaveLength(1);
          expect(both.filter((b) => b.body.payload !== null && b.body.payload !== undefined)).toHaveLength(1);
        }),
      );
    }
  }, 180_000);

  it('linked: the first opened on A hands a proof that opens the second on B; C without it is refused (425)', async () => {
    const first = await api.post(at(0), '/api/v2/pushes', { token: owner, json: { push: { payload: 'the password', expire_after_views: 2 } } });
    const second = await api.post(at(1), '/api/v2/pushes', { token: owner, json: { push: { payload: 'TOTP seed', follows: first.body.url_token, expire_after_views: 2 } } });
    expect(second.status).toBe(201);
    expect((await api.get(at(2), `/api/v2/pushes/${second.body.url_token}`, from(900))).status).toBe(425);
    const opened = await api.get(at(0), `/api/v2/pushes/${first.body.url_token}`, from(901));
    expect(opened.body.payload).toBe('the password');
    const proof = opened.headers.get('secret-push-opened')!;
    expect(proof).toBeTruthy();
    // Another recipient, without the proof, still waits on every instance.
    for (const i of [0, 1, 2]) expect((await api.get(at(i), `/api/v2/pushes/${second.body.url_token}`, from(902))).status).toBe(425);
    const onB = await api.get(at(1), `/api/v2/pushes/${second.body.url_token}`, { headers: { ...from(901).headers, 'secret-push-opened': proof } });
    expect(onB.status).toBe(200);
    expect(onB.body.payload).toBe('TOTP seed');
    // Both trails show the link (written with the insert on instance 1).
    for (const token of [first.body.url_token, second.body.url_token]) {
      const kinds = (await api.get(at(2), `/api/v2/pushes/${token}/audit`, { token: owner })).body.logs.map((l: any) => l.kind);
      expect(kinds).toContain('linked');
    }
  });
});
