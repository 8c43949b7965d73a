import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../../support/http.js';
import { createUserWithToken, startServer, type TestServer } from '../../support/server.js';

/** One link per recipient (issue 35 item 2): POST /api/v2/pushes/batch, real server, both stores. */
let server: TestServer;
let owner: string;

beforeAll(async () => {
  // The default limits (the test harness turns the rate limit off unless asked): a batch counts
  // once against RATE_LIMIT_PER_MINUTE, its rows against BATCH_ROWS_PER_HOUR (default 2000).
  // TRUST_PROXY so that each recipient below opens their link from their own address.
  server = await startServer({ RATE_LIMIT_PER_MINUTE: '120', TRUST_PROXY: 'true' });
  ({ token: owner } = await createUserWithToken(server, 'batch@example.com'));
});
afterAll(() => server.stop());

describe('a batch through the REST API', () => {
  it('1,000 rows on the default limits: each its own push with the same options, the CSV complete, each link opens once to its own secret', async () => {
    const recipients = Array.from({ length: 1000 }, (_, i) => ({ name: `Person ${i + 1}`, email: `p${i + 1}@example.com`, payload: `secret number ${i + 1}` }));
    const started = performance.now();
    const res = await api.post(server, '/api/v2/pushes/batch?format=csv', { token: owner, json: { push: { expire_after_views: 1, expire_after_days: 3 }, recipients } });
    const ms = performance.now() - started;
    console.log(`1,000-row batch created in ${Math.round(ms)} ms (${process.env.DATABASE_URL || server.databaseUrl ? 'PostgreSQL' : 'embedded store'})`);
    expect(res.status).toBe(201);
    expect(res.headers.get('content-type')).toContain('text/csv');
    const rows: Record<string, string>[] = parse(res.text, { columns: true });
    expect(rows).toHaveLength(1000);
    expect(new Set(rows.map((r) => r.link)).size).toBe(1000);
    rows.forEach((r, i) => expect(r).toMatchObject({ row: String(i + 1), name: `Person ${i + 1}`, email: `p${i + 1}@example.com`, status: 'created', error: '' }));
    // Twenty recipients at a time, each opening their own link twice, each from their own address.
    for (let from = 0; from < rows.length; from += 20) {
      await Promise.all(
        rows.slice(from, from + 20).map(async (r, j) => {
          const token = new URL(r.link!).pathname.split('/')[2]!;
          const n = from + j + 1;
          const headers = { 'x-forwarded-for': `10.1.${n >> 8}.${n & 255}` };
          const first = await api.get(server, `/api/v2/pushes/${token}`, { headers });
          expect(first.body).toMatchObject({ payload: `secret number ${n}`, expire_after_views: 1, expire_after_days: 3 });
          expect((await api.get(server, `/api/v2/pushes/${token}`, { headers })).body).toMatchObject({ expired: true, payload: null });
        }),
      );
    }
    // The owner's records carry the batch id and each row's name (the sender's label).
    const listed = (await api.get(server, '/api/v2/pushes/expired', { token: owner })).body as any[];
    expect(new Set(listed.map((p) => p.batch_id)).size).toBe(1);
    expect(listed[0].name).toMatch(/^Person \d+$/);
  }, 600_000);

  it('generated secrets: one per row, each different, the JSON answer lists the links', async () => {
    const res = await api.post(server, '/api/v2/pushes/batch', { token: owner, json: { generate: true, recipients_csv: 'Name,E-mail\r\n"Smith, Ann",ann@example.com\nBob,\n' } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ created: 2, failed: 0, not_attempted: 0 });
    expect(res.body.rows.map((r: any) => [r.row, r.name, r.email, r.status])).toEqual([[1, 'Smith, Ann', 'ann@example.com', 'created'], [2, 'Bob', null, 'created']]);
    const secrets = await Promise.all(res.body.rows.map(async (r: any) => (await api.get(server, `/api/v2/pushes/${r.url_token}`)).body.payload));
    expect(secrets[0]).toMatch(/^[a-km-zA-HJ-NP-Z2-9]{20}$/);
    expect(secrets[1]).not.toBe(secrets[0]);
  });

  it('a bad list creates nothing: 422 naming each bad row', async () => {
    const before = (await api.get(server, '/api/v2/pushes/active', { token: owner })).body.length;
    const res = await api.post(server, '/api/v2/pushes/batch', {
      token: owner,
      json: { recipients: [{ name: 'ok', payload: 'fine' }, { payload: 'nobody' }, { name: 'x', email: 'not-an-address', payload: 'y' }, { name: 'long', payload: 'z'.repeat(2_000_000) }] },
    });
    expect(res.status).toBe(422);
    expect(res.body.recipients).toEqual([
      'row 2: needs a name or an email',
      'row 3: "not-an-address" is not an e-mail address',
      expect.stringMatching(/^row 4: payload is too long/),
    ]);
    expect((await api.get(server, '/api/v2/pushes/active', { token: owner })).body.length).toBe(before);
    expect((await api.post(server, '/api/v2/pushes/batch', { token: owner, json: { recipients: Array.from({ length: 1001 }, () => ({ name: 'a', payload: 'b' })) } })).body).toEqual({ recipients: ['has 1001 rows: at most 1000 per batch'] });
    expect((await api.post(server, '/api/v2/pushes/batch', { json: { recipients: [{ name: 'a', payload: 'b' }] } })).status).toBe(401);
    expect((await api.post(server, '/api/v2/pushes/batch', { token: owner, json: { recipients_csv: 'name,secret\n"unclosed,x\n' } })).status).toBe(422);
    // Per-row fields set for all rows, and follows (which no row can have), each named.
    const perRow = await api.post(server, '/api/v2/pushes/batch', { token: owner, json: { push: { name: 'all' }, recipients: [{ name: 'a', payload: 'b' }] } });
    expect([perRow.status, perRow.body]).toEqual([422, { 'push.name': ['is set per row in a batch, not for all of them'] }]);
    const follows = await api.post(server, '/api/v2/pushes/batch', { token: owner, json: { push: { follows: 'abc' }, recipients: [{ name: 'a', payload: 'b' }] } });
    expect([follows.status, follows.body]).toEqual([422, { 'push.follows': ["a batch's pushes cannot follow another push: make linked secrets one at a time"] }]);
    expect((await api.get(server, '/api/v2/pushes/active', { token: owner })).body.length).toBe(before);
  });
});

