import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../support/server.js';
import { Browser } from './browser.js';

/** The shell every page shares (layout.tsx): header navigation, footer, skip link. */
let server: TestServer;

beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

const header = (html: string) => /<header class="site">([\s\S]*?)<\/header>/.exec(html)![1]!;
const footer = (html: string) => /<footer class="site">([\s\S]*?)<\/footer>/.exec(html)?.[1] ?? '';

async function plainPush() {
  const res = await fetch(`${server.url}/api/v2/pushes`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ push: { payload: 'p', retrieval_step: true } }) });
  return ((await res.json()) as { url_token: string }).url_token;
}

describe('the catalogue is not in every header (issue 29 item 7)', () => {
  it('no header links to it; the footer of the ordinary pages and its own pages do; a recipient’s page does not', async () => {
    const b = new Browser(server);
    for (const path of ['/', '/users/sign_in', '/catalogue']) {
      const html = (await b.get(path)).text;
      expect(header(html), path).not.toContain('/catalogue');
      expect(footer(html), path).toContain('href="/catalogue"');
    }
    const token = await plainPush();
    const recipient = (await b.get(`/p/${token}/r`)).text;
    expect(recipient).not.toContain('href="/catalogue"');
  });
});
