import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUserWithToken, startServer, type TestServer } from '../../support/server.js';
import { Browser, csrfFrom } from './browser.js';

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

describe('onboarding and one account navigation (issue 29 item 8)', () => {
  it('sign-up lands on the dashboard with a welcome; every page’s header reaches New secret, requests, webhooks and tokens', async () => {
    const b = new Browser(server);
    const res = await b.signUp('welcome@example.com');
    expect(res.headers.get('location')).toBe('/dashboard?welcome=1');
    const dashboard = (await b.get('/dashboard?welcome=1')).text;
    expect(dashboard).toContain('Welcome, your account is ready.');
    expect((await b.get('/dashboard')).text).not.toContain('Welcome, your account is ready.');
    for (const path of ['/', '/dashboard', '/users/token', '/users/requests', '/users/webhooks']) {
      const nav = header((await b.get(path)).text);
      for (const href of ['/', '/dashboard', '/users/requests', '/users/webhooks', '/users/token']) expect(nav, `${path} → ${href}`).toContain(`href="${href}"`);
      expect(nav).toContain('New secret');
    }
    // Signed out: New secret and Sign in.
    const out = header((await new Browser(server).get('/users/sign_in')).text);
    expect(out).toContain('New secret');
    expect(out).not.toContain('/users/webhooks');
  });
});

describe('the header marks the page you are on (issue 29 item 8)', () => {
  it('aria-current="page" on exactly the link of the current page, and on none elsewhere', async () => {
    const b = new Browser(server);
    await b.signUp('current@example.com');
    for (const path of ['/', '/dashboard', '/users/token', '/users/requests', '/users/webhooks']) {
      const nav = header((await b.get(path)).text);
      const current = [...nav.matchAll(/<a [^>]*aria-current="page"[^>]*>/g)].map((m) => /href="([^"]*)"/.exec(m[0])![1]);
      expect(current, path).toEqual([path]);
    }
    // A page that is not in the navigation marks nothing; signed out, "Sign in" is marked on its own page.
    expect(header((await b.get('/catalogue')).text)).not.toContain('aria-current');
    const out = header((await new Browser(server).get('/users/sign_in')).text);
    expect(out).toMatch(/<a [^>]*href="\/users\/sign_in"[^>]*aria-current="page"|<a [^>]*aria-current="page"[^>]*href="\/users\/sign_in"/);
  });
});

describe('the create form: text, lifetime and passphrase up front, the rest under "More options" (issue 29 item 6)', () => {
  it('folds the other options away, and opens them when one needs fixing', async () => {
    const b = new Browser(server);
    const html = (await b.get('/')).text;
    const more = html.indexOf('<details class="more-options">');
    expect(more).toBeGreaterThan(0);
    for (const upFront of ['id="payload"', 'id="expire_after_days"', 'id="expire_after_views"', 'id="passphrase"']) expect(html.indexOf(upFront), upFront).toBeLessThan(more);
    for (const folded of ['id="max_failed_passphrase_attempts"', 'name="push[retrieval_step]"', 'name="push[deletable_by_viewer]"', 'id="name"', 'id="note"']) expect(html.indexOf(folded), folded).toBeGreaterThan(more);
    expect(html.indexOf('id="create-submit"')).toBeGreaterThan(html.indexOf('</details>', more));
    // The jargon explained in plain words where it appears, and tied to its checkbox for screen readers.
    expect(html).toMatch(/name="push\[retrieval_step\]" value="true"[^>]*aria-describedby="retrieval-step-hint"/);
    expect(html).toContain('chat apps and mail scanners that open links to preview them do not use up a view');
    expect(html).toMatch(/name="push\[deletable_by_viewer\]" value="true"[^>]*aria-describedby="deletable-hint"/);

    const form = new FormData();
    form.append('csrf_token', csrfFrom(html, '/'));
    form.append('push[payload]', 'x');
    form.append('push[name]', 'n'.repeat(300));
    const refused = await b.postMultipart('/', form);
    expect(refused.status).toBe(422);
    expect(refused.text).toContain('<details class="more-options" open');
  });
});

describe('honest encryption wording (issue 29 item 4)', () => {
  it('the create page no longer says "encrypted on the server" in its intro beside the browser line; the request page says where its answer is encrypted', async () => {
    const html = (await new Browser(server).get('/')).text;
    expect(html).not.toContain('The secret is encrypted on the server and deleted');
    expect(html).toMatch(/data-encryption-note="server">[^<]*encrypted on the server, which holds its key/);

    const { token } = await createUserWithToken(server, 'asker@example.com');
    const res = await fetch(`${server.url}/api/v2/secret-requests`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ title: 'VPN key', message: 'please' }),
    });
    expect(res.status).toBe(201);
    const request = (await res.json()) as { url_token: string };
    const answerPage = (await new Browser(server).get(`/req/${request.url_token}`)).text;
    expect(answerPage).toContain('stored encrypted on this server (which holds the key');
    expect(answerPage).not.toContain('only the person who sent you this link can read it');
  });
});

describe('the request page’s Send button has a line of its own (issue 29 item 12)', () => {
  it('is not beside the file picker', async () => {
    const { token } = await createUserWithToken(server, 'asker2@example.com');
    const res = await fetch(`${server.url}/api/v2/secret-requests`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ title: 'Files please', message: 'x' }),
    });
    const request = (await res.json()) as { url_token: string };
    const html = (await new Browser(server).get(`/req/${request.url_token}`)).text;
    expect(html).toMatch(/<p><button type="submit" id="send-answer"/);
  });
});
