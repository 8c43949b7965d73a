import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { KeyRing } from '../crypto/key-ring.js';
import type { StoredMail } from '../storage/records.js';

/**
 * One e-mail as the outbox keeps it (sealed) and the worker sends it. Header values never hold
 * CR or LF (see headerText): a name or note typed by a user cannot add a header.
 */
export const mailMessageSchema = z.object({
  to: z.array(z.string()).min(1),
  subject: z.string(),
  text: z.string(),
  html: z.string(),
  /** BCP 47 language of the text (Content-Language). */
  language: z.string(),
  /** For optional mails (receipts): where to stop them (List-Unsubscribe). */
  unsubscribeUrl: z.string().optional(),
  replyTo: z.string().optional(),
});
export type MailMessage = z.infer<typeof mailMessageSchema>;

/** Text fit for a header: line breaks and other control characters become spaces. */
export function headerText(value: string): string {
  // eslint-disable-next-line no-control-regex
  return value.replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, ' ').trim();
}

const addressSchema = z.email().max(254);

/**
 * An outbox row for `message`, due at once. Each recipient must be one bare address (a list or a
 * name would let typed text reach the envelope: nodemailer reads "a@x, b@y" as two recipients);
 * the services validate addresses first, so this only guards against a slip.
 */
export function outboxMail(keys: KeyRing, kind: string, userId: string | null, message: MailMessage, at: Date): StoredMail {
  for (const to of message.to) if (!addressSchema.safeParse(to).success) throw new Error(`not one e-mail address: ${JSON.stringify(to.slice(0, 100))}`);
  const clean: MailMessage = {
    ...message,
    to: message.to.map(headerText),
    subject: headerText(message.subject),
    ...(message.replyTo ? { replyTo: headerText(message.replyTo) } : {}),
  };
  return {
    id: `mail_${randomBytes(16).toString('base64url')}`,
    userId,
    kind,
    message: keys.seal(JSON.stringify(clean)),
    createdAt: at.toISOString(),
    attempts: 0,
    nextAttemptAt: at.toISOString(),
    leaseUntil: null,
    state: 'pending',
    lastError: null,
    lastAttemptAt: null,
  };
}

export function openMail(keys: KeyRing, mail: StoredMail): MailMessage {
  return mailMessageSchema.parse(JSON.parse(keys.openText(mail.message)));
}

/** Escapes text for the HTML part. */
export function html(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