describe('limits apply per row', () => {
  let limited: TestServer;
  let token: string;
  let userId: string;
  beforeAll(async () => {
    limited = await startServer({ BATCH_ROWS_PER_HOUR: '10', RATE_LIMIT_PER_MINUTE: '5' });
    ({ token, userId } = await createUserWithToken(limited, 'limited@example.com'));
  });
  afterAll(() => limited.stop());

  it("the account's batch-row budget reached at row 11: rows 1–10 exist, row 11 failed with 429, rows 12–15 not attempted, said row by row; the next batch is refused at its first row", async () => {
    const recipients = Array.from({ length: 15 }, (_, i) => ({ name: `r${i + 1}`, payload: `s${i + 1}` }));
    // RATE_LIMIT_PER_MINUTE=5 counts the batch request once: it does not stop the batch at row 6.
    const res = await api.post(limited, '/api/v2/pushes/batch', { token, json: { recipients } });
    expect(res.status).toBe(207);
    expect(res.body).toMatchObject({ created: 10, failed: 1, not_attempted: 4 });
    expect(res.body.rows.map((r: any) => r.status)).toEqual([...Array(10).fill('created'), 'failed', ...Array(4).fill('not_attempted')]);
    expect(res.body.rows[10]).toMatchObject({ row: 11, name: 'r11', http_status: 429 });
    expect(res.body.rows[10].error).toContain('BATCH_ROWS_PER_HOUR');
    // Exactly the rows said to exist do (read from the store).
    const stored = await limited.server.store.listPushesByOwner(userId, false, 0, 50);
    expect(stored).toHaveLength(10);
    expect(stored.every((p) => p.batchId === res.body.batch_id)).toBe(true);
    expect(stored.map((p) => p.token).sort()).toEqual(res.body.rows.slice(0, 10).map((r: any) => limited.server.pushes.storageId(r.url_token)).sort());
    // The budget is the account's for the hour: another batch fails at its first row, creating nothing.
    const again = await api.post(limited, '/api/v2/pushes/batch', { token, json: { recipients: recipients.slice(0, 2) } });
    expect(again.status).toBe(429);
    expect(again.body).toMatchObject({ created: 0, failed: 1, not_attempted: 1 });
    expect(await limited.server.store.listPushesByOwner(userId, false, 0, 50)).toHaveLength(10);
  });
});

describe('the storage quota applies per row', () => {
  let small: TestServer;
  let token: string;
  beforeAll(async () => {
    small = await startServer({ ACCOUNT_STORAGE_MB_PER_DAY: '1' });
    ({ token } = await createUserWithToken(small, 'quota@example.com'));
  });
  afterAll(() => small.stop());

  it('the account quota reached in the middle: the rows before it exist, the rest are reported', async () => {
    // About 300 KiB a row sealed: the 1 MiB day is full at the 4th.
    const recipients = Array.from({ length: 6 }, (_, i) => ({ name: `q${i + 1}`, payload: `${i}`.repeat(300_000) }));
    const res = await api.post(small, '/api/v2/pushes/batch', { token, json: { recipients } });
    expect(res.status).toBe(207);
    const failedAt = res.body.rows.findIndex((r: any) => r.status === 'failed');
    expect(failedAt).toBeGreaterThan(0);
    expect(res.body.rows[failedAt].http_status).toBe(429);
    expect(res.body.created).toBe(failedAt);
    const active = (await api.get(small, '/api/v2/pushes/active', { token })).body as any[];
    expect(active).toHaveLength(failedAt);
  });
});
