import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../support/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

/**
 * Hono's SmartRouter settles, on the first request, on the first router that accepts every
 * route: RegExpRouter (one regular expression per method) unless a single route has a fixed
 * path or a second parameter pattern beside a parameter at the same level, and then TrieRouter
 * for every request of the app (a search that allocates and costs more per request). A new route
 * that brings the fallback back fails here; fold it into its level's one parameter route
 * (v2-routes.ts's fixedSiblings, v1-routes.ts's jsonSegment).
 */
describe('the router', () => {
  it('is RegExpRouter, not the TrieRouter fallback', async () => {
    await fetch(`${server.url}/api/v2/version`).then((r) => r.arrayBuffer());
    expect(server.server.routerName()).toBe('SmartRouter + RegExpRouter');
  });

  it('still tells the fixed names beside a token apart: collections, JSON API and recipient page', async () => {
    const created = await fetch(`${server.url}/api/v2/pushes`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ push: { payload: 'routed', expire_after_views: 5 } }),
    }).then((r) => r.json() as Promise<{ url_token: string }>);
    const token = created.url_token;
    // Anonymous: the collections need an account (401), whatever the prefix or suffix.
    for (const path of ['/api/v2/pushes/active', '/api/v2/pushes/expired.json', '/p/active.json', '/f/expired.json', '/r/active.json']) {
      const res = await fetch(`${server.url}${path}`);
      await res.arrayBuffer();
      expect(res.status, path).toBe(401);
    }
    const preview = await fetch(`${server.url}/p/${token}/preview.json`).then((r) => r.json() as Promise<{ url_token?: string }>);
    expect(JSON.stringify(preview)).toContain(token);
    // The recipient page answers a token without .json, as HTML,.
    const page = await fetch(`${server.url}/p/${token}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    await page.arrayBuffer();
    const shown = await fetch(`${server.url}/p/${token}.json`).then((r) => r.json() as Promise<{ payload: string }>);
    expect(shown.payload).toBe('routed');
    const v2 = await fetch(`${server.url}/api/v2/pushes/${token}`).then((r) => r.json() as Promise<{ payload: string }>);
    expect(v2.payload).toBe('routed');
    const deleted = await fetch(`${server.url}/r/${token}.json`, { method: 'DELETE' });
    await deleted.arrayBuffer();
    expect(deleted.status).toBe(200);
    const notJson = await fetch(`${server.url}/p/${token}`, { method: 'DELETE' });
    await notJson.arrayBuffer();
    expect(notJson.status).toBe(404);
  });
});
