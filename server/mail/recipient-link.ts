import { z } from 'zod';
import type { KeyRing } from '../crypto/key-ring.js';
import { ServiceError } from '../service-error.js';
import type { StoredMail } from '../storage/records.js';
import { outboxMail } from './mail-message.js';
import { composeMail } from './mail-texts.js';

/** Addresses one push may be e-mailed to. */
export const MAX_NOTIFY_EMAILS = 5;
/** Recipients an account may e-mail links to per day (all pushes together). */
export const NOTIFY_PER_ACCOUNT_PER_DAY = 50;
/** Links one address may be sent per day, from all accounts together: the server is no spam cannon. */
export const NOTIFY_PER_ADDRESS_PER_DAY = 5;
export const MAX_NOTIFY_NOTE_CHARS = 1000;

const address = z.email().max(254);

/** The addresses of `notify_emails` (a list, or one comma-separated string): each one bare address, at most 5, duplicates dropped. */
export function parseNotifyEmails(raw: unknown): string[] {
  if (raw === undefined || raw === null || raw === '') return [];
  const list = Array.isArray(raw) ? raw : typeof raw === 'string' ? raw.split(',') : null;
  if (!list || list.some((a) => typeof a !== 'string')) throw ServiceError.validation({ notify_emails: ['must be a list of e-mail addresses'] });
  const emails = [...new Set((list as string[]).map((a) => a.trim().toLowerCase()).filter(Boolean))];
  if (emails.length > MAX_NOTIFY_EMAILS) throw ServiceError.validation({ notify_emails: [`at most ${MAX_NOTIFY_EMAILS} addresses`] });
  // Every bad address named, so that the sender can fix them all at once.
  const bad = emails.filter((a) => !address.safeParse(a).success);
  if (bad.length) throw ServiceError.validation({ notify_emails: bad.map((a) => `${JSON.stringify(a.slice(0, 100))} is not an e-mail address`) });
  return emails;
}

export function parseNotifyNote(raw: unknown): string | undefined {
  if (raw === undefined || raw === null || raw === '') return undefined;
  if (typeof raw !== 'string') throw ServiceError.validation({ notify_note: ['must be a string'] });
  if ([...raw].length > MAX_NOTIFY_NOTE_CHARS) throw ServiceError.validation({ notify_note: [`is too long (maximum is ${MAX_NOTIFY_NOTE_CHARS} characters)`] });
  return raw;
}

/**
 * One mail per recipient with the secret link and the sender's note; Reply-To is the sender, so
 * a reply reaches a person. The link is in the mail: the recipient's mail server sees it.
 */
export function recipientMails(keys: KeyRing, sender: { id: string; email: string }, to: string[], link: string, note: string | undefined, locale: string | undefined, at: Date, product: string): StoredMail[] {
  return to.map((address) => {
    const message = composeMail('push-link', locale, address, link, product, sender.email, note);
    return outboxMail(keys, 'push-link', sender.id, { ...message, replyTo: sender.email }, at);
  });
}
