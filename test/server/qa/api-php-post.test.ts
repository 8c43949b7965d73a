import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../support/server.js';

/**
 * QA: MediaWiki's api.php takes its parameters from a form-encoded POST body as well as from the
 * query string, and wiki clients use that (mwclient's `Site.api()` and mediawiki-js' `post()`
 * POST by default). `POST /api.php` answered 404 `{"error":"not-found"}`, which no wiki client
 * can read.
 */
let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.stop();
});

const post = async (body: string, query = '', headers: Record<string, string> = {}) => {
  const response = await fetch(`${server.url}/api.php${query}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body,
  });
  return { status: response.status, headers: response.headers, json: (await response.json()) as any };
};

describe('POST /api.php (form-encoded, as wiki clients send it)', () => {
  it('answers paraminfo from the body exactly as GET does from the query string', async () => {
    const body = 'action=paraminfo&modules=query%2Ballpages%7Cquery%2Blinks&format=json&formatversion=2';
    const posted = await post(body);
    expect(posted.status).toBe(200);
    expect(posted.headers.get('content-type')).toContain('application/json');
    const got = await (await fetch(`${server.url}/api.php?${body}`)).json();
    expect(posted.json).toEqual(got);
    expect(posted.json.paraminfo.modules.map((m: any) => m.path)).toEqual(['query+allpages', 'query+links']);
  });

  it('merges the query string and the body, the body winning (PHP: $_POST over $_GET)', async () => {
    const posted = await post('modules=query%2Brevisions&formatversion=2', '?action=paraminfo&modules=query%2Ballpages&format=json');
    expect(posted.json.paraminfo.modules.map((m: any) => m.path)).toEqual(['query+revisions']);
    expect(posted.json.paraminfo.modules[0].generator).toBe(true);
  });

  it('errors keep the wiki envelope and header', async () => {
    const posted = await post('action=query&list=allpages&format=json');
    expect(posted.status).toBe(200);
    expect(posted.headers.get('mediawiki-api-error')).toBe('moduledisabled');
    expect(posted.json.error.code).toBe('moduledisabled');
  });

  it('a body over the cap is refused with 413, not read whole', async () => {
    const posted = await post(`action=paraminfo&x=${'a'.repeat(300_000)}`);
    expect(posted.status).toBe(413);
    expect(posted.json.error).toMatch(/too large/);
  });
});
