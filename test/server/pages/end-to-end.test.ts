import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newPushKey } from '../../../shared/e2e/link-key.js';
import { encryptTextPayload } from '../../../shared/e2e/push-content.js';
import { startServer, type TestServer } from '../../support/server.js';
import { Browser, csrfFrom, decode } from './browser.js';

/**
 * The recipient pages of an end-to-end push over plain HTTP (what a link previewer or a browser
 * without scripts sees): the page itself never counts a view; only the script's POST to
 * /p/<token>/open does, with the page's CSRF token, once, answering the envelope as stored.
 */
let server: TestServer;

beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

async function createEndToEnd(extra: Record<string, unknown> = {}) {
  const payload = await encryptTextPayload(newPushKey(), 'never in clear');
  const res = await fetch(`${server.url}/api/v2/pushes`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ push: { payload, end_to_end: true, expire_after_views: 2, deletable_by_viewer: true, ...extra } }),
  });
  expect(res.status).toBe(201);
  const rec = (await res.json()) as { url_token: string };
  return { token: rec.url_token, payload };
}

const views = async (token: string) => (await server.server.pushes.peek(token))!.views;
const csrfOf = (html: string) => decode(/data-csrf="([^"]+)"/.exec(html)![1]!);

describe('end-to-end recipient pages', () => {
  it('serve the reveal step and the page without counting a view, with the script and a message for browsers without one', async () => {
    const { token } = await createEndToEnd();
    const b = new Browser(server);
    const step = await b.get(`/p/${token}/r`);
    expect(step.status).toBe(200);
    expect(step.text).toContain('id="e2e-step"');
    expect(step.text).toContain('<script src="/assets/e2e-recipient.js"');
    for (let i = 0; i < 3; i++) {
      const page = await b.get(`/p/${token}`);
      expect(page.status).toBe(200);
      expect(page.text).toContain('<noscript>');
      expect(page.text).not.toContain('never in clear');
    }
    expect(await views(token)).toBe(0);
  });

  it('open: needs the page’s CSRF token, counts one view per opening, answers the envelope as stored, then expires', async () => {
    const { token, payload } = await createEndToEnd();
    const b = new Browser(server);
    const csrf = csrfOf((await b.get(`/p/${token}`)).text);
    expect((await b.post(`/p/${token}/open`, { csrf_token: 'forged' })).status).toBe(403);
    expect(await views(token)).toBe(0);

    const first = await b.post(`/p/${token}/open`, { csrf_token: csrf });
    expect(first.status).toBe(200);
    const body = JSON.parse(first.text) as { payload: string; files: string[]; views_remaining: number; remaining: string };
    expect(body).toMatchObject({ payload, files: [], views_remaining: 1 });
    expect(body.remaining).toMatch(/1 more view/);
    expect(await views(token)).toBe(1);

    expect((await b.post(`/p/${token}/open`, { csrf_token: csrf })).status).toBe(200);
    const gone = await b.post(`/p/${token}/open`, { csrf_token: csrf });
    expect(gone.status).toBe(404);
    expect((await b.get(`/p/${token}`)).status).toBe(404);
  });

  it('open refuses ordinary pushes (their page shows them itself)', async () => {
    const res = await fetch(`${server.url}/api/v2/pushes`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ push: { payload: 'plain' } }) });
    const { url_token: token } = (await res.json()) as { url_token: string };
    const b = new Browser(server);
    // The session's CSRF token, from another of its pages.
    const csrf = csrfFrom((await b.get('/')).text, '/');
    expect((await b.post(`/p/${token}/open`, { csrf_token: csrf })).status).toBe(404);
    expect(await views(token)).toBe(0);
  });
});
