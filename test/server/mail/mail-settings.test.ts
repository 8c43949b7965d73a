import { createTRPCClient, httpLink } from '@trpc/client';
import { describe, expect, it } from 'vitest';
import type { AppRouter } from '../../../server/http/trpc/app-router.js';
import { api, createPush } from '../../support/http.js';
import { createUserWithToken } from '../../support/server.js';
import { smtpAndServer, type ReceivedMail } from '../../support/smtp-receiver.js';
import { Browser, csrfFrom } from '../pages/browser.js';

/**
 * The account's e-mail settings (issue 31): receipt defaults applied to pushes made by pages and
 * the API, the account's language for API receipts, List-Unsubscribe (one-click), the receipt of
 * an answered request, and changing the address. Real server (both stores), real SMTP.
 */
describe('account e-mail settings', () => {
  const mail = smtpAndServer({ REQUIRE_EMAIL_CONFIRMATION: 'false' });

  /** An account with a password and an API token, signed in in a browser with `headers`. */
  const signedIn = async (prefix: string, headers: Record<string, string> = {}) => {
    const email = `${prefix}-${Date.now()}-${Math.random().toString(36).slice(2, 6)}@example.test`;
    const { token, userId } = await createUserWithToken(mail.server, email);
    await mail.server.server.accounts.setPassword(email, 'settings horse battery staple');
    const b = new Browser(mail.server, headers);
    expect((await b.submit('/users/sign_in', '/users/sign_in', { email, password: 'settings horse battery staple' })).status).toBe(303);
    return { email, token, userId, b };
  };
  const stored = (userId: string) => mail.server.server.store.getUser(userId);
  const linkIn = (m: ReceivedMail, path: string) => {
    const found = new RegExp(`https?://[^\\s"<>]+${path}[^\\s"<>]*`).exec(m.parsed.text ?? '');
    if (!found) throw new Error(`no ${path} link in: ${m.parsed.text}`);
    return new URL(found[0]);
  };

  it('receipt defaults: set on the settings page, applied to a REST and a tRPC push that do not say, not to one that says no; the page form starts checked and an unchecked box means no', async () => {
    const { token, userId, b } = await signedIn('defaults');
    const settings = await b.get('/users/mail-settings');
    expect(settings.status).toBe(200);
    expect((await b.get('/users/token')).text).toContain('href="/users/mail-settings"');
    const saved = await b.post('/users/mail-settings', { csrf_token: csrfFrom(settings.text, '/users/mail-settings'), opened: 'true', request_answered: 'true' });
    expect(saved.status).toBe(200);
    expect((await stored(userId))!.receiptDefaults).toEqual({ opened: true, expiredUnopened: false, requestAnswered: true });

    await createPush(mail.server, { payload: 'default receipts' }, token);
    await createPush(mail.server, { payload: 'no receipts', email_on_open: false }, token);
    const trpc = createTRPCClient<AppRouter>({ links: [httpLink({ url: `${mail.server.url}/trpc`, headers: () => ({ authorization: `Bearer ${token}` }) })] });
    await trpc.pushes.create.mutate({ payload: 'default receipts over tRPC' });
    const [viaTrpc, saidNo, byDefault] = await mail.server.server.store.listPushesByOwner(userId, false, 0, 3);
    expect(byDefault!.receipts).toMatchObject({ opened: true, expiredUnopened: false });
    expect(saidNo!.receipts).toBeUndefined();
    expect(viaTrpc!.receipts).toMatchObject({ opened: true, expiredUnopened: false });

    // The create page: the box starts checked; a form sent without it asks for no receipt.
    const page = (await b.get('/')).text;
    expect(page).toMatch(/name="push\[email_on_open\]" value="true" checked/);
    expect(page).not.toMatch(/name="push\[email_on_expired_unopened\]" value="true" checked/);
    const form = new FormData();
    form.append('csrf_token', csrfFrom(page, '/'));
    for (const [k, v] of Object.entries({ 'push[kind]': 'text', 'push[payload]': 'page secret, box unchecked', 'push[expire_after_days]': '7', 'push[expire_after_views]': '5' })) form.append(k, v);
    expect((await b.postMultipart('/', form)).status).toBe(200);
    const [fromPage] = await mail.server.server.store.listPushesByOwner(userId, false, 0, 1);
    expect(fromPage!.receipts).toBeUndefined();
  });

  it('an API push\'s receipt is in the language the account last used on the pages; it carries List-Unsubscribe (one-click), which turns the default off without signing in', async () => {
    const { email, token, userId, b } = await signedIn('language', { 'accept-language': 'fr' });
    expect((await stored(userId))!.locale).toBe('fr');
    // The language menu while signed in changes it.
    expect((await b.get('/users/token?lang=de')).status).toBe(200);
    expect((await stored(userId))!.locale).toBe('de');
    const settings = await b.get('/users/mail-settings');
    await b.post('/users/mail-settings', { csrf_token: csrfFrom(settings.text, '/users/mail-settings'), opened: 'true' });

    const push = await createPush(mail.server, { payload: 'opened in German', name: 'Router' }, token);
    expect((await api.get(mail.server, `/p/${push.url_token}.json`)).status).toBe(200);
    const receipt = await mail.smtp.mailTo(email);
    expect(receipt.parsed.subject).toBe('Ihr Push „Router“ wurde geöffnet');
    expect(receipt.parsed.headers.get('content-language')).toBe('de');
    expect(receipt.raw).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click\r?$/m);
    // List-Unsubscribe: <https://…>, however the header is folded.
    const header = /^List-Unsubscribe:([^\r\n]*(?:\r?\n[ \t][^\r\n]*)*)/m.exec(receipt.raw)![1]!.replace(/\r?\n[ \t]+/g, '');
    const stop = new URL(/<(https?:[^>]+)>/.exec(header)![1]!);
    expect(stop.pathname).toMatch(/^\/mail\/unsubscribe\//);
    expect(receipt.parsed.text).toContain(stop.href);

    // Opened in a browser: a button, nothing changed yet.
    const shown = await new Browser(mail.server).get(stop.pathname);
    expect(shown.status).toBe(200);
    expect((await stored(userId))!.receiptDefaults!.opened).toBe(true);
    // A forged link does nothing.
    const forged = stop.pathname.replace(/\.opened\./, '.expiredUnopened.');
    expect((await fetch(mail.server.url + forged, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'List-Unsubscribe=One-Click' })).status).toBe(404);
    // The mail program's one-click POST: no cookie, no CSRF token.
    const oneClick = await fetch(mail.server.url + stop.pathname, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'List-Unsubscribe=One-Click' });
    expect(oneClick.status).toBe(200);
    expect((await stored(userId))!.receiptDefaults).toEqual({ opened: false, expiredUnopened: false, requestAnswered: false });
    await createPush(mail.server, { payload: 'no receipt now' }, token);
    const [latest] = await mail.server.server.store.listPushesByOwner(userId, false, 0, 1);
    expect(latest!.receipts).toBeUndefined();
  });

  it('a request answered: its owner gets one mail naming it by its title, linking to the answer\'s audit, without the secret or its link', async () => {
    const { email, token, userId } = await signedIn('requester');
    const made = await api.post(mail.server, '/api/v2/secret-requests', { token, json: { title: 'VPN password', email_on_answer: true } });
    expect(made.status).toBe(201);
    const secret = 'answer-never-in-mail-91b2';
    expect((await api.post(mail.server, `/api/v2/secret-requests/${made.body.url_token}/answer`, { json: { payload: secret } })).status).toBeLessThan(300);
    const m = await mail.smtp.mailTo(email);
    expect(m.parsed.subject).toBe('Your request “VPN password” was answered');
    const [answer] = await mail.server.server.store.listPushesByOwner(userId, false, 0, 1);
    expect(linkIn(m, '/dashboard/push/').pathname).toBe(`/dashboard/push/${encodeURIComponent(answer!.token)}`);
    const listed = (await api.get(mail.server, '/api/v2/secret-requests', { token })).body[0];
    const answerUrl = new URL(listed.answer_html_url as string);
    for (const part of [m.raw, m.parsed.text ?? '', String(m.parsed.html)]) {
      expect(part).not.toContain(secret);
      expect(part).not.toContain(answerUrl.pathname);
      expect(part).not.toContain(made.body.url_token as string);
    }
    expect(m.raw).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click\r?$/m);
    // One mail only, and a request that did not ask sends none.
    const quiet = await api.post(mail.server, '/api/v2/secret-requests', { token, json: { title: 'quiet' } });
    await api.post(mail.server, `/api/v2/secret-requests/${quiet.body.url_token}/answer`, { json: { payload: 'x' } });
    expect((await mail.server.server.store.listMails(userId, 10)).map((x) => x.kind)).toEqual(['request-answered']);
  });

  it('changing the address: the current password, a link to the new address, the change only when it is followed (once), and a notice to the old address', async () => {
    const { email, userId, b } = await signedIn('mover');
    const newEmail = `moved-${Date.now()}@example.test`;
    const page = await b.get('/users/mail-settings');
    const csrf = csrfFrom(page.text, '/users/email');
    const wrong = await b.post('/users/email', { csrf_token: csrf, email: newEmail, current_password: 'not my password at all' }, { 'accept-language': 'de' });
    expect(wrong.status).toBe(422);
    expect(wrong.text).toContain('Aktuelles Passwort ist falsch');
    const same = await b.post('/users/email', { csrf_token: csrf, email, current_password: 'settings horse battery staple' });
    expect(same.status).toBe(422);
    expect(same.text).toContain('is already your address');
    expect(mail.smtp.mailsTo(newEmail)).toEqual([]);
    const asked = await b.post('/users/email', { csrf_token: csrf, email: newEmail, current_password: 'settings horse battery staple' });
    expect(asked.status).toBe(200);
    expect(asked.text).toContain(newEmail);
    const confirm = await mail.smtp.mailTo(newEmail);
    expect(confirm.parsed.subject).toMatch(/Confirm your new e-mail address/);
    // Not changed until the link is followed.
    expect((await stored(userId))!.email).toBe(email);
    const link = linkIn(confirm, '/users/email/confirm/');
    const done = await new Browser(mail.server).get(link.pathname);
    expect(done.status).toBe(200);
    expect(done.text).toContain(newEmail);
    expect((await stored(userId))!.email).toBe(newEmail);
    expect(await mail.server.server.store.getUserByEmail(email)).toBeUndefined();
    expect((await mail.server.server.store.getUserByEmail(newEmail))!.id).toBe(userId);
    // Single use.
    expect((await new Browser(mail.server).get(link.pathname)).status).toBe(404);
    const notice = await mail.smtp.mailTo(email);
    expect(notice.parsed.subject).toMatch(/e-mail address of your .* account was changed/);
    expect(notice.parsed.text).toContain(newEmail);
    expect(notice.parsed.text).not.toContain('/users/email/confirm/');
    // Signing in: the new address works, the old one no longer does.
    expect((await new Browser(mail.server).submit('/users/sign_in', '/users/sign_in', { email: newEmail, password: 'settings horse battery staple' })).status).toBe(303);
    expect((await new Browser(mail.server).submit('/users/sign_in', '/users/sign_in', { email, password: 'settings horse battery staple' })).status).toBe(401);
  });

  it('changing the password on the account page sends a notice to the address (with no reset link in it)', async () => {
    const { email, b } = await signedIn('password-changer');
    const changed = await b.submit('/users/password', '/users/password', { current_password: 'settings horse battery staple', password: 'another settings horse battery' });
    expect(changed.status).toBe(200);
    const notice = await mail.smtp.mailTo(email);
    expect(notice.parsed.subject).toMatch(/password was changed/);
    expect(notice.parsed.text).toContain('/users/password/forgot');
    expect(notice.parsed.text).not.toContain('/users/password/reset/');
  });

  it('changing to an address that has an account: the same answer, a mail there saying so, nothing changed', async () => {
    const { email, userId, b } = await signedIn('taker');
    const other = `taken-${Date.now()}@example.test`;
    await mail.server.server.accounts.ensureUser(other);
    const page = await b.get('/users/mail-settings');
    const asked = await b.post('/users/email', { csrf_token: csrfFrom(page.text, '/users/email'), email: other, current_password: 'settings horse battery staple' });
    expect(asked.status).toBe(200);
    expect(asked.text).toContain(`An e-mail is on its way to ${other}`);
    const m = await mail.smtp.mailTo(other);
    expect(m.parsed.subject).toMatch(/Address change requested/);
    expect(m.parsed.text).not.toContain('/users/email/confirm/');
    const after = await stored(userId);
    expect(after!.email).toBe(email);
    expect(after!.pendingEmail).toBeUndefined();
  });
});
