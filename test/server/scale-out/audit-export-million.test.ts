import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { digest } from '../../../server/crypto/secret-hash.js';
import { createTestDatabase, type TestDatabase } from '../../support/postgres-database.js';
import { spawnBuiltServer, type SpawnedServer } from '../../support/spawn-server.js';

/**
 * Issue 32: an export of 1,000,000 audit entries runs in bounded memory. The entries are written
 * straight into PostgreSQL (as a year of a busy instance would leave them), the export is read
 * through a real server process, and that process's resident memory is read from /proc: its
 * peak (VmHWM) before the export and after it.
 */
const ENTRIES = 1_000_000;
const MASTER_KEY = randomBytes(32).toString('hex');
let db: TestDatabase;
let server: SpawnedServer;
let token: string;

const kib = (pid: number, field: 'VmHWM' | 'VmRSS') => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]);

beforeAll(async () => {
  db = await createTestDatabase();
  server = await spawnBuiltServer({ DATABASE_URL: db.url, MASTER_KEY, ADMIN_EMAILS: 'siem@example.com', LOG_LEVEL: 'error' });
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  try {
    token = 'sp_' + randomBytes(32).toString('base64url');
    const id = randomUUID();
    const now = new Date().toISOString();
    await client.query('INSERT INTO users (id, email, record) VALUES ($1, $2, $3)', [id, 'siem@example.com', { id, email: 'siem@example.com', passwordHash: '', createdAt: now }]);
    await client.query('INSERT INTO api_tokens (id, user_id, hash, created_at, record) VALUES ($1, $2, $3, $4, $5)', [
      'tok',
      id,
      digest(token),
      now,
      { id: 'tok', userId: id, hash: digest(token), label: 'siem', createdAt: now },
    ]);
    // 1,000 pushes' trails of 1,000 entries each, with user agents of realistic length.
    await client.query(
      `INSERT INTO audit (token, entry)
       SELECT 'push-' || (i % 1000), json_build_object('kind', CASE WHEN i % 1000 = 0 THEN 'creation' ELSE 'view' END,
              'ip', '198.51.100.' || (i % 250), 'userAgent', 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/131.0 Safari/537.36 #' || i,
              'referrer', '', 'at', to_char(timestamp '2026-01-01' + i * interval '1 second', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
       FROM generate_series(1, $1) AS i`,
      [ENTRIES],
    );
  } finally {
    await client.end();
  }
}, 180_000);

afterAll(async () => {
  server?.child.kill('SIGTERM');
  await server?.exited;
  await db?.drop();
});

describe('audit export of 1,000,000 entries', () => {
  it('streams every entry as NDJSON with the server’s peak RSS growing by far less than the export’s size', async () => {
    const pid = server.child.pid!;
    // Warm up (code paths compiled, pool connected) on a small export first.
    const warm = await fetch(`${server.url}/api/v2/admin/audit?format=ndjson&push=push-1`, { headers: { authorization: `Bearer ${token}` } });
    expect((await warm.text()).trim().split('\n')).toHaveLength(1000);
    const peakBefore = kib(pid, 'VmHWM');

    const res = await fetch(`${server.url}/api/v2/admin/audit?format=ndjson`, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
    let lines = 0;
    let bytes = 0;
    let last = '';
    const decoder = new TextDecoder();
    const reader = res.body!.getReader();
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      const chunk = read.value;
      bytes += chunk.byteLength;
      const text = last + decoder.decode(chunk, { stream: true });
      const parts = text.split('\n');
      last = parts.pop()!;
      lines += parts.length;
    }
    expect(last).toBe('');
    const peakAfter = kib(pid, 'VmHWM');
    const growthMiB = (peakAfter - peakBefore) / 1024;
    console.log(
      `audit export: ${lines} entries, ${(bytes / 1_048_576).toFixed(1)} MiB of NDJSON; server peak RSS ${(peakBefore / 1024).toFixed(1)} MiB before, ${(peakAfter / 1024).toFixed(1)} MiB after (+${growthMiB.toFixed(1)} MiB)`,
    );
    expect(lines).toBe(ENTRIES);
    // Held whole, the export alone would be its size again (~200 MiB) in the server.
    expect(growthMiB).toBeLessThan(64);
  }, 600_000);
});
