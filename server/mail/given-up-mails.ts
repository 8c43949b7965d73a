import type { KeyRing } from '../crypto/key-ring.js';
import type { StoredMail } from '../storage/records.js';
import type { Store } from '../storage/store.js';
import { openMail } from './mail-message.js';

/** How many of an account's most recent mails are looked through for given-up ones. */
export const RECENT_MAILS = 200;

/** A mail the worker gave up on, as its account may see it: never its subject or body. */
export interface GivenUpMail {
  kind: string;
  to: string[];
  createdAt: string;
  lastAttemptAt: string | null;
  attempts: number;
  /** The SMTP server's refusal (code and text), or the connection error. */
  reply: string | null;
}

/**
 * The account's given-up mails, newest first. Only the recipients are read from the sealed
 * message: the body may hold a reset link or a secret's link, which the page must not show (a
 * link to a recipient is the recipient's, and a reset link shown in a signed-in page would make a
 * stolen session a password change).
 */
export async function givenUpMails(store: Store, keys: KeyRing, userId: string): Promise<GivenUpMail[]> {
  const mails = await store.listMails(userId, RECENT_MAILS);
  return mails.filter((m) => m.state === 'failed').map((m) => givenUpView(keys, m));
}

function givenUpView(keys: KeyRing, m: StoredMail): GivenUpMail {
  return { kind: m.kind, to: openMail(keys, m).to, createdAt: m.createdAt, lastAttemptAt: m.lastAttemptAt, attempts: m.attempts, reply: m.lastError };
}

/** A given-up mail in the administration's list: which account it was about (its address now), or null. */
export interface AdminGivenUpMail extends GivenUpMail {
  account: string | null;
}

/**
 * Every account's given-up mails, newest first, a page from `offset`: metadata only, as on the
 * account's own page (never a subject or body: a reset link or a secret's link is not the
 * administrator's to see).
 */
export async function allGivenUpMails(store: Store, keys: KeyRing, offset: number, limit: number): Promise<AdminGivenUpMail[]> {
  const mails = await store.listGivenUpMails(offset, limit);
  const accounts = new Map<string, string | null>();
  for (const id of new Set(mails.flatMap((m) => (m.userId ? [m.userId] : [])))) accounts.set(id, (await store.getUser(id))?.email ?? null);
  return mails.map((m) => ({ ...givenUpView(keys, m), account: m.userId ? (accounts.get(m.userId) ?? null) : null }));
}
