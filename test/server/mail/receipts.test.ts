import { describe, expect, it } from 'vitest';
import { api, createPush, waitFor } from '../../support/http.js';
import { createUserWithToken } from '../../support/server.js';
import { smtpAndServer } from '../../support/smtp-receiver.js';
import { Browser, csrfFrom } from '../pages/browser.js';

/** Receipts by e-mail: a real server (both stores) and a real SMTP server. */
describe('receipts by e-mail', () => {
  const mail = smtpAndServer();

  it('"e-mail me when it is first opened": one mail at the first view only, naming the push by its label, with no secret, link or passphrase; its link leads the owner to the audit page', async () => {
    const email = `owner-${Date.now()}@example.test`;
    const { token, userId } = await createUserWithToken(mail.server, email);
    await mail.server.server.accounts.setPassword(email, 'owner horse battery staple');
    const payload = 'payload-never-in-mail-7d1e';
    const passphrase = 'passphrase-never-in-mail-3c9a';
    const push = await createPush(mail.server, { payload, passphrase, name: 'DB password for Bob', expire_after_views: 5, email_on_open: true }, token);
    const urlToken = push.url_token as string;
    for (let i = 0; i < 3; i++) expect((await api.get(mail.server, `/p/${urlToken}.json?passphrase=${passphrase}`)).status).toBe(200);
    await mail.smtp.mailTo(email);
    await waitFor(async () => (await mail.server.server.store.listMails(userId, 10)).every((m) => m.state === 'sent'), 20_000, 'sent');
    const mails = mail.smtp.mailsTo(email);
    expect(mails).toHaveLength(1);
    const [m] = mails;
    expect(m!.parsed.subject).toBe('Your push “DB password for Bob” was opened');
    for (const part of [m!.raw, m!.parsed.text ?? '', String(m!.parsed.html)]) {
      expect(part).not.toContain(payload);
      expect(part).not.toContain(passphrase);
      expect(part).not.toContain(urlToken);
    }
    const link = new URL(/https?:\/\/\S+\/dashboard\/push\/\S+/.exec(m!.parsed.text ?? '')![0]);
    const b = new Browser(mail.server);
    expect((await b.submit('/users/sign_in', '/users/sign_in', { email, password: 'owner horse battery staple' })).status).toBe(303);
    const go = await b.get(link.pathname);
    expect(go.status).toBe(303);
    expect((await b.get(go.headers.get('location')!)).status).toBe(200);
  });

  it('the create page offers the receipts to a signed-in sender (not anonymously), and the form asks for them', async () => {
    expect((await new Browser(mail.server).get('/')).text).not.toContain('push[email_on_open]');
    const email = `page-owner-${Date.now()}@example.test`;
    await mail.server.server.accounts.ensureUser(email);
    await mail.server.server.accounts.setPassword(email, 'page horse battery staple');
    const b = new Browser(mail.server);
    expect((await b.submit('/users/sign_in', '/users/sign_in', { email, password: 'page horse battery staple' })).status).toBe(303);
    const page = (await b.get('/')).text;
    expect(page).toContain('name="push[email_on_open]"');
    expect(page).toContain('E-mail me when it is first opened');
    const form = new FormData();
    form.append('csrf_token', csrfFrom(page, '/'));
    for (const [k, v] of Object.entries({ 'push[kind]': 'text', 'push[payload]': 'page secret', 'push[expire_after_days]': '7', 'push[expire_after_views]': '5', 'push[email_on_open]': 'true' })) form.append(k, v);
    const made = await b.postMultipart('/', form);
    expect(made.status).toBeLessThan(400);
    const { user } = await mail.server.server.accounts.ensureUser(email);
    const [push] = await mail.server.server.store.listPushesByOwner(user.id, false, 0, 1);
    expect(push!.receipts).toMatchObject({ opened: true, expiredUnopened: false });
    expect(push!.receipts!.to).not.toContain(email);
  });

  it('"expired unopened" is not sent when the owner expires the push, nor when its last view expires it (then it was opened)', async () => {
    const email = `expirer-${Date.now()}@example.test`;
    const { token, userId } = await createUserWithToken(mail.server, email);
    const byOwner = await createPush(mail.server, { payload: 'expired by its owner', expire_after_views: 5, email_on_expired_unopened: true }, token);
    expect((await api.delete(mail.server, `/api/v2/pushes/${byOwner.url_token}`, { token })).status).toBe(200);
    const byViews = await createPush(mail.server, { payload: 'expired by its one view', expire_after_views: 1, email_on_expired_unopened: true }, token);
    expect((await api.get(mail.server, `/p/${byViews.url_token}.json`)).status).toBe(200);
    expect((await api.get(mail.server, `/api/v2/pushes/${byViews.url_token}`, { token })).body.expired).toBe(true);
    // A receipt is queued in the same atomic step as the expiry: none in the outbox means none sent.
    expect(await mail.server.server.store.listMails(userId, 10)).toEqual([]);
  });

  it('anonymous pushes cannot ask for receipts', async () => {
    const res = await api.post(mail.server, '/api/v2/pushes', { json: { push: { payload: 'x', email_on_open: true } } });
    expect(res.status).toBe(422);
    expect(res.text).toContain('needs an account');
    expect(mail.smtp.received.filter((m) => m.parsed.subject?.includes('opened')).length).toBeLessThanOrEqual(1);
  });
});
