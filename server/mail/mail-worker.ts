import type { Transporter } from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport/index.js';
import type { MailSettings } from '../config.js';
import type { KeyRing } from '../crypto/key-ring.js';
import type { Logger } from '../logger.js';
import type { MailOutcome, StoredMail } from '../storage/records.js';
import type { Store } from '../storage/store.js';
import { backoffMs } from '../webhooks/delivery-worker.js';
import { openMail } from './mail-message.js';

/** Mails sent per poll, one after another over one connection pool. */
const BATCH = 20;
/** What of an SMTP server's refusal is kept for the account page. */
const ERROR_CHARS = 300;

export interface MailWorkerDeps {
  store: Store;
  keys: KeyRing;
  settings: MailSettings;
  /** The sender's name: the instance's BRAND_NAME, or Secret Push. */
  productName: string;
  logger: Logger;
  clock?: () => Date;
}

/** The SMTP reply code of a failed send, when the server answered (nodemailer's `responseCode`). */
function replyCode(e: unknown): number | undefined {
  const code = (e as { responseCode?: unknown }).responseCode;
  return typeof code === 'number' ? code : undefined;
}

/**
 * Sends the mail outbox (Store.claimMails): every poll it claims due mails under a lease (with
 * several instances each mail is attempted by one at a time; one whose instance died is claimed
 * again when its lease runs out) and hands each to the SMTP server. A 2xx reply sends it; a 5xx
 * reply is final (given up at once, shown on the account page); a 4xx reply or no connection is
 * retried with exponential back-off until the mail is `retryForMs` old, then given up.
 *
 * At most once per attempt and claim: an instance killed between the SMTP server's 250 and the
 * outcome's record sends that mail again after the lease (the only window for a duplicate).
 */
export class MailWorker {
  private readonly now: () => Date;
  // nodemailer (~60 files) is loaded only by a server that sends mail, not at every start.
  private readonly transport: Promise<Transporter>;
  private stopped = false;
  private loop: Promise<void> | undefined;
  private wake: (() => void) | undefined;

  constructor(private readonly deps: MailWorkerDeps) {
    this.now = deps.clock ?? (() => new Date());
    const s = deps.settings;
    this.transport = import('nodemailer').then(({ default: nodemailer }) =>
      nodemailer.createTransport({
        url: s.smtpUrl,
        ...(s.tlsCa ? { tls: { ca: s.tlsCa } } : {}),
        connectionTimeout: s.smtpTimeoutMs,
        greetingTimeout: s.smtpTimeoutMs,
        socketTimeout: s.smtpTimeoutMs,
      } satisfies SMTPTransport.Options),
    );
  }

  start(): this {
    this.loop ??= this.run();
    return this;
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, this.deps.settings.pollMs);
        timer.unref();
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      if (this.stopped) break;
      try {
        while ((await this.poll()) === BATCH && !this.stopped);
      } catch (e) {
        this.deps.logger.error('mail: a poll failed (tried again at the next one)', e);
      }
    }
  }

  /** One poll: claims what is due and sends it; resolves with how many it attempted. */
  async poll(): Promise<number> {
    // One mail claimed at a time, its lease covering one attempt (connect, greeting, the rest,
    // each within the SMTP timeout) and its record: a mail held by an instance that died is
    // sent by another within that, not after a whole batch's worth (it was half an hour).
    let attempted = 0;
    while (attempted < BATCH && !this.stopped) {
      const now = this.now();
      const lease = new Date(now.getTime() + this.deps.settings.smtpTimeoutMs * 3 + 5_000);
      const [mail] = await this.deps.store.claimMails(now, lease, 1);
      if (!mail) break;
      await this.attempt(mail);
      attempted++;
    }
    return attempted;
  }

  private async attempt(mail: StoredMail): Promise<void> {
    const at = this.now();
    let error: string | null = null;
    let permanent = false;
    try {
      const m = openMail(this.deps.keys, mail);
      const replyTo = m.replyTo ?? this.deps.settings.replyTo;
      const transport = await this.transport;
      await transport.sendMail({
        from: { name: this.deps.productName, address: this.deps.settings.from },
        to: m.to,
        ...(replyTo ? { replyTo } : {}),
        subject: m.subject,
        text: m.text,
        html: m.html,
        // RFC 8058: the List-Unsubscribe URL takes a one-click POST (no sign-in, no page to read).
        headers: { 'Content-Language': m.language, 'Auto-Submitted': 'auto-generated', ...(m.unsubscribeUrl ? { 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' } : {}) },
        ...(m.unsubscribeUrl ? { list: { unsubscribe: { url: m.unsubscribeUrl, comment: 'Stop these e-mails' } } } : {}),
      });
    } catch (e) {
      const code = replyCode(e);
      permanent = code !== undefined && code >= 500;
      error = ((e as Error).message || String(e)).slice(0, ERROR_CHARS);
    }
    const attempts = mail.attempts + 1;
    const outcome: MailOutcome = { attempts, lastError: error, lastAttemptAt: at.toISOString(), state: 'sent', nextAttemptAt: null };
    if (error !== null) {
      const next = at.getTime() + backoffMs(this.deps.settings.retryBaseMs, attempts);
      const givenUp = permanent || next > Date.parse(mail.createdAt) + this.deps.settings.retryForMs;
      outcome.state = givenUp ? 'failed' : 'pending';
      outcome.nextAttemptAt = givenUp ? null : new Date(next).toISOString();
      if (givenUp) this.deps.logger.info(`mail ${mail.id} (${mail.kind}) given up after ${attempts} attempt(s): ${error}`);
    }
    await this.deps.store.finishMail(mail.id, outcome);
  }

  /** Stops polling; the mail being sent finishes (or its lease runs out). */
  async stop(): Promise<void> {
    this.stopped = true;
    this.wake?.();
    await this.loop;
    (await this.transport).close();
  }
}
