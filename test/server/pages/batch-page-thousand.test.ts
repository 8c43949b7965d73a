import { randomUUID } from 'node:crypto';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../../support/http.js';
import { startServer, type TestServer } from '../../support/server.js';
import { Browser, csrfFrom, decode } from './browser.js';

/**
 * Issue 35's 1,000-row batch through the page (/batch), both stores: the form's post with its CSRF
 * token, the complete CSV, each link opening once to its own secret, and the hourly row limit
 * stopping a batch part-way with every row reported. The API path is test/server/push-api/batch.test.ts.
 * Each test signs up a fresh account, so a retry is not confused by the first try's pushes or
 * limits (the limit counts per account).
 */
let server: TestServer;

beforeAll(async () => {
  server = await startServer({ BATCH_ROWS_PER_HOUR: '1500' });
});
afterAll(() => server.stop());

async function signedIn() {
  const b = new Browser(server);
  await b.signUp(`thousand-${randomUUID()}@example.com`);
  return b;
}

async function postBatch(b: Browser, fields: Record<string, string>, file: string) {
  const html = (await b.get('/batch')).text;
  const form = new FormData();
  form.set('csrf_token', csrfFrom(html, '/batch'));
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  form.set('recipients_file', new Blob([file], { type: 'text/csv' }), 'people.csv');
  return b.postMultipart('/batch', form, { origin: server.url });
}

const csvOf = (html: string) => decodeURIComponent(decode(/id="batch-download"[^>]*href="data:text\/csv;charset=utf-8,([^"]*)"/.exec(html)?.[1] ?? /href="data:text\/csv;charset=utf-8,([^"]*)"[^>]*id="batch-download"/.exec(html)![1]!));

const peopleCsv = (n: number) => ['name,email,secret', ...Array.from({ length: n }, (_, i) => `Person ${i + 1},p${i + 1}@example.com,page secret ${i + 1}`)].join('\n') + '\n';

const tokenOf = (link: string) => new URL(link).pathname.split('/')[2]!;

describe('a 1,000-row batch through the page', () => {
  it('created, the CSV complete, each link opens once to its own secret', { timeout: 180_000 }, async ({ task }) => {
    const b = await signedIn();
    const started = performance.now();
    const res = await postBatch(b, { 'push[expire_after_views]': '1', 'push[expire_after_days]': '3' }, peopleCsv(1000));
    console.log(`1,000-row post to /batch (project ${task.file.projectName}): ${(performance.now() - started).toFixed(0)} ms`);
    expect(res.status).toBe(200);
    const rows: Record<string, string>[] = parse(csvOf(res.text), { columns: true });
    expect(rows).toHaveLength(1000);
    rows.forEach((r, i) => expect(r).toMatchObject({ row: String(i + 1), name: `Person ${i + 1}`, email: `p${i + 1}@example.com`, status: 'created' }));
    expect(rows.every((r) => r.link!.startsWith(server.url))).toBe(true);
    expect(new Set(rows.map((r) => r.link)).size).toBe(1000);
    // Twenty at a time, each recipient from their own address, opening theirs twice.
    for (let from = 0; from < rows.length; from += 20) {
      await Promise.all(
        rows.slice(from, from + 20).map(async (r, j) => {
          const n = from + j + 1;
          const headers = { 'x-forwarded-for': `10.2.${n >> 8}.${n & 255}` };
          const token = tokenOf(r.link!);
          expect((await api.get(server, `/api/v2/pushes/${token}`, { headers })).body).toMatchObject({ payload: `page secret ${n}`, expire_after_views: 1, expire_after_days: 3 });
          expect((await api.get(server, `/api/v2/pushes/${token}`, { headers })).body).toMatchObject({ expired: true, payload: null });
        }),
      );
    }
  });

  it('the hourly row limit stops it part-way: the rows before exist, the rest are reported row by row', { timeout: 180_000 }, async () => {
    const b = await signedIn();
    // 1,500 rows an hour per account: 700 first, so the 1,000-row batch stops at row 801.
    expect((await postBatch(b, {}, peopleCsv(700))).status).toBe(200);
    const res = await postBatch(b, {}, peopleCsv(1000));
    expect(res.status).toBe(200);
    expect(/id="batch-summary">([^<]*)</.exec(res.text)![1]).toBe('800 of 1,000 links created.');
    expect(decode(/id="batch-stopped">([^<]*)</.exec(res.text)![1]!)).toMatch(/^Stopped at row 801: .*BATCH_ROWS_PER_HOUR.*/);
    const rows: Record<string, string>[] = parse(csvOf(res.text), { columns: true });
    expect(rows).toHaveLength(1000);
    expect(rows.map((r) => r.status)).toEqual([...Array(800).fill('created'), 'failed', ...Array(199).fill('not_attempted')]);
    rows.forEach((r, i) => expect(r.row).toBe(String(i + 1)));
    expect(rows.slice(800).every((r) => r.link === '')).toBe(true);
    // The rows before the stop exist: the first, the last created.
    for (const n of [1, 800]) {
      const headers = { 'x-forwarded-for': `10.3.${n >> 8}.${n & 255}` };
      expect((await api.get(server, `/api/v2/pushes/${tokenOf(rows[n - 1]!.link!)}`, { headers })).body).toMatchObject({ payload: `page secret ${n}` });
    }
  });
});
