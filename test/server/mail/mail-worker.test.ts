import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { MailSettings } from '../../../server/config.js';
import { KeyRing } from '../../../server/crypto/key-ring.js';
import { parseKey } from '../../../server/crypto/master-key.js';
import { createLogger } from '../../../server/logger.js';
import { outboxMail, type MailMessage } from '../../../server/mail/mail-message.js';
import { MailWorker } from '../../../server/mail/mail-worker.js';
import { LowdbStore } from '../../../server/storage/embedded/lowdb-store.js';
import { PostgresStore } from '../../../server/storage/postgres/postgres-store.js';
import type { Store } from '../../../server/storage/store.js';
import { createTestDatabase, type TestDatabase } from '../../support/postgres-database.js';
import { testStore } from '../../support/server.js';
import { SmtpReceiver } from '../../support/smtp-receiver.js';

/**
 * The mail worker against a real SMTP server (STARTTLS, AUTH) and a real store, on a fake clock:
 * each poll is one step, so retries and back-off are checked without waiting.
 */
describe('mail worker', () => {
  let smtp: SmtpReceiver;
  let store: Store;
  let dir: string;
  let db: TestDatabase | undefined;
  const keys = new KeyRing(parseKey(randomBytes(32).toString('hex'), 'MASTER_KEY'));
  let now = Date.parse('2026-01-01T00:00:00Z');
  const clock = () => new Date(now);

  beforeAll(async () => {
    smtp = await SmtpReceiver.start();
    dir = mkdtempSync(join(tmpdir(), 'mail-worker-'));
    if (testStore === 'postgres') {
      db = await createTestDatabase();
      store = await PostgresStore.open({ url: db.url, poolSize: 3, logger: createLogger('silent') });
    } else {
      store = await LowdbStore.open(dir);
    }
  });
  afterAll(async () => {
    await store.close();
    await db?.drop();
    await smtp.stop();
    rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(() => {
    smtp.received.length = 0;
    smtp.replies.length = 0;
    now += 86_400_000; // a fresh day: nothing left due from the case before
  });

  const settings = (): MailSettings => ({
    smtpUrl: smtp.url,
    from: 'noreply@example.test',
    replyTo: 'help@example.test',
    tlsCa: readFileSync(smtp.caFile, 'utf8'),
    requireConfirmation: true,
    retryBaseMs: 60_000,
    retryForMs: 3_600_000,
    pollMs: 1000,
    smtpTimeoutMs: 30_000,
  });
  const worker = () => new MailWorker({ store, keys, settings: settings(), productName: 'Secret Push', logger: createLogger('silent'), clock });
  const message = (over: Partial<MailMessage> = {}): MailMessage => ({
    to: ['alice@example.test'],
    subject: 'Reset your password',
    text: 'Follow this link: https://push.example.test/reset/abc',
    html: '<p>Follow this link: <a href="https://push.example.test/reset/abc">reset</a></p>',
    language: 'de',
    ...over,
  });
  const queue = async (m: MailMessage, userId = `u-${randomBytes(3).toString('hex')}`) => {
    const row = outboxMail(keys, 'test', userId, m, clock());
    await store.insertMails([row]);
    return { row, userId };
  };

  it('sends over STARTTLS with AUTH: recipients, subject, both parts, language, Reply-To; List-Unsubscribe only where asked; the stored message is sealed', async () => {
    const { row } = await queue(message());
    expect(row.message).not.toContain('alice');
    await queue(message({ to: ['bob@example.test'], subject: 'Opened', unsubscribeUrl: 'https://push.example.test/users/email-settings' }));
    const w = worker();
    expect(await w.poll()).toBe(2);
    await w.stop();
    const [a, b] = await smtp.waitFor(2);
    expect(a!.to).toEqual(['alice@example.test']);
    expect(a!.from).toBe('noreply@example.test');
    expect(a!.parsed.subject).toBe('Reset your password');
    expect(a!.parsed.text).toContain('https://push.example.test/reset/abc');
    expect(a!.parsed.html).toContain('<a href="https://push.example.test/reset/abc">');
    expect(a!.parsed.headers.get('content-language')).toBe('de');
    expect(a!.parsed.replyTo?.text).toBe('help@example.test');
    expect(a!.parsed.from?.value[0]).toMatchObject({ name: 'Secret Push', address: 'noreply@example.test' });
    expect(a!.parsed.headers.has('list-unsubscribe')).toBe(false);
    expect(b!.to).toEqual(['bob@example.test']);
    expect(b!.raw).toMatch(/^List-Unsubscribe: <https:\/\/push\.example\.test\/users\/email-settings>/im);
  });

  it('a subject or recipient with CR/LF cannot add a header or a recipient', async () => {
    for (const to of ['carol@example.test\r\nBcc: victim2@example.test', 'carol@example.test, victim3@example.test', 'Carol <carol@example.test>']) {
      expect(() => outboxMail(keys, 'test', null, message({ to: [to] }), clock())).toThrow(/not one e-mail address/);
    }
    await queue(message({ subject: 'Hello\r\nBcc: victim@example.test\r\nX-Evil: 1', to: ['carol@example.test'] }));
    const w = worker();
    await w.poll();
    await w.stop();
    const [m] = await smtp.waitFor(1);
    expect(m!.to.join(',')).not.toContain('victim');
    expect(m!.parsed.headers.has('x-evil')).toBe(false);
    expect(m!.parsed.bcc).toBeUndefined();
    expect(m!.raw).not.toMatch(/^Bcc:/im);
    expect(m!.raw).not.toMatch(/^X-Evil:/im);
  });

  it('SMTP 4xx: kept and retried after the back-off, then sent once', async () => {
    const { row, userId } = await queue(message());
    smtp.replies.push('4xx');
    const w = worker();
    expect(await w.poll()).toBe(1);
    let [stored] = await store.listMails(userId, 1);
    expect(stored).toMatchObject({ id: row.id, state: 'pending', attempts: 1 });
    expect(stored!.lastError).toContain('451');
    expect(await w.poll()).toBe(0); // not due yet
    now += 60_000;
    expect(await w.poll()).toBe(1);
    await w.stop();
    [stored] = await store.listMails(userId, 1);
    expect(stored).toMatchObject({ state: 'sent', attempts: 2, lastError: null });
    expect(smtp.received).toHaveLength(1);
  });

  it('SMTP 5xx: given up at once, its refusal kept for the account page', async () => {
    const { userId } = await queue(message());
    smtp.replies.push('5xx');
    const w = worker();
    await w.poll();
    now += 3_600_000;
    expect(await w.poll()).toBe(0);
    await w.stop();
    const [stored] = await store.listMails(userId, 1);
    expect(stored).toMatchObject({ state: 'failed', attempts: 1, nextAttemptAt: null });
    expect(stored!.lastError).toContain('550');
    expect(smtp.received).toHaveLength(0);
  });

  it('SMTP down: retried with back-off, delivered once it is up; given up when down past MAIL_RETRY_FOR_HOURS', async () => {
    const { userId } = await queue(message());
    await smtp.down();
    const w = worker();
    try {
      await w.poll();
      now += 60_000;
      await w.poll();
      const [stored] = await store.listMails(userId, 1);
      expect(stored).toMatchObject({ state: 'pending', attempts: 2 });
      expect(stored!.lastError).toMatch(/ECONNREFUSED|connect/i);
    } finally {
      await smtp.up();
    }
    now += 120_000;
    expect(await w.poll()).toBe(1);
    expect((await store.listMails(userId, 1))[0]).toMatchObject({ state: 'sent', attempts: 3 });
    expect(smtp.received).toHaveLength(1);

    const late = await queue(message());
    await smtp.down();
    try {
      for (let i = 0; i < 12 && (await store.listMails(late.userId, 1))[0]!.state === 'pending'; i++) {
        await w.poll();
        now += 16 * 60_000;
      }
    } finally {
      await smtp.up();
    }
    await w.stop();
    expect((await store.listMails(late.userId, 1))[0]).toMatchObject({ state: 'failed' });
  });
});
