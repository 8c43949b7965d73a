import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../../support/http.js';
import { startServer, type TestServer } from '../../support/server.js';
import { Browser, csrfFrom, decode } from './browser.js';

/**
 * One link per recipient on the pages (issue 35 items 1 and 2), over plain HTTP, both stores: the
 * create page's batch mode (/batch) and the dashboard's group. The Chromium test is
 * test/e2e/pages-batch.test.ts.
 */
let server: TestServer;

beforeAll(async () => {
  server = await startServer({ BATCH_ROWS_PER_HOUR: '6' });
});
afterAll(() => server.stop());

async function signedIn(email: string) {
  const b = new Browser(server);
  await b.signUp(email);
  return b;
}

async function postBatch(b: Browser, fields: Record<string, string>, file?: string) {
  const html = (await b.get('/batch')).text;
  const form = new FormData();
  form.set('csrf_token', csrfFrom(html, '/batch'));
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  if (file !== undefined) form.set('recipients_file', new Blob([file], { type: 'text/csv' }), 'people.csv');
  return b.postMultipart('/batch', form, { origin: server.url });
}

const csvOf = (html: string) => decodeURIComponent(decode(/id="batch-download"[^>]*href="data:text\/csv;charset=utf-8,([^"]*)"/.exec(html)?.[1] ?? /href="data:text\/csv;charset=utf-8,([^"]*)"[^>]*id="batch-download"/.exec(html)![1]!));

describe('the batch page', () => {
  it('signed out: to sign-in; the create page offers the mode only when signed in', async () => {
    const anon = new Browser(server);
    const res = await anon.get('/batch');
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/users/sign_in?return_to=%2Fbatch');
    expect((await anon.get('/')).text).not.toContain('href="/batch"');
    expect((await (await signedIn('batch-offer@example.com')).get('/')).text).toContain('href="/batch"');
  });

  it('a CSV file: each row its own push; the page holds the CSV of row,name,email,link,status and no-store; the dashboard groups the batch and shows who opened theirs', async () => {
    const b = await signedIn('batch-page@example.com');
    const res = await postBatch(b, { 'push[expire_after_views]': '1', 'push[expire_after_days]': '2' }, 'name,email,secret\nAnn,ann@example.com,first secret\n"Smith, Bob",,second secret\n');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toContain('no-store');
    const rows: Record<string, string>[] = parse(csvOf(res.text), { columns: true });
    expect(rows.map((r) => [r.row, r.name, r.email, r.status])).toEqual([['1', 'Ann', 'ann@example.com', 'created'], ['2', 'Smith, Bob', '', 'created']]);
    const tokens = rows.map((r) => new URL(r.link!).pathname.split('/')[2]!);
    expect((await api.get(server, `/api/v2/pushes/${tokens[1]}`)).body).toMatchObject({ payload: 'second secret', expire_after_views: 1, expire_after_days: 2 });

    const dashboard = (await b.get('/dashboard')).text;
    expect(dashboard.match(/class="card push-card batch-group"/g)).toHaveLength(1);
    expect(dashboard).toContain('A batch of 2 links, one per recipient');
    expect(dashboard).toContain('1 of 2 opened');
    const rowsShown = [...dashboard.matchAll(/<tr data-batch-row(?:="[^"]*")?><td>([^<]*)<\/td><td>([^<]*)<\/td>/g)].map((m) => [decode(m[1]!), m[2] === 'not opened yet' ? 'no' : 'yes']);
    expect(rowsShown).toEqual([['Ann', 'no'], ['Smith, Bob', 'yes']]);
    // The links are the sender's CSV alone: not on the dashboard.
    for (const r of rows) expect(dashboard).not.toContain(r.link);
    // Another account's dashboard has none of it.
    expect((await (await signedIn('batch-other@example.com')).get('/dashboard')).text).not.toContain('batch-group');
  });

  it('bad rows: 422, the form again naming each bad row, nothing created', async () => {
    const b = await signedIn('batch-bad@example.com');
    const res = await postBatch(b, { recipients_text: 'name,email,secret\nok,,fine\n,,nobody\nx,not-an-address,y\n' });
    expect(res.status).toBe(422);
    const problems = [...res.text.matchAll(/<li data-row-problem(?:="[^"]*")?>([^<]*)<\/li>/g)].map((m) => decode(m[1]!));
    expect(problems).toEqual(['row 2: needs a name or an email', 'row 3: "not-an-address" is not an e-mail address']);
    expect(res.text).toContain('ok,,fine');
    expect((await b.get('/dashboard')).text).not.toContain('batch-group');
  });

  it('a batch stopped half-way (BATCH_ROWS_PER_HOUR=6, 8 rows after 2): the page says at which row and which rows exist', async () => {
    const b = await signedIn('batch-half@example.com');
    const first = await postBatch(b, { generate: 'true', recipients_text: 'name\na\nb\n' });
    expect(first.status).toBe(200);
    const res = await postBatch(b, { generate: 'true', recipients_text: ['name', ...Array.from({ length: 8 }, (_, i) => `p${i + 1}`)].join('\n') });
    expect(res.status).toBe(200);
    expect(res.text).toContain('4 of 8 links created.');
    expect(decode(/id="batch-stopped">([^<]*)</.exec(res.text)![1]!)).toMatch(/^Stopped at row 5: .*BATCH_ROWS_PER_HOUR.* The rows before it exist; the rows after it were not created\.$/);
    const rows: Record<string, string>[] = parse(csvOf(res.text), { columns: true });
    expect(rows.map((r) => r.status)).toEqual([...Array(4).fill('created'), 'failed', ...Array(3).fill('not_attempted')]);
    expect(rows.slice(0, 4).every((r) => r.link.startsWith(server.url))).toBe(true);
    expect(rows.slice(4).every((r) => r.link === '')).toBe(true);
  });

  it('a cross-site post is refused before anything is made', async () => {
    const b = await signedIn('batch-csrf@example.com');
    const form = new FormData();
    form.set('recipients_text', 'name,secret\na,b\n');
    const res = await b.postMultipart('/batch', form, { origin: 'https://evil.example' });
    expect(res.status).toBe(403);
    expect((await b.get('/dashboard')).text).not.toContain('batch-group');
  });
});
