import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../../support/http.js';
import { createUserWithToken, startServer, type TestServer } from '../../support/server.js';
import { Browser, decode } from './browser.js';

/**
 * A batch longer than a dashboard page (50 pushes) is shown once: one card, on the page where the
 * batch's newest push falls, linking to a page of all its rows; the other pages list their other
 * pushes as before. A batch's release time and a single push's are on their cards. Both stores.
 * Each test makes its own account, so a retry starts clean.
 */
let server: TestServer;

beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

async function owner() {
  const email = `paging-${randomUUID()}@example.com`;
  const b = new Browser(server);
  await b.signUp(email);
  const { token } = await createUserWithToken(server, email);
  return { b, token };
}

async function singles(token: string, prefix: string, count: number) {
  for (let i = 1; i <= count; i++) {
    const res = await api.post(server, '/api/v2/pushes', { token, json: { push: { payload: `${prefix} secret ${i}`, name: `${prefix}-${i}`, expire_after_views: 1 } } });
    expect(res.status).toBe(201);
  }
}

const batchCards = (html: string) => html.match(/class="card push-card batch-group"/g)?.length ?? 0;
/** The names on the single push cards of a page, top to bottom. */
const singleNames = (html: string) => [...html.matchAll(/<article class="card push-card">\s*<header[^>]*>\s*<h2>([^<]*)<\/h2>/g)].map((m) => decode(m[1]!));
const rowNames = (html: string) => [...html.matchAll(/<tr data-batch-row(?:="[^"]*")?><td>([^<]*)<\/td>/g)].map((m) => decode(m[1]!));
const range = (prefix: string, from: number, to: number) => Array.from({ length: Math.abs(to - from) + 1 }, (_, i) => `${prefix}-${from > to ? from - i : from + i}`);

describe('a batch longer than a dashboard page', () => {
  it('60 rows between 30 older and 55 newer pushes: one card, on page 2 where its newest push falls; pages 1 and 3 list their single pushes as before', async () => {
    const { b, token } = await owner();
    await singles(token, 'old', 30);
    const made = await api.post(server, '/api/v2/pushes/batch', { token, json: { generate: true, push: { expire_after_views: 1 }, recipients: Array.from({ length: 60 }, (_, i) => ({ name: `row-${i + 1}` })) } });
    expect(made.status).toBe(201);
    expect(made.body.created).toBe(60);
    const batchId = made.body.batch_id as string;
    await singles(token, 'new', 55);

    // Newest first, 50 a page: page 1 = new 55..6; page 2 = new 5..1 and rows 60..16; page 3 = rows 15..1 and old 30..1.
    const page1 = (await b.get('/dashboard?state=active&page=1')).text;
    expect(batchCards(page1)).toBe(0);
    expect(singleNames(page1)).toEqual(range('new', 55, 6));

    const page2 = (await b.get('/dashboard?state=active&page=2')).text;
    expect(batchCards(page2)).toBe(1);
    expect(page2).toContain('A batch of 60 links, one per recipient');
    expect(page2).toContain('0 of 60 opened');
    expect(singleNames(page2)).toEqual(range('new', 5, 1));
    // The card sits where the batch's newest push is: after new-1.
    expect(page2.indexOf('batch-group')).toBeGreaterThan(page2.indexOf('<h2>new-1</h2>'));
    // It lists the first 25 rows and links to all of them.
    expect(rowNames(page2)).toEqual(range('row', 1, 25));
    expect(page2).toContain(`href="/dashboard/batch/${batchId}" data-batch-all-rows`);
    expect(page2).toContain('All 60 rows, page by page');

    const page3 = (await b.get('/dashboard?state=active&page=3')).text;
    expect(batchCards(page3)).toBe(0);
    expect(rowNames(page3)).toEqual([]);
    expect(singleNames(page3)).toEqual(range('old', 30, 1));

    // The batch's page: all 60 rows in the order made, 50 a page.
    const rows1 = await b.get(`/dashboard/batch/${batchId}`);
    expect(rows1.status).toBe(200);
    expect(rowNames(rows1.text)).toEqual(range('row', 1, 50));
    expect(rows1.text).toContain(`href="/dashboard/batch/${batchId}?page=2"`);
    const rows2 = (await b.get(`/dashboard/batch/${batchId}?page=2`)).text;
    expect(rowNames(rows2)).toEqual(range('row', 51, 60));
    expect(rows2).toContain(`href="/dashboard/batch/${batchId}"`);
    expect(rows2).not.toContain('?page=3');

    // Two recipients open theirs (the newest and the oldest row): both move to the expired tab,
    // where the batch has its one card too; the active tab's card stays on page 2.
    for (const row of [made.body.rows[59], made.body.rows[0]]) expect((await api.get(server, `/api/v2/pushes/${row.url_token}`)).status).toBe(200);
    const expired = (await b.get('/dashboard?state=expired&page=1')).text;
    expect(batchCards(expired)).toBe(1);
    expect(expired).toContain('2 of 60 opened');
    const active2 = (await b.get('/dashboard?state=active&page=2')).text;
    expect(batchCards(active2)).toBe(1);
    expect(active2).toContain('2 of 60 opened');
    expect(batchCards((await b.get('/dashboard?state=active&page=1')).text)).toBe(0);
    expect(batchCards((await b.get('/dashboard?state=active&page=3')).text)).toBe(0);
  });

  it("the batch page: signed out to sign-in; another account's batch, an unknown one and a bad page number are refused without a 500", async () => {
    const { b: mine, token } = await owner();
    const made = await api.post(server, '/api/v2/pushes/batch', { token, json: { generate: true, recipients: [{ name: 'only' }] } });
    expect(made.status).toBe(201);
    const path = `/dashboard/batch/${made.body.batch_id}`;
    const anon = await new Browser(server).get(path);
    expect(anon.status).toBe(303);
    expect(anon.headers.get('location')).toBe(`/users/sign_in?return_to=${encodeURIComponent(path)}`);
    const other = (await owner()).b;
    expect((await other.get(path)).status).toBe(404);
    expect((await other.get(`/dashboard/batch/${randomUUID()}`)).status).toBe(404);
    expect((await other.get(`/dashboard/batch/%00`)).status).toBe(404);
    expect((await mine.get(path)).status).toBe(200);
    // Twenty pages of 50 hold the largest batch; past that, or not a number: 400.
    for (const bad of ['abc', '0', '21', '-1']) expect((await mine.get(`${path}?page=${bad}`)).status).toBe(400);
    expect((await mine.get(`${path}?page=20`)).status).toBe(200);
  });
});

describe('release time and linked secrets on the dashboard cards', () => {
  it("a batch's card and a single push's card say when they open", async () => {
    const { b, token } = await owner();
    // Within the default expiry days (a release after the expiry is refused).
    const notBefore = new Date(Date.now() + 2 * 86_400_000).toISOString();
    const year = notBefore.slice(0, 4);
    expect((await api.post(server, '/api/v2/pushes/batch', { token, json: { generate: true, push: { not_before: notBefore }, recipients: [{ name: 'a' }, { name: 'b' }] } })).status).toBe(201);
    expect((await api.post(server, '/api/v2/pushes', { token, json: { push: { payload: 'later', name: 'single-later', not_before: notBefore } } })).status).toBe(201);
    expect((await api.post(server, '/api/v2/pushes', { token, json: { push: { payload: 'now', name: 'single-now' } } })).status).toBe(201);
    const html = (await b.get('/dashboard')).text;
    const card = (marker: string) => {
      const start = html.indexOf(marker);
      return html.slice(start, html.indexOf('</article>', start));
    };
    expect(card('batch-group')).toMatch(new RegExp(`Opens from [^·<]*${year}`));
    expect(card('<h2>single-later</h2>')).toMatch(new RegExp(`Opens from [^·<]*${year}`));
    expect(card('<h2>single-now</h2>')).not.toContain('Opens from');
  });
});
