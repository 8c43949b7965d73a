import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../support/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ LOG_LEVEL: 'debug' });
});
afterAll(() => server.stop());

describe('the request log (LOG_LEVEL=debug)', () => {
  it('logs route patterns, never the requested path: no URL token even on mistyped or unknown paths', async () => {
    const created = await fetch(`${server.url}/api/v2/pushes`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ push: { payload: 'log me not', expire_after_views: 50 } }),
    }).then((r) => r.json());
    const token: string = created.url_token;
    const paths = [
      `/api/v2/pushes/${token}`,
      `/api/v2/pushes/${token}.json`,
      `/p/${token}/r`,
      `/p/${token}.json`,
      `//p/${token}`,
      `/P/${token}`,
      `/api/v2//pushes/${token}`,
      `/x/${token}`,
      `/p/${token}/files/abc?exp=1&ticket=zzz`,
    ];
    for (const path of paths) await fetch(`${server.url}${path}`).then((r) => r.arrayBuffer());
    const log = server.logs.join('\n');
    expect(log).not.toContain(token);
    expect(log).not.toContain('log me not');
    expect(log).not.toContain('ticket');
    expect(log).toMatch(/GET \/api\/v2\/pushes\/:token 200/);
    expect(log).toMatch(/GET \(no route\) 404/);
  });
});
