import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../support/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ LOG_LEVEL: 'debug' });
});
afterAll(() => server.stop());

describe('the request log', () => {
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
    const requests = server.logs.map((l) => JSON.parse(l)).filter((e) => e.msg === 'request');
    expect(requests).toContainEqual(expect.objectContaining({ level: 'info', method: 'GET', route: '/api/v2/pushes/:token', status: 200 }));
    expect(requests).toContainEqual(expect.objectContaining({ method: 'GET', route: '(no route)', status: 404 }));
    expect(requests).toContainEqual(expect.objectContaining({ route: '/p/:token/files/:fileId', status: 403 }));
    // One line per request (the creation, then each path asked for), each with an id and a duration.
    expect(requests).toHaveLength(paths.length + 1);
    for (const r of requests) {
      expect(r.request_id).toMatch(/^[0-9a-f-]{36}$/);
      expect(typeof r.duration_ms).toBe('number');
    }
  });

  it('takes the request id a proxy sends, answers with it, and replaces one that is not a plausible id', async () => {
    const given = await fetch(`${server.url}/api/v2/version`, { headers: { 'x-request-id': 'lb-7f3a9c.01' } });
    expect(given.headers.get('x-request-id')).toBe('lb-7f3a9c.01');
    const forged = 'x", "level":"error", "msg":"forged';
    const replaced = await fetch(`${server.url}/api/v2/version`, { headers: { 'x-request-id': forged } });
    const id = replaced.headers.get('x-request-id')!;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const made = await fetch(`${server.url}/api/v2/version`);
    expect(made.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const entries = server.logs.map((l) => JSON.parse(l));
    expect(entries).toContainEqual(expect.objectContaining({ request_id: 'lb-7f3a9c.01', route: '/api/v2/version' }));
    expect(entries).toContainEqual(expect.objectContaining({ request_id: id }));
    expect(server.logs.join('\n')).not.toContain('forged');
  });
});
