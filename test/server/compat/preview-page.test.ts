import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createPush } from '../../support/http.js';
import { createUserWithToken, startServer, type TestServer } from '../../support/server.js';
import { Browser, textOf } from '../pages/browser.js';

/**
 * `GET /p/<token>/preview`: the page Password Pusher shows the sender (and the official
 * extension's "Show QR" reads): the secret link, a copy button and a QR code of the link as an
 * inline svg. It never shows or uses up the secret, and its access rules are the JSON preview's.
 */
const svgsOf = (html: string) => html.match(/<svg[\s\S]*?<\/svg>/gi) ?? [];

describe('the preview page (anonymous access on)', () => {
  let server: TestServer;
  let owner: string;
  beforeAll(async () => {
    server = await startServer();
    ({ token: owner } = await createUserWithToken(server, 'preview-owner@example.com'));
  });
  afterAll(() => server.stop());

  const auditKinds = async (token: string) => (await api.get(server, `/api/v2/pushes/${token}/audit`, { token: owner })).body.logs.map((l: { kind: string }) => l.kind);

  it('shows the secret link with a copy button and its QR code; not the secret; counts and logs nothing', async () => {
    const p = await createPush(server, { payload: 'never on the preview', note: 'private note', expire_after_views: 1, retrieval_step: false }, owner);
    for (let i = 0; i < 3; i++) {
      const page = await fetch(`${server.url}/p/${p.url_token}/preview`);
      const html = await page.text();
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
      expect(page.headers.get('cache-control')).toBe('no-store');
      expect(page.headers.get('x-robots-tag')).toBe('noindex, nofollow');
      expect(textOf(html, 'secret-link')).toBe(p.html_url);
      expect(html).toMatch(/<button [^>]*data-copy="secret-link"/);
      expect(svgsOf(html)).toHaveLength(1);
      expect(html).not.toContain('never on the preview');
      expect(html).not.toContain('private note');
    }
    const head = await fetch(`${server.url}/p/${p.url_token}/preview`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await auditKinds(p.url_token)).toEqual(['creation']);
    // The one view is still there for the recipient.
    expect((await api.get(server, `/api/v2/pushes/${p.url_token}`)).body).toMatchObject({ payload: 'never on the preview', views_remaining: 0 });
  });

  it('links to the retrieval step when the push has one, and never shows a passphrase', async () => {
    const p = await createPush(server, { payload: 'x', retrieval_step: true, passphrase: 'swordfish' });
    const html = await (await fetch(`${server.url}/p/${p.url_token}/preview`)).text();
    expect(textOf(html, 'secret-link')).toBe(`${server.url}/p/${p.url_token}/r`);
    expect(html).not.toContain('swordfish');
  });

  it('an expired push still has its page (as the JSON preview still gives its URL), saying it expired', async () => {
    const p = await createPush(server, { payload: 'gone soon' }, owner);
    await api.delete(server, `/api/v2/pushes/${p.url_token}`, { token: owner });
    const res = await fetch(`${server.url}/p/${p.url_token}/preview`);
    const html = await res.text();
    expect(res.status).toBe(200);
    expect((await api.get(server, `/api/v2/pushes/${p.url_token}/preview`)).body).toEqual({ url: p.html_url });
    expect(html).toMatch(/has expired/);
    expect(html).not.toContain('gone soon');
  });

  it('unknown or malformed tokens: 404, as the JSON preview', async () => {
    for (const token of ['nosuchtoken12345', 'NOT%20A%20TOKEN']) {
      const page = await fetch(`${server.url}/p/${token}/preview`);
      expect.soft([token, page.status]).toEqual([token, 404]);
      expect((await api.get(server, `/api/v2/pushes/${token}/preview`)).status).toBe(404);
    }
  });

  it('a token header that finds no account: 401, as the JSON preview (Authorization, or X-User-Token alone)', async () => {
    const p = await createPush(server, { payload: 'x' });
    const badHeaders: Array<Record<string, string>> = [{ authorization: 'Bearer not-a-token' }, { 'x-user-token': owner }];
    for (const headers of badHeaders) {
      const page = await fetch(`${server.url}/p/${p.url_token}/preview`, { headers });
      expect(page.status).toBe(401);
      expect((await api.get(server, `/api/v2/pushes/${p.url_token}/preview`, { headers })).status).toBe(401);
    }
    expect((await fetch(`${server.url}/p/${p.url_token}/preview`, { headers: { authorization: `Bearer ${owner}` } })).status).toBe(200);
  });
});

describe('the preview page with ALLOW_ANONYMOUS=false', () => {
  let server: TestServer;
  let token: string;
  let pushToken: string;
  beforeAll(async () => {
    server = await startServer({ ALLOW_ANONYMOUS: 'false' });
    ({ token } = await createUserWithToken(server, 'closed-owner@example.com'));
    pushToken = (await createPush(server, { payload: 'closed instance' }, token)).url_token;
  });
  afterAll(() => server.stop());

  it('anonymous: 401, as the JSON preview', async () => {
    const page = await fetch(`${server.url}/p/${pushToken}/preview`);
    expect(page.status).toBe(401);
    expect(svgsOf(await page.text())).toHaveLength(0);
    expect((await api.get(server, `/api/v2/pushes/${pushToken}/preview`)).status).toBe(401);
  });

  it('with an API token, or signed in (the session cookie): 200', async () => {
    const withToken = await fetch(`${server.url}/p/${pushToken}/preview`, { headers: { authorization: `Bearer ${token}` } });
    expect(withToken.status).toBe(200);
    const browser = new Browser(server);
    await browser.signUp('someone-signed-in@example.com');
    const signedIn = await browser.get(`/p/${pushToken}/preview`);
    expect(signedIn.status).toBe(200);
    expect(svgsOf(signedIn.text)).toHaveLength(1);
  });
});
