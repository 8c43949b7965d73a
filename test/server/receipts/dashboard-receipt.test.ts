import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../../support/http.js';
import { startServer, type TestServer } from '../../support/server.js';
import { Browser, csrfFrom } from '../pages/browser.js';

/** A page's text, tags removed and spaces collapsed. */
const textOf = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/&#x27;|&#39;/g, "'").replace(/&quot;/g, '"').replace(/&amp;/g, '&').replace(/\s+/g, ' ');

/**
 * Read receipts on the pages: the create page sets burn on guessing, and the owner's dashboard
 * says whether and when each push was opened, how many views are used and how many wrong
 * passphrases were given.
 */
describe('read receipts on the create page and the dashboard', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ MAX_FAILED_PASSPHRASE_ATTEMPTS: '4' });
  });
  afterAll(() => server.stop());

  it('creates with a burn limit from the page, then shows first opened, views used and wrong passphrases', async () => {
    const b = new Browser(server);
    await b.signUp('receipts@example.com');
    const page = await b.get('/');
    expect(page.text).toContain('name="push[max_failed_passphrase_attempts]"');
    expect(page.text).toContain('placeholder="4"');
    const form = new FormData();
    form.append('csrf_token', csrfFrom(page.text, '/'));
    form.append('push[payload]', 'page secret');
    form.append('push[passphrase]', 'open up');
    form.append('push[max_failed_passphrase_attempts]', '3');
    form.append('push[name]', 'router password');
    const created = await b.postMultipart('/', form);
    expect(created.status).toBe(200);
    const token = /\/p\/([A-Za-z0-9_-]+)\/r/.exec(created.text)![1]!;

    expect(textOf((await b.get('/dashboard')).text)).toContain('not opened yet · 0 of 5 views used · destroyed at 3 wrong passphrases');

    expect((await api.get(server, `/api/v2/pushes/${token}?passphrase=nope`)).status).toBe(401);
    expect((await api.get(server, `/api/v2/pushes/${token}?passphrase=open%20up`)).body.payload).toBe('page secret');
    const dashboard = textOf((await b.get('/dashboard')).text);
    expect(dashboard).toMatch(/first opened .*UTC.* · 1 of 5 views used · 1 wrong passphrase · destroyed at 3 wrong passphrases/);
  });

  it('an empty burn field means the server default; a bad one is shown again with its message', async () => {
    const b = new Browser(server);
    await b.signUp('receipts2@example.com');
    const post = async (fields: Record<string, string>) => {
      const form = new FormData();
      form.append('csrf_token', csrfFrom((await b.get('/')).text, '/'));
      for (const [k, v] of Object.entries(fields)) form.append(k, v);
      return b.postMultipart('/', form);
    };
    expect((await post({ 'push[payload]': 'a', 'push[passphrase]': 'p', 'push[max_failed_passphrase_attempts]': '' })).status).toBe(200);
    expect(textOf((await b.get('/dashboard')).text)).toContain('destroyed at 4 wrong passphrases');
    const bad = await post({ 'push[payload]': 'b', 'push[max_failed_passphrase_attempts]': '2' });
    expect(bad.status).toBe(422);
    expect(textOf(bad.text)).toContain('needs a passphrase (it counts wrong passphrases)');
  });
});
