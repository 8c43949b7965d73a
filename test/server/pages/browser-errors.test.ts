import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeDeliveryError, translateFieldMessage, translateServiceMessage } from '../../../server/http/pages/i18n/service-messages.js';
import { HASHING_BUSY_MESSAGE } from '../../../server/crypto/hashing-queue.js';
import {
  emailDomainsOnlyMessage,
  PASSWORDS_OFF_MESSAGE,
  SIGN_IN_LIMITED_MESSAGE,
  SSO_ACCOUNT_DELETED_MESSAGE,
  SSO_INVITE_NEEDED_MESSAGE,
  SSO_NO_EMAIL_MESSAGE,
  SSO_OTHER_IDENTITY_MESSAGE,
  SSO_SIGN_UP_CLOSED_MESSAGE,
  SSO_UNVERIFIED_MESSAGE,
} from '../../../server/accounts/account-service.js';
import {
  SSO_CANCELLED_MESSAGE,
  SSO_FLOW_LOST_MESSAGE,
  SSO_PROVIDER_REFUSED_MESSAGE,
  SSO_UNVERIFIABLE_MESSAGE,
  ssoUnreachableMessage,
} from '../../../server/accounts/oidc/relying-party.js';
import { bodyTooLarge } from '../../../server/http/request-body.js';
import { locales } from '../../../server/http/pages/i18n/locales.js';
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

  it('full-page service sentences are in the page’s language: a refused page, a refused sign-in (issue 29 item 10)', async () => {
    const push = await fetch(`${server.url}/api/v2/pushes`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ push: { payload: 'not yours' } }) });
    const token = ((await push.json()) as { url_token: string }).url_token;
    const b = new Browser(server, { 'accept-language': 'de' });
    await b.signUp('someone-else@example.com');
    const refused = await b.get(`/p/${token}/expire`);
    expect(refused.status).toBe(403);
    expect(refused.text).toContain('Dieser Push gehört nicht Ihnen.');
    expect(refused.text).not.toContain('belong to you');

    const fr = new Browser(server, { 'accept-language': 'fr' });
    const signIn = await fr.submit('/users/sign_in', '/users/sign_in', { email: 'someone-else@example.com', password: 'not the password' });
    expect(signIn.status).toBe(401);
    expect(signIn.text).toContain('Adresse e-mail ou mot de passe incorrect.');
    expect(signIn.text).not.toContain('Invalid email or password.');

    // A create form with more fields than a body may hold: refused in the page's language.
    const many = new URLSearchParams({ 'push[payload]': 'x' });
    for (let i = 0; i < 1200; i++) many.append('push[x][]', String(i));
    const tooMany = await fetch(`${server.url}/`, { method: 'POST', headers: { origin: server.url, 'accept-language': 'de', 'content-type': 'application/x-www-form-urlencoded' }, body: many });
    expect(tooMany.status).toBe(413);
    const page = await tooMany.text();
    expect(page).toContain('Zu viele Formularfelder: höchstens 1000 in einer Anfrage.');
    expect(page).not.toContain('Too many form fields');
  });

  it('each known service sentence, as the service words it, has its words in all 7 languages', () => {
    const sentences = [
      "That push doesn't belong to you.",
      "That request doesn't belong to you.",
      'You need to sign in or sign up before continuing.',
      'You must be signed in to attach files.',
      'Authentication required: this instance does not allow anonymous access.',
      'This download link is invalid or has expired. Open the secret link again.',
      'Invalid email or password.',
      'Too many accounts were made from your address (the limit is 5 an hour). Please try again later.',
      'A file is larger than the limit of 1.5 MiB (1572864 bytes).',
      "This push cannot be decrypted with the server's key. The administrator must restore the MASTER_KEY it was stored under.",
      HASHING_BUSY_MESSAGE,
      'This account no longer exists.',
      "This upload did not come from this site's create page (its CSRF token is missing or stale): reload the page.",
      bodyTooLarge(4194304).message,
      'Too many form fields: the limit is 1000 in one body.',
      SIGN_IN_LIMITED_MESSAGE,
      // Single sign-on's refusals, shown on the SSO error page and the sign-in form.
      ssoUnreachableMessage('Corp ID'),
      SSO_FLOW_LOST_MESSAGE,
      SSO_CANCELLED_MESSAGE,
      SSO_PROVIDER_REFUSED_MESSAGE,
      SSO_UNVERIFIABLE_MESSAGE,
      PASSWORDS_OFF_MESSAGE,
      SSO_NO_EMAIL_MESSAGE,
      SSO_UNVERIFIED_MESSAGE,
      SSO_OTHER_IDENTITY_MESSAGE,
      SSO_SIGN_UP_CLOSED_MESSAGE,
      SSO_INVITE_NEEDED_MESSAGE,
      SSO_ACCOUNT_DELETED_MESSAGE,
      emailDomainsOnlyMessage(['corp.example', 'corp.example.org']),
    ];
    for (const sentence of sentences) {
      expect(translateServiceMessage(translator('en'), sentence)).toBe(sentence);
      for (const locale of locales.filter((l) => l !== 'en')) expect(translateServiceMessage(translator(locale), sentence), `${locale}: ${sentence}`).not.toBe(sentence);
    }
    expect(translateServiceMessage(translator('de'), 'A file is larger than the limit of 1.5 MiB (1572864 bytes).')).toBe('Eine Datei ist größer als die Grenze von 1.5 MiB (1572864 bytes).');
    expect(translateServiceMessage(translator('de'), 'something new.')).toBe('something new.');
    // The provider's name and the domains are kept as the service wrote them.
    expect(translateServiceMessage(translator('ja'), ssoUnreachableMessage('Corp ID'))).toContain('（Corp ID）');
    expect(translateServiceMessage(translator('de'), emailDomainsOnlyMessage(['corp.example', 'corp.example.org']))).toBe('Konten auf diesem Server gibt es nur für Adressen unter corp.example, corp.example.org.');
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
