import { describe, expect, it } from 'vitest';
import { waitFor } from '../../support/http.js';
import { smtpAndServer } from '../../support/smtp-receiver.js';
import { Browser } from '../pages/browser.js';

const ADMIN = 'mail-admin@example.test';
const PASSWORD = 'admin mails horse battery';

/**
 * The administration's list of every account's given-up e-mails (/admin/mails): the account, to
 * whom, which kind, when, the SMTP reply; never a subject or body. Real server (both stores),
 * real SMTP answering 550.
 */
describe('administration: given-up e-mails of every account', () => {
  const mail = smtpAndServer({ ADMIN_EMAILS: ADMIN, REQUIRE_EMAIL_CONFIRMATION: 'false' });

  const signIn = async (email: string) => {
    await mail.server.server.accounts.ensureUser(email);
    await mail.server.server.accounts.setPassword(email, PASSWORD);
    const b = new Browser(mail.server);
    expect((await b.submit('/users/sign_in', '/users/sign_in', { email, password: PASSWORD })).status).toBe(303);
    return b;
  };

  it('lists two accounts\' refused mails with their recipients, kind and reply, without their content; administrators only', async () => {
    const stamp = Date.now();
    const owners = [`alice-${stamp}@example.test`, `bob-${stamp}@example.test`];
    const ids: string[] = [];
    for (const email of owners) {
      const { user } = await mail.server.server.accounts.ensureUser(email);
      ids.push(user.id);
      mail.smtp.replies.push('5xx');
      await new Browser(mail.server).submit('/users/password/forgot', '/users/password/forgot', { email });
      await waitFor(async () => (await mail.server.server.store.listMails(user.id, 1))[0]?.state === 'failed', 20_000, `${email}'s reset mail given up`);
    }

    const admin = await signIn(ADMIN);
    expect((await admin.get('/admin')).text).toContain('href="/admin/mails"');
    const page = await admin.get('/admin/mails');
    expect(page.status).toBe(200);
    for (const email of owners) expect(page.text).toContain(email);
    expect(page.text).toContain('Password reset link');
    expect(page.text).toContain('550');
    expect(page.text).toContain('Mailbox unavailable');
    // Never a mail's content: not its subject, not the reset link it held.
    expect(page.text).not.toContain('/users/password/reset/');
    expect(page.text).not.toMatch(/Reset your .* password/);
    // Newest first: bob's (given up second) above alice's.
    expect(page.text.indexOf(owners[1]!)).toBeLessThan(page.text.indexOf(owners[0]!));
    // A page past the end is empty, not an error.
    const far = await admin.get('/admin/mails?page=999');
    expect(far.status).toBe(200);
    expect(far.text).toContain('No e-mail has been given up.');

    // Another account: 403; signed out: to sign in.
    expect((await (await signIn(`plain-${stamp}@example.test`)).get('/admin/mails')).status).toBe(403);
    expect((await new Browser(mail.server).get('/admin/mails')).status).toBe(303);
    expect(ids).toHaveLength(2);
  });
});
