import { describe, expect, it } from 'vitest';
import { createPush } from '../../support/http.js';
import { createUserWithToken } from '../../support/server.js';
import { smtpAndServer, type ReceivedMail } from '../../support/smtp-receiver.js';
import { Browser } from '../pages/browser.js';

/**
 * BRAND_NAME reaches the e-mails as it reaches the pages: the sender's name, the subjects and
 * texts that name the product, the signature. Real server (both stores), real SMTP.
 */
describe('e-mails carry the instance’s BRAND_NAME', () => {
  const mail = smtpAndServer({ REQUIRE_EMAIL_CONFIRMATION: 'false', BRAND_NAME: 'Acme Vault' });

  const branded = (m: ReceivedMail) => {
    expect(m.parsed.from?.value[0]?.name).toBe('Acme Vault');
    expect(m.parsed.text).toContain('\n-- \nAcme Vault');
    expect(m.parsed.html).toContain('— Acme Vault');
    expect(`${m.parsed.subject} ${m.parsed.text} ${m.parsed.html}`).not.toContain('Secret Push');
  };

  it('an account e-mail (forgot password) and a link sent to a recipient (push service) are signed with it', async () => {
    const email = `brand-${Date.now()}@example.test`;
    const { token } = await createUserWithToken(mail.server, email);
    await new Browser(mail.server).submit('/users/password/forgot', '/users/password/forgot', { email });
    branded(await mail.smtp.mailTo(email));

    const recipient = `brand-recipient-${Date.now()}@example.test`;
    await createPush(mail.server, { payload: 'for the recipient', notify_emails: [recipient] }, token);
    branded(await mail.smtp.mailTo(recipient));
  });
});
