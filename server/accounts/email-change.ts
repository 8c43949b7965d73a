import type { KeyRing } from '../crypto/key-ring.js';
import { outboxMail } from '../mail/mail-message.js';
import { composeMail } from '../mail/mail-texts.js';
import { ServiceError } from '../service-error.js';
import type { StoredUser } from '../storage/records.js';
import type { Store } from '../storage/store.js';
import type { AccountMail, MailContext } from './account-mail.js';
import type { AccountService } from './account-service.js';
import { makeLinkToken, readLinkToken, verifyLinkToken } from './email-link-token.js';
import type { User } from './user.js';

/** An address-change link works for a day, as a sign-up confirmation does. */
export const EMAIL_CHANGE_LINK_MS = 86_400_000;
/** Address changes an account may ask for per hour: each sends a mail to an address it types. */
export const EMAIL_CHANGES_PER_HOUR = 5;

export const EMAIL_CHANGE_LINK_INVALID = 'This address change link is invalid, used or expired. Ask for a new one.';

export interface EmailChangeDeps {
  store: Store;
  keys: KeyRing;
  accounts: AccountService;
  mail: AccountMail;
  clock?: () => Date;
}

/**
 * Changing an account's e-mail address: the current password, then a link to the new address;
 * only following it changes the address, and the old address is told. The link is bound to the
 * account's current and pending address (HMAC, nothing stored but the pending address), so it
 * works once: the change, or a newer request, makes it stop verifying. A new address that has an
 * account gets a mail saying so and the page answers the same, so the form tells nobody which
 * addresses have accounts.
 */
export class EmailChange {
  private readonly now: () => Date;
  private readonly linkKey: Buffer;

  constructor(private readonly deps: EmailChangeDeps) {
    this.now = deps.clock ?? (() => new Date());
    this.linkKey = deps.keys.deriveKey('email-change-links');
  }

  private static state(user: Pick<StoredUser, 'email' | 'pendingEmail'>): string {
    return `${user.email}\n${user.pendingEmail ?? ''}`;
  }

  /** Asks for the change: checks the password, then mails the new address. Returns the address the link went to. */
  async request(user: Pick<User, 'id'>, rawEmail: unknown, password: unknown, clientIp: string, ctx: MailContext): Promise<string> {
    if (!this.deps.mail.enabled) throw new ServiceError('not_found', 'E-mail is not set up on this server.');
    const stored = await this.deps.store.getUser(user.id);
    if (!stored) throw new ServiceError('unauthorized', 'You need to sign in or sign up before continuing.');
    if (!stored.passwordHash) throw ServiceError.validation({ email: ['cannot be changed here: this account signs in through single sign-on, and its address comes from the identity provider'] });
    const email = this.deps.accounts.normaliseEmail(rawEmail);
    if (email === stored.email) throw ServiceError.validation({ email: ['is already your address'] });
    try {
      await this.deps.accounts.verifyPassword(stored.email, password, clientIp);
    } catch (e) {
      if (e instanceof ServiceError && e.kind === 'unauthorized') throw ServiceError.validation({ current_password: ['is wrong'] });
      throw e;
    }
    this.deps.accounts.checkNewAccountDomain(email);
    const limit = await this.deps.store.counters.claim([{ key: `email-change:${stored.id}`, limit: EMAIL_CHANGES_PER_HOUR, windowMs: 3_600_000 }], this.now().getTime());
    if (!limit.allowed) throw new ServiceError('too_many_requests', 'Too many address changes. Please try again later.', undefined, limit.retryAfterSeconds);

    if (await this.deps.store.getUserByEmail(email)) {
      // Said only to that address, in a mail: the page answers as for a free address.
      await this.deps.store.insertMails([this.mail('email-change-taken', stored.id, email, `${ctx.origin}/users/password/forgot`, ctx.locale)]);
      return email;
    }
    const next: StoredUser = { ...stored, pendingEmail: email };
    const token = makeLinkToken(this.linkKey, 'change-email', stored.id, EmailChange.state(next), this.now().getTime() + EMAIL_CHANGE_LINK_MS);
    await this.deps.store.updateUser(next, [this.mail('email-change-confirm', stored.id, email, `${ctx.origin}/users/email/confirm/${token}`, ctx.locale, email)]);
    return email;
  }

  /**
   * Follows the link: the account's address becomes the new one (now confirmed), and the old
   * address gets a notice naming the new one. Undefined for a bad, used or expired link, or when
   * another account took the new address meanwhile.
   */
  async confirm(token: unknown, ctx: MailContext): Promise<User | undefined> {
    const read = readLinkToken(token);
    if (!read) return undefined;
    const user = await this.deps.store.getUser(read.userId);
    if (!user?.pendingEmail || !verifyLinkToken(this.linkKey, 'change-email', token as string, EmailChange.state(user), this.now().getTime())) return undefined;
    const { pendingEmail, ...rest } = user;
    const next: StoredUser = { ...rest, email: pendingEmail, emailConfirmedAt: this.now().toISOString() };
    const notice = this.mail('email-changed', user.id, user.email, `${ctx.origin}/users/sign_in`, user.locale ?? ctx.locale, pendingEmail);
    try {
      await this.deps.store.updateUser(next, [notice]);
    } catch (e) {
      // Taken since the request (a sign-up): the store refuses a second account with one address.
      if (await this.deps.store.getUserByEmail(pendingEmail)) return undefined;
      throw e;
    }
    return { id: next.id, email: next.email, createdAt: next.createdAt };
  }

  private mail(kind: 'email-change-confirm' | 'email-change-taken' | 'email-changed', userId: string, to: string, link: string, locale: string | undefined, name = '') {
    return outboxMail(this.deps.keys, kind, userId, composeMail(kind, locale, to, link, this.deps.mail.productName, name), this.now());
  }
}
