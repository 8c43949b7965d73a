import { describe, expect, it } from 'vitest';
import { waitFor } from '../../support/http.js';
import { startServer } from '../../support/server.js';
import { smtpAndServer } from '../../support/smtp-receiver.js';
import { Browser } from '../pages/browser.js';

/**
 * The account's given-up e-mails (/users/mails): to whom, which kind, when, the SMTP server's
 * reply, never the body. Real server (both stores), real SMTP answering 5xx.
 */
describe('given-up e-mails page', () => {
  const mail = smtpAndServer({ REQUIRE_EMAIL_CONFIRMATION: 'false' });

  it('lists a mail the SMTP server refused, with its reply and recipient, without its content', async () => {
    const email = `given-up-${Date.now()}@example.test`;
    const { user } = await mail.server.server.accounts.ensureUser(email);
    await mail.server.server.accounts.setPassword(email, 'given up horse battery');
    const b = new Browser(mail.server);
    expect((await b.submit('/users/sign_in', '/users/sign_in', { email, password: 'given up horse battery' })).status).toBe(303);

    const empty = await b.get('/users/mails');
    expect(empty.status).toBe(200);
    expect(empty.text).toContain('No e-mail has been given up.');
    expect((await b.get('/users/token')).text).toContain('href="/users/mails"');

    mail.smtp.replies.push('5xx');
    await new Browser(mail.server).submit('/users/password/forgot', '/users/password/forgot', { email });
    await waitFor(async () => (await mail.server.server.store.listMails(user.id, 1))[0]?.state === 'failed', 20_000, 'the reset mail given up');

    const page = await b.get('/users/mails');
    expect(page.status).toBe(200);
    expect(page.text).toContain(email);
    expect(page.text).toContain('Password reset link');
    expect(page.text).toContain('550');
    expect(page.text).toContain('Mailbox unavailable');
    // Never the mail's content: not its subject, nor the reset link it held.
    expect(page.text).not.toContain('/users/password/reset/');
    expect(page.text).not.toMatch(/Reset your .* password/);
    // Signed out: to the sign-in page.
    expect((await new Browser(mail.server).get('/users/mails')).status).toBe(303);
  });

  it('the page belongs to its account: another account sees none of it', async () => {
    const email = `other-${Date.now()}@example.test`;
    await mail.server.server.accounts.ensureUser(email);
    await mail.server.server.accounts.setPassword(email, 'other horse battery staple');
    const b = new Browser(mail.server, { 'accept-language': 'de' });
    expect((await b.submit('/users/sign_in', '/users/sign_in', { email, password: 'other horse battery staple' })).status).toBe(303);
    const page = await b.get('/users/mails');
    expect(page.text).toContain('Aufgegebene E-Mails');
    expect(page.text).toContain('Keine E-Mail wurde aufgegeben.');
    expect(page.text).not.toContain('given-up-');
  });

  it('does not exist without SMTP_URL', async () => {
    const plain = await startServer({});
    try {
      const email = `plain-${Date.now()}@example.test`;
      await plain.server.accounts.ensureUser(email);
      await plain.server.accounts.setPassword(email, 'plain horse battery staple');
      const b = new Browser(plain);
      expect((await b.submit('/users/sign_in', '/users/sign_in', { email, password: 'plain horse battery staple' })).status).toBe(303);
      expect((await b.get('/users/mails')).status).toBe(404);
      expect((await b.get('/users/token')).text).not.toContain('/users/mails');
    } finally {
      await plain.stop();
    }
  });
});
