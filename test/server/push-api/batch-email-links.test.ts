import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, waitFor } from '../../support/http.js';
import { createUserWithToken, startServer, type TestServer } from '../../support/server.js';
import { SmtpReceiver } from '../../support/smtp-receiver.js';

/**
 * A batch with email_links (issue 35 items 2 and 5): each recipient gets their own link and only
 * that. Real server (both stores), real SMTP receiver. METRICS_TOKEN is set so that the store the
 * services use is the metrics wrapper, which once dropped the mails of a create.
 */
let smtp: SmtpReceiver;
let server: TestServer;

beforeAll(async () => {
  smtp = await SmtpReceiver.start();
  server = await startServer({ ...smtp.serverEnv(), METRICS_TOKEN: 'm'.repeat(32) });
});
afterAll(async () => {
  await server?.stop();
  await smtp?.stop();
});

describe('a batch with email_links', () => {
  it('each recipient gets one mail with their own link and no one else’s; a row without an address gets none', async () => {
    const { token } = await createUserWithToken(server, `batch-sender-${Date.now()}@example.test`);
    const stamp = Date.now();
    const addresses = [1, 2, 3, 4].map((i) => `person${i}-${stamp}@example.test`);
    const csv = ['name,email', ...addresses.map((a, i) => `Person ${i + 1},${a}`), 'No Address,'].join('\n');
    const res = await api.post(server, '/api/v2/pushes/batch', { token, json: { generate: true, email_links: true, recipients_csv: csv, push: { expire_after_views: 1 } } });
    expect(res.status).toBe(201);
    const rows = res.body.rows as any[];
    expect(rows.map((r) => r.emailed)).toEqual([true, true, true, true, false]);
    await waitFor(() => addresses.every((a) => smtp.received.some((m) => m.to.includes(a))), 20_000, 'a mail to each address');
    const allLinks = rows.map((r) => r.html_url as string);
    for (const [i, address] of addresses.entries()) {
      const mails = smtp.received.filter((m) => m.to.includes(address));
      expect(mails).toHaveLength(1);
      const mail = mails[0]!;
      expect(mail.to).toEqual([address]);
      const text = `${mail.parsed.text}\n${mail.parsed.html}`;
      expect(text).toContain(rows[i].html_url);
      for (const other of allLinks.filter((l) => l !== rows[i].html_url)) expect(text).not.toContain(other);
      // The link in the mail opens that row's secret.
      const link = /https?:\/\/\S+\/p\/[\w-]+/.exec(mail.parsed.text!)![0];
      const opened = await api.get(server, `/api/v2/pushes/${new URL(link).pathname.split('/')[2]}`);
      expect(opened.body.payload).toMatch(/^[a-km-zA-HJ-NP-Z2-9]{20}$/);
    }
    // Nothing went to anyone else (the sender's own receipts are off).
    const batchMails = smtp.received.filter((m) => allLinks.some((l) => `${m.parsed.text}`.includes(l)));
    expect(batchMails).toHaveLength(4);
  });
});
