import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeLinkKey, newPushKey } from '../../../shared/e2e/link-key.js';
import { encryptTextPayload } from '../../../shared/e2e/push-content.js';
import { createPush } from '../../support/http.js';
import { createUserWithToken, startServer, type TestServer } from '../../support/server.js';
import { smtpAndServer } from '../../support/smtp-receiver.js';
import { Browser, csrfFrom, decode } from './browser.js';

/**
 * "E-mail the link" on the pages (issue 31 item 4): the create page's recipients and the result
 * and owner pages' "E-mail the link…" form, without scripts (the Chromium file,
 * test/e2e/mail-links.test.ts, covers the scripted and end-to-end paths). Real server (both
 * stores), real SMTP.
 */
describe('e-mailing the link from the pages', () => {
  const harness = smtpAndServer();
  let plain: TestServer;
  let n = 0;
  const unique = (what: string) => `${what}-${Date.now()}-${++n}@example.test`;

  beforeAll(async () => {
    plain = await startServer();
  });
  afterAll(async () => {
    await plain?.stop();
  });

  /** A browser signed in to a new account (and the account's API token, for pushes made over the API). */
  async function signedIn(s: TestServer, headers: Record<string, string> = {}) {
    const email = unique('sender');
    const { token } = await createUserWithToken(s, email);
    await s.server.accounts.setPassword(email, 'mail horse battery staple');
    const b = new Browser(s, headers);
    expect((await b.submit('/users/sign_in', '/users/sign_in', { email, password: 'mail horse battery staple' })).status).toBe(303);
    return { b, email, token };
  }

  /** The create form posted as the page posts it without scripts. */
  async function postCreate(b: Browser, fields: Record<string, string>) {
    const page = (await b.get('/')).text;
    const form = new FormData();
    form.append('csrf_token', csrfFrom(page, '/'));
    for (const [k, v] of Object.entries({ 'push[kind]': 'text', 'push[expire_after_days]': '7', 'push[expire_after_views]': '5', ...fields })) form.append(k, v);
    return b.postMultipart('/', form);
  }

  it('the create page offers recipients only to a signed-in sender on a server with e-mail', async () => {
    expect((await new Browser(harness.server).get('/')).text).not.toContain('push[notify_emails]');
    const { b } = await signedIn(harness.server);
    const page = (await b.get('/')).text;
    expect(page).toContain('name="push[notify_emails]"');
    expect(page).toContain('name="push[notify_note]"');
    expect(page).toMatch(/type="email"[^>]*multiple/);
    // Said next to the field: an end-to-end link's key reaches the server only in these mails.
    expect(decode(page)).toContain("The recipients' mail servers can read the whole link.");
    const { b: withoutSmtp } = await signedIn(plain);
    expect((await withoutSmtp.get('/')).text).not.toContain('notify_emails');
  });

  it('a signed-in sender names two recipients and a note: each gets the link, the result page says where it went', async () => {
    const { b, email } = await signedIn(harness.server);
    const [one, two] = [unique('recipient'), unique('recipient')];
    const made = await postCreate(b, { 'push[payload]': 'create page secret', 'push[notify_emails]': `${one}, ${two}`, 'push[notify_note]': 'For the staging database' });
    expect(made.status).toBe(200);
    const text = decode(made.text);
    expect(text).toContain(`The link is on its way to 2 addresses: ${one}, ${two}.`);
    const link = /<code id="secret-link">([^<]+)<\/code>/.exec(made.text)![1]!;
    for (const to of [one, two]) {
      const mail = await harness.smtp.mailTo(to);
      expect(mail.to).toEqual([to]);
      expect(mail.parsed.text).toContain(link);
      expect(mail.parsed.text).toContain('> For the staging database');
      expect(mail.parsed.replyTo?.text).toBe(email);
      // The secret itself is never in the mail, only its link.
      expect(mail.raw).not.toContain('create page secret');
    }
    // The result page offers "E-mail the link…" for more recipients.
    expect(made.text).toContain('data-email-link-form');
  });

  it('anonymous: no recipients field, and a forged post is refused with a clear message (German too); no push, no mail', async () => {
    const forged = unique('forged');
    for (const [headers, message] of [
      [{}, 'needs an account: anonymous pushes cannot be e-mailed'],
      [{ 'accept-language': 'de' }, 'braucht ein Konto: anonyme Pushes können nicht per E-Mail gesendet werden'],
    ] as const) {
      const b = new Browser(harness.server, headers);
      const answer = await postCreate(b, { 'push[payload]': 'anonymous secret', 'push[notify_emails]': forged });
      expect(answer.status).toBe(422);
      expect(decode(answer.text)).toContain(message);
      expect(answer.text).not.toContain('id="secret-link"');
    }
    expect(harness.smtp.mailsTo(forged)).toHaveLength(0);
  });

  it('bad addresses: each one named, what was typed kept, nothing created', async () => {
    const { b } = await signedIn(harness.server, { 'accept-language': 'fr' });
    const answer = await postCreate(b, { 'push[payload]': 'kept secret', 'push[notify_emails]': 'ok@example.test, not-an-address, also@bad', 'push[notify_note]': 'kept note' });
    expect(answer.status).toBe(422);
    const text = decode(answer.text);
    expect(text).toContain('"not-an-address" n’est pas une adresse e-mail');
    expect(text).toContain('"also@bad" n’est pas une adresse e-mail');
    expect(text).toContain('value="ok@example.test, not-an-address, also@bad"');
    expect(text).toContain('kept note');
    const six = Array.from({ length: 6 }, (_, i) => `six${i}@example.test`).join(',');
    expect(decode((await postCreate(b, { 'push[payload]': 'x', 'push[notify_emails]': six })).text)).toContain('5 adresses au plus');
  });

  it('the result page\'s form e-mails the link without scripts, and the owner\'s page (/preview) offers it too', async () => {
    const { b, token } = await signedIn(harness.server);
    const push = await createPush(harness.server, { payload: 'e-mailed later' }, token);
    const preview = (await b.get(`/p/${push.url_token}/preview`)).text;
    expect(preview).toContain(`action="/p/${push.url_token}/email"`);
    const to = unique('later');
    const sent = await b.post(`/p/${push.url_token}/email`, { csrf_token: csrfFrom(preview, `/p/${push.url_token}/email`), notify_emails: to, notify_note: 'Sent from the owner page' });
    expect(sent.status).toBe(200);
    expect(decode(sent.text)).toContain(`The link is on its way to 1 address: ${to}.`);
    const mail = await harness.smtp.mailTo(to);
    expect(mail.parsed.text).toContain(push.html_url);
    expect(mail.parsed.text).toContain('> Sent from the owner page');
    // Not offered to anyone else, nor for an end-to-end push (its key is not on the server).
    expect((await new Browser(harness.server).get(`/p/${push.url_token}/preview`)).text).not.toContain('data-email-link-form');
    const e2e = await createPush(harness.server, { payload: await encryptTextPayload(newPushKey(), 'sealed'), end_to_end: true }, token);
    expect((await b.get(`/p/${e2e.url_token}/preview`)).text).not.toContain('data-email-link-form');
    // Nor on a server without e-mail.
    const { b: withoutSmtp, token: plainToken } = await signedIn(plain);
    const plainPush = await createPush(plain, { payload: 'no mail' }, plainToken);
    expect((await withoutSmtp.get(`/p/${plainPush.url_token}/preview`)).text).not.toContain('data-email-link-form');
  });

  it('once the push has expired (views used up, or deleted by its owner) the form is not offered, and a post from a page opened before is refused clearly (422, in the page\'s language), no mail', async () => {
    const { b, token, email } = await signedIn(harness.server);
    const viewed = await createPush(harness.server, { payload: 'seen once', expire_after_views: 1 }, token);
    const deleted = await createPush(harness.server, { payload: 'deleted by its owner' }, token);
    const before = await Promise.all([viewed, deleted].map(async (p) => (await b.get(`/p/${p.url_token}/preview`)).text));
    for (const page of before) expect(page).toContain('data-email-link-form');
    // The result page of a push made on the create page, kept open while the push expires.
    const made = await postCreate(b, { 'push[payload]': 'made on the page', 'push[expire_after_views]': '1' });
    const madeToken = /action="\/p\/([^/"]+)\/email"/.exec(made.text)![1]!;

    expect((await fetch(`${harness.server.url}/p/${viewed.url_token}.json`)).status).toBe(200);
    expect((await fetch(`${harness.server.url}/p/${madeToken}.json`)).status).toBe(200);
    expect((await fetch(`${harness.server.url}/p/${deleted.url_token}.json`, { method: 'DELETE', headers: { authorization: `Bearer ${token}` } })).status).toBe(200);

    const to = unique('too-late');
    for (const [pushToken, page] of [[viewed.url_token, before[0]!], [deleted.url_token, before[1]!], [madeToken, made.text]] as const) {
      const now = await b.get(`/p/${pushToken}/preview`);
      expect(now.status).toBe(200);
      expect(now.text).not.toContain('data-email-link-form');
      expect(now.text).not.toContain(`action="/p/${pushToken}/email"`);
      const refused = await b.post(`/p/${pushToken}/email`, { csrf_token: csrfFrom(page, `/p/${pushToken}/email`), notify_emails: to }, { 'accept-language': 'de' });
      expect(refused.status).toBe(422);
      expect(decode(refused.text)).toContain('Nicht gesendet: Dieser Push ist abgelaufen oder wurde gelöscht');
      expect(refused.text).not.toContain('data-email-link-form');
    }
    const owner = (await harness.server.server.store.getUserByEmail(email))!;
    expect((await harness.server.server.store.listMails(owner.id, 20)).filter((m) => m.kind === 'push-link')).toEqual([]);
    expect(harness.smtp.mailsTo(to)).toEqual([]);
  });

  it('refused: a stale CSRF token or none (403), another account\'s push (404), bad addresses per address, an end-to-end push without its key; in Japanese too', async () => {
    const { b, token } = await signedIn(harness.server, { 'accept-language': 'ja' });
    const push = await createPush(harness.server, { payload: 'mine' }, token);
    const action = `/p/${push.url_token}/email`;
    const csrf = csrfFrom((await b.get(`/p/${push.url_token}/preview`)).text, action);
    const target = unique('never');
    expect((await b.post(action, { csrf_token: 'stale', notify_emails: target })).status).toBe(403);
    const anonymous = await new Browser(harness.server).post(action, { notify_emails: target });
    expect(anonymous.status).toBe(403); // no session, so no CSRF token either
    const { b: other } = await signedIn(harness.server);
    const otherCsrf = csrfFrom((await other.get('/')).text, '/');
    expect((await other.post(action, { csrf_token: otherCsrf, notify_emails: target })).status).toBe(404);
    const bad = await b.post(action, { csrf_token: csrf, notify_emails: `${target}, nope, nope2@`, notify_note: 'kept' });
    expect(bad.status).toBe(422);
    const badText = decode(bad.text);
    expect(badText).toContain('"nope" はメールアドレスではありません');
    expect(badText).toContain('"nope2@" はメールアドレスではありません');
    expect(badText).toContain(`value="${target}, nope, nope2@"`);
    expect(badText).toContain('aria-invalid="true"');
    const empty = await b.post(action, { csrf_token: csrf, notify_emails: '' });
    expect(empty.status).toBe(422);
    expect(decode(empty.text)).toContain('には少なくとも 1 件のメールアドレスが必要です');
    const e2e = await createPush(harness.server, { payload: await encryptTextPayload(newPushKey(), 'sealed'), end_to_end: true }, token);
    const noKey = await b.post(`/p/${e2e.url_token}/email`, { csrf_token: csrf, notify_emails: target });
    expect(noKey.status).toBe(422);
    expect(decode(noKey.text)).toContain('エンドツーエンドのプッシュにはリンクの鍵が必要です');
    expect(harness.smtp.mailsTo(target)).toHaveLength(0);
  });

  it('an end-to-end push\'s form carries the key the page has (as its script sends it): the mail holds the whole link', async () => {
    const { b, token } = await signedIn(harness.server);
    const key = newPushKey();
    const linkKey = await encodeLinkKey(key);
    const e2e = await createPush(harness.server, { payload: await encryptTextPayload(key, 'sealed'), end_to_end: true }, token);
    const csrf = csrfFrom((await b.get('/')).text, '/');
    const to = unique('e2e');
    const sent = await b.post(`/p/${e2e.url_token}/email`, { csrf_token: csrf, notify_emails: to, link_key: linkKey });
    expect(sent.status).toBe(200);
    expect((await harness.smtp.mailTo(to)).parsed.text).toContain(`${e2e.html_url}#${linkKey}`);
  });

  it('hostile text in every field of the e-mail form and the create page\'s recipients: never a 5xx; a CR/LF address adds no header or recipient', async () => {
    const { b, token } = await signedIn(harness.server);
    const push = await createPush(harness.server, { payload: 'hostile fixture' }, token);
    const action = `/p/${push.url_token}/email`;
    const csrf = csrfFrom((await b.get(`/p/${push.url_token}/preview`)).text, action);
    const anonymous = new Browser(harness.server);
    await anonymous.get('/');
    for (const h of ['a%00b', '%ED%A0%80', '%C0%80', 'x%0D%0ABcc:%20evil@example.test']) {
      for (const field of ['notify_emails', 'notify_note', 'link_key', 'csrf_token']) {
        const answer = await b.request('POST', action, { body: `csrf_token=${encodeURIComponent(csrf)}&notify_emails=ok@example.test&${field}=${h}`, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
        expect(answer.status, `${field}=${h}`).toBeLessThan(500);
      }
      for (const path of [`/p/${h}/email`, `/p/${push.url_token}${h}/email`]) {
        expect((await b.request('POST', path, { body: `csrf_token=${encodeURIComponent(csrf)}&notify_emails=ok@example.test`, headers: { 'content-type': 'application/x-www-form-urlencoded' } })).status, path).toBeLessThan(500);
      }
      for (const who of [b, anonymous]) {
        const answer = await postCreate(who, { 'push[payload]': 'x', 'push[notify_emails]': decodeURIComponent(h.replace('%ED%A0%80', '').replace('%C0%80', '')), 'push[notify_note]': 'n' });
        expect(answer.status).toBeLessThan(500);
      }
    }
    const injected = await b.post(action, { csrf_token: csrf, notify_emails: 'cr@example.test\r\nBcc: evil@example.test', notify_note: 'line\r\nBcc: evil2@example.test' });
    expect(injected.status).toBe(422);
    // A form body in another encoding is refused as such, not a 5xx.
    expect((await b.request('POST', action, { body: 'notify_emails=x', headers: { 'content-type': 'text/plain' } })).status).toBeLessThan(500);
    const noted = await b.post(action, { csrf_token: csrf, notify_emails: 'noted@example.test', notify_note: 'line\r\nBcc: evil3@example.test' });
    expect(noted.status).toBe(200);
    await harness.smtp.mailTo('noted@example.test');
    for (const evil of ['evil@example.test', 'evil2@example.test', 'evil3@example.test']) expect(harness.smtp.received.some((m) => m.to.includes(evil))).toBe(false);
    expect((await harness.smtp.mailTo('noted@example.test')).parsed.headers.has('bcc')).toBe(false);
  });

  it('the daily limit per address: the sixth link to one address in a day is 429 with Retry-After and a message in the page\'s language', async () => {
    const { b, token } = await signedIn(harness.server, { 'accept-language': 'es' });
    const to = unique('limited');
    const csrf = csrfFrom((await b.get('/')).text, '/');
    for (let i = 0; i < 5; i++) {
      const push = await createPush(harness.server, { payload: `limited ${i}` }, token);
      expect((await b.post(`/p/${push.url_token}/email`, { csrf_token: csrf, notify_emails: to })).status).toBe(200);
    }
    const push = await createPush(harness.server, { payload: 'one too many' }, token);
    const refused = await b.post(`/p/${push.url_token}/email`, { csrf_token: csrf, notify_emails: to });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(decode(refused.text)).toContain('Se enviaron demasiados enlaces secretos por correo');
    await harness.smtp.mailTo(to, 5);
    expect(harness.smtp.mailsTo(to)).toHaveLength(5);
  });
});
