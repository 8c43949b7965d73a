import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeDeliveryError, translateFieldMessage } from '../../../server/http/pages/i18n/service-messages.js';
import { translator } from '../../../server/http/pages/i18n/translator.js';
import { startServer, type TestServer } from '../../support/server.js';
import { Browser, csrfFrom } from './browser.js';

/**
 * Issue 29 item 10: a browser gets HTML error pages (titled, translated, with a landmark) for
 * unknown URLs and for errors outside the pages; API clients keep their exact JSON answers.
 */
let server: TestServer;

beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

/** What Chromium sends when a person opens a link. */
const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8';

const get = (path: string, headers: Record<string, string> = {}) => fetch(`${server.url}${path}`, { headers });

describe('unknown URLs and errors: HTML for browsers, JSON for API clients', () => {
  it('an unknown URL opened in a browser is a 404 page with a title, a language and a main landmark', async () => {
    const res = await get('/no/such/page', { accept: BROWSER_ACCEPT });
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await res.text();
    expect(html).toMatch(/<html lang="en"/);
    expect(html).toContain('<title>Not found · Secret Push</title>');
    expect(html).toContain('<main');
    expect(html).toContain('There is nothing at this address.');

    const de = await (await get('/no/such/page', { accept: BROWSER_ACCEPT, 'accept-language': 'de' })).text();
    expect(de).toMatch(/<html lang="de"/);
  });

  it('API clients keep the exact JSON, whatever the path (Accept JSON, a wildcard, none; API paths even when HTML is asked)', async () => {
    for (const [path, accept] of [
      ['/no/such/page', 'application/json'],
      ['/no/such/page', '*/*'],
      ['/no/such/page', undefined],
      ['/api/v2/nothing', BROWSER_ACCEPT],
      ['/p/abcdefghijkl.json', BROWSER_ACCEPT],
      ['/trpc/nothing', undefined],
    ] as const) {
      const res = await get(path, accept ? { accept } : {});
      expect(res.status, path).toBe(404);
      expect(res.headers.get('content-type'), path).toMatch(/^application\/json/);
    }
    expect(await (await get('/no/such/page', { accept: 'application/json' })).text()).toBe('{"error":"not-found"}');
    expect(await (await get('/api/v2/nothing', { accept: BROWSER_ACCEPT })).text()).toBe('{"error":"not-found"}');
  });

  it('an error outside the pages (a file link without its ticket) is a page for a browser and the same JSON for an API client', async () => {
    const path = '/p/abcdefghijklmnop/files/nofile';
    const api = await get(path, { accept: 'application/json' });
    expect(api.status).toBe(403);
    expect(await api.json()).toEqual({ error: expect.any(String) });

    const page = await get(path, { accept: BROWSER_ACCEPT });
    expect(page.status).toBe(403);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await page.text();
    expect(html).toContain('<title>Not allowed · Secret Push</title>');
    expect(html).toContain('<main');
  });
});

describe('service messages on pages are in the page’s language', () => {
  it('German create form: "Tage muss zwischen 1 und 90 liegen", not "Tage must be between 1 and 90"', async () => {
    const b = new Browser(server, { 'accept-language': 'de' });
    const page = await b.get('/');
    const form = new FormData();
    form.append('csrf_token', csrfFrom(page.text, '/'));
    form.append('push[payload]', 'geheim');
    form.append('push[expire_after_days]', '500');
    const res = await b.postMultipart('/', form);
    expect(res.status).toBe(422);
    expect(res.text).toContain('Tage muss zwischen 1 und 90 liegen');
    expect(res.text).not.toContain('must be between');
    // The API's answer is unchanged: Password Pusher clients read these sentences.
    const api = await fetch(`${server.url}/api/v2/pushes`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'accept-language': 'de' },
      body: JSON.stringify({ push: { payload: 'x', expire_after_days: 500 } }),
    });
    expect(await api.json()).toEqual({ expire_after_days: ['must be between 1 and 90'] });
  });

  it('every known service sentence has its words in each language; unknown ones pass through', () => {
    const t = translator('fr');
    expect(translateFieldMessage(t, 'is too long (maximum is 255 characters)')).toBe('est trop long (255 caractères au maximum)');
    expect(translateFieldMessage(t, "can't be blank")).toBe('ne peut pas être vide');
    expect(translateFieldMessage(t, 'must be between 0 (off) and 10')).toBe('doit être compris entre 0 (désactivé) et 10');
    expect(translateFieldMessage(t, 'something new')).toBe('something new');
  });

  it('webhook delivery errors in human words, the code kept beside them', () => {
    const t = translator('en');
    expect(describeDeliveryError(t, 'getaddrinfo ENOTFOUND hooks.example.invalid')).toBe('Host name not found (ENOTFOUND)');
    expect(describeDeliveryError(t, 'connect ECONNREFUSED 127.0.0.1:9')).toBe('The server refused the connection (ECONNREFUSED)');
    expect(describeDeliveryError(t, 'The operation was aborted due to timeout')).toBe('The server did not answer in time');
    expect(describeDeliveryError(t, 'self-signed certificate')).toBe("The server's TLS certificate was not accepted");
    expect(describeDeliveryError(translator('de'), 'getaddrinfo ENOTFOUND x')).toBe('Hostname nicht gefunden (ENOTFOUND)');
    expect(describeDeliveryError(t, 'weird')).toBe('Delivery failed: weird');
  });
});
