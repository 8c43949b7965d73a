import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newPushKey } from '../../../shared/e2e/link-key.js';
import { encryptTextPayload } from '../../../shared/e2e/push-content.js';
import { startServer, type TestServer } from '../../support/server.js';
import { Browser, cookieAttrs } from './browser.js';

let server: TestServer;
let token: string;

beforeAll(async () => {
  server = await startServer();
  const res = await fetch(`${server.url}/api/v2/pushes`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ push: { payload: 'h' } }) });
  token = ((await res.json()) as { url_token: string }).url_token;
});
afterAll(() => server.stop());

describe('every page', () => {
  const pages = () => ['/', `/p/${token}/r`, '/p/unknowntoken123/r', '/users/sign_in', '/users/sign_up'];

  it('has a strict CSP, noindex, no-store, nosniff, and no third-party resources', async () => {
    for (const path of pages()) {
      const res = await new Browser(server).get(path);
      expect(res.headers.get('content-type'), path).toMatch(/^text\/html; charset=utf-8/i);
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp, path).toContain("default-src 'none'");
      expect(csp, path).toContain("script-src 'self'");
      expect(csp, path).not.toContain('unsafe-inline');
      expect(res.headers.get('x-robots-tag'), path).toBe('noindex, nofollow');
      expect(res.headers.get('cache-control'), path).toBe('no-store');
      expect(res.headers.get('x-content-type-options'), path).toBe('nosniff');
      expect(res.text, path).toContain('<meta name="viewport" content="width=device-width, initial-scale=1"/>');
      expect(res.text, path).toContain('<meta name="robots" content="noindex, nofollow"/>');
      const urls = [...res.text.matchAll(/(?:src|href|action)="([^"]*)"/g)].map((m) => m[1]!);
      // Same-origin paths, data: URIs, or a place in the same page (the skip link's #main).
      for (const u of urls) expect((u.startsWith('/') && !u.startsWith('//')) || u.startsWith('data:') || /^#[\w-]+$/.test(u), `${path}: ${u}`).toBe(true);
      expect(res.text).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
      expect(res.text).not.toMatch(/\sstyle=/);
    }
  });

  it('a secret page is no-store too, and the stylesheet has light and dark colours', async () => {
    const res = await new Browser(server).get(`/p/${token}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const css = await (await fetch(`${server.url}/assets/style.css`)).text();
    expect(css).toContain('prefers-color-scheme: dark');
  });

  it('only the end-to-end recipient page may frame, and only this origin (where its save worker starts a download)', async () => {
    for (const path of pages()) expect((await new Browser(server).get(path)).headers.get('content-security-policy'), path).not.toContain('frame-src');
    const e2e = await fetch(`${server.url}/api/v2/pushes`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ push: { payload: await encryptTextPayload(newPushKey(), 'x'), end_to_end: true } }) });
    const e2eToken = ((await e2e.json()) as { url_token: string }).url_token;
    const page = await new Browser(server).get(`/p/${e2eToken}`);
    const csp = page.headers.get('content-security-policy')!;
    expect(csp).toContain("frame-src 'self'");
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    // The page itself still refuses to be framed.
    expect(page.headers.get('x-frame-options')).toBe('DENY');
  });

  it('serves the save worker with the scope it needs, revalidated so that a fixed worker replaces the old one', async () => {
    const res = await fetch(`${server.url}/assets/e2e-save-worker.js`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(res.headers.get('service-worker-allowed')).toBe('/p/~e2e-save/');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect((await fetch(`${server.url}/assets/pages.js`)).headers.get('service-worker-allowed')).toBeNull();
  });

  it('sets only HttpOnly, SameSite=Lax cookies', async () => {
    const res = await new Browser(server).get('/users/sign_in');
    const nonce = cookieAttrs(res.setCookies, 'sp_nonce');
    expect(nonce).toMatch(/; Path=\/; HttpOnly; SameSite=Lax/);
  });

  it('the API never sets or reads page cookies', async () => {
    const res = await fetch(`${server.url}/api/v2/version`);
    expect(res.headers.getSetCookie()).toEqual([]);
  });

  it('refuses page forms sent in another encoding with an HTML 400', async () => {
    const b = new Browser(server);
    const res = await b.request('POST', '/users/sign_in', { body: JSON.stringify({ email: 'a', password: 'b' }), headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
  });
});
