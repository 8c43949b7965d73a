import { describe, expect, it } from 'vitest';
import { api, createPush } from '../../support/http.js';
import { createUserWithToken } from '../../support/server.js';
import { smtpAndServer } from '../../support/smtp-receiver.js';

/** notify_emails: the server e-mails the secret link to recipients. Real server (both stores), real SMTP. */
describe('e-mailing the link to recipients (notify_emails)', () => {
  const mail = smtpAndServer();

  it('each recipient gets one mail with the link and the note quoted; Reply-To is the sender; CR/LF in the note adds no header', async () => {
    const sender = `sender-${Date.now()}@example.test`;
    const { token } = await createUserWithToken(mail.server, sender);
    const to = [`r1-${Date.now()}@example.test`, `r2-${Date.now()}@example.test`];
    const note = 'Here is the DB password.\r\nBcc: victim@example.test\r\nX-Evil: 1';
    const push = await createPush(mail.server, { payload: 'the secret', notify_emails: to, notify_note: note }, token);
    for (const address of to) await mail.smtp.mailTo(address);
    for (const address of to) {
      const mails = mail.smtp.mailsTo(address);
      expect(mails).toHaveLength(1);
      const m = mails[0]!;
      expect(m.to).toEqual([address]);
      expect(m.parsed.subject).toBe(`${sender} sent you a secret`);
      expect(m.parsed.text).toContain(push.html_url);
      expect(m.parsed.html).toContain(`href="${push.html_url}"`);
      expect(m.parsed.text).toContain('> Bcc: victim@example.test');
      expect(m.parsed.replyTo?.text).toBe(sender);
      expect(m.parsed.headers.has('x-evil')).toBe(false);
      expect(m.parsed.bcc).toBeUndefined();
    }
    expect(mail.smtp.mailsTo('victim@example.test')).toEqual([]);
  });

  it('refused: more than 5 addresses, a non-address (CR/LF), anonymous; past the per-address daily limit 429', async () => {
    const { token } = await createUserWithToken(mail.server, `limits-${Date.now()}@example.test`);
    const many = Array.from({ length: 6 }, (_, i) => `m${i}@example.test`);
    let res = await api.post(mail.server, '/api/v2/pushes', { token, json: { push: { payload: 'x', notify_emails: many } } });
    expect(res.status).toBe(422);
    expect(res.text).toContain('at most 5 addresses');
    res = await api.post(mail.server, '/api/v2/pushes', { token, json: { push: { payload: 'x', notify_emails: ['a@example.test\r\nBcc: victim@example.test'] } } });
    expect(res.status).toBe(422);
    res = await api.post(mail.server, '/api/v2/pushes', { json: { push: { payload: 'x', notify_emails: ['a@example.test'] } } });
    expect(res.status).toBe(422);
    expect(res.text).toContain('needs an account');
    const target = `target-${Date.now()}@example.test`;
    for (let i = 0; i < 5; i++) await createPush(mail.server, { payload: 'x', notify_emails: [target] }, token);
    res = await api.post(mail.server, '/api/v2/pushes', { token, json: { push: { payload: 'x', notify_emails: [target] } } });
    expect(res.status).toBe(429);
    await mail.smtp.mailTo(target, 5);
  });
});
