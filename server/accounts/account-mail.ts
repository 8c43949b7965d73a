import type { MailSettings } from '../config.js';
import type { HashingQueue } from '../crypto/hashing-queue.js';
import type { KeyRing } from '../crypto/key-ring.js';
import { digest } from '../crypto/secret-hash.js';
import { outboxMail } from '../mail/mail-message.js';
import { givenUpMails, type GivenUpMail } from '../mail/given-up-mails.js';
import { composeMail, type MailKind } from '../mail/mail-texts.js';
import { clientKey } from '../security/client-key.js';
import { ServiceError } from '../service-error.js';
import type { StoredMail, StoredUser } from '../storage/records.js';
import type { Store } from '../storage/store.js';
import type { AccountService, SignUpConfirmation } from './account-service.js';
import { makeLinkToken, readLinkToken, verifyLinkToken } from './email-link-token.js';
import type { ReceiptDefaults, User } from './user.js';
import { EmailChange } from './email-change.js';
import { readUnsubscribeToken, type UnsubscribeKind } from '../mail/unsubscribe-link.js';

/** A reset link works for an hour. */
export const RESET_LINK_MS = 3_600_000;
/** A confirmation link, a day. */
export const CONFIRM_LINK_MS = 86_400_000;
/** At most one reset e-mail per address in this window, however often it is asked for. */
export const RESET_MAIL_WINDOW_MS = 15 * 60_000;
/** Reset requests per client address per hour (past it: 429). */
export const RESETS_PER_IP_PER_HOUR = 20;

export const RESET_LINK_INVALID = 'This password reset link is invalid, used or expired. Ask for a new one.';

/** Where a link in a mail points and in which language the mail is written. */
export interface MailContext {
  /** The server's public origin (BASE_URL, or the request's checked Host). */
  origin: string;
  locale: string;
}

export interface AccountMailDeps {
  store: Store;
  keys: KeyRing;
  accounts: AccountService;
  hashing: HashingQueue;
  /** Undefined: no e-mail (every method here refuses). */
  mail: MailSettings | undefined;
  /** What the e-mails are signed with: the instance's BRAND_NAME, or Secret Push. */
  productName: string;
  clock?: () => Date;
}

/**
 * The account's e-mails: password reset by a link (single-use, one hour, ends every session),
 * address confirmation, and the notice to the address when the password changes. Every mail is
 * queued in the store's mail outbox in the same atomic step as its cause.
 */
export class AccountMail {
  private readonly now: () => Date;
  private readonly linkKey: Buffer;

  /** Changing the account's address (a link to the new one, a notice to the old one). */
  readonly emailChange: EmailChange;

  constructor(private readonly deps: AccountMailDeps) {
    this.now = deps.clock ?? (() => new Date());
    this.linkKey = deps.keys.deriveKey('account-email-links');
    this.emailChange = new EmailChange({ store: deps.store, keys: deps.keys, accounts: deps.accounts, mail: this, clock: deps.clock });
  }

  get enabled(): boolean {
    return this.deps.mail !== undefined;
  }

  get productName(): string {
    return this.deps.productName;
  }

  /**
   * A List-Unsubscribe link followed (its one-click POST, or the button of its page): that kind of
   * receipt is turned off in the account's defaults. Pushes and requests already made keep what
   * they asked for (each sends its one receipt at most). Undefined for a bad link or a deleted account.
   */
  /** The kind of receipt a List-Unsubscribe link stops, when the link is genuine (its page shows it before the button). */
  unsubscribeKind(token: unknown): UnsubscribeKind | undefined {
    return readUnsubscribeToken(this.deps.keys, token)?.kind;
  }

  async unsubscribe(token: unknown): Promise<UnsubscribeKind | undefined> {
    const read = readUnsubscribeToken(this.deps.keys, token);
    if (!read) return undefined;
    const off = (u: StoredUser): ReceiptDefaults => ({ ...(u.receiptDefaults ?? { opened: false, expiredUnopened: false, requestAnswered: false }), [read.kind]: false });
    const done = await this.deps.store.changeUser(read.userId, (u) => ({ next: { ...u, receiptDefaults: off(u) }, result: true }));
    return done ? read.kind : undefined;
  }

  /** Whether new accounts must confirm their address (REQUIRE_EMAIL_CONFIRMATION, with SMTP). */
  get confirmationRequired(): boolean {
    return this.deps.mail?.requireConfirmation ?? false;
  }

  private requireMail(): void {
    if (!this.enabled) throw new ServiceError('not_found', 'E-mail is not set up on this server.');
  }

  /** The signed-in account's given-up mails (to whom, which kind, when, the SMTP reply; never the body). */
  async givenUp(user: Pick<User, 'id'>): Promise<GivenUpMail[]> {
    this.requireMail();
    return givenUpMails(this.deps.store, this.deps.keys, user.id);
  }

  mailFor(kind: MailKind, user: Pick<StoredUser, 'id' | 'email'> | null, to: string, link: string, ctx: MailContext): StoredMail {
    return outboxMail(this.deps.keys, kind, user?.id ?? null, composeMail(kind, ctx.locale, to, link, this.deps.productName), this.now());
  }

  resetLink(user: StoredUser, ctx: MailContext): string {
    const token = makeLinkToken(this.linkKey, 'reset', user.id, user.passwordHash, this.now().getTime() + RESET_LINK_MS);
    return `${ctx.origin}/users/password/reset/${token}`;
  }

  confirmLink(user: Pick<StoredUser, 'id' | 'email'>, ctx: MailContext): string {
    const token = makeLinkToken(this.linkKey, 'confirm', user.id, user.email, this.now().getTime() + CONFIRM_LINK_MS);
    return `${ctx.origin}/users/confirm/${token}`;
  }

  /**
   * "Forgot password": the same answer whether or not the address has an account; the mail says
   * which (a reset link, or that there is no account). One mail per address per
   * RESET_MAIL_WINDOW_MS (further requests in the window send nothing and answer the same), and
   * RESETS_PER_IP_PER_HOUR requests per client address (then 429, which tells nothing about the address).
   */
  async requestPasswordReset(rawEmail: unknown, clientIp: string, ctx: MailContext): Promise<void> {
    this.requireMail();
    const email = this.deps.accounts.normaliseEmail(rawEmail);
    const now = this.now().getTime();
    const perIp = await this.deps.store.counters.claim([{ key: `reset:ip:${clientKey(clientIp)}`, limit: RESETS_PER_IP_PER_HOUR, windowMs: 3_600_000 }], now);
    if (!perIp.allowed) {
      throw new ServiceError('too_many_requests', 'Too many password reset requests from your address. Please try again later.', undefined, perIp.retryAfterSeconds);
    }
    const perAddress = await this.deps.store.counters.claim([{ key: `reset:email:${digest(email)}`, limit: 1, windowMs: RESET_MAIL_WINDOW_MS }], now);
    if (!perAddress.allowed) return;
    const user = await this.deps.store.getUserByEmail(email);
    const mail = user
      ? this.mailFor('password-reset', user, user.email, this.resetLink(user, ctx), ctx)
      : this.mailFor('password-reset-no-account', null, email, `${ctx.origin}/users/sign_up`, ctx);
    await this.deps.store.insertMails([mail]);
  }

  /** What sign-up sends when it confirms addresses (AccountService.signUp), or undefined when it does not. */
  signUpConfirmation(ctx: MailContext): SignUpConfirmation | undefined {
    if (!this.confirmationRequired) return undefined;
    return {
      newAccount: (user) => this.mailFor('confirm-email', user, user.email, this.confirmLink(user, ctx), ctx),
      existingAccount: (user) => this.mailFor('sign-up-existing', user, user.email, `${ctx.origin}/users/password/forgot`, ctx),
    };
  }

  /** The notice a password change sends to the address (AccountService.changePassword), when mail is on. */
  passwordChangedNotice(ctx: MailContext): ((user: StoredUser) => StoredMail) | undefined {
    if (!this.enabled) return undefined;
    return (user) => this.mailFor('password-changed', user, user.email, `${ctx.origin}/users/password/forgot`, ctx);
  }

  /** The account a reset link is for, while it is valid; else undefined. */
  async resetAccount(token: unknown): Promise<StoredUser | undefined> {
    const read = readLinkToken(token);
    if (!read) return undefined;
    const user = await this.deps.store.getUser(read.userId);
    if (!user || !verifyLinkToken(this.linkKey, 'reset', token as string, user.passwordHash, this.now().getTime())) return undefined;
    return user;
  }

  /**
   * Sets a new password through a reset link: the link stops working (it is bound to the old
   * password's hash), every session of the account ends, and the address is told. Following the
   * link also proves the address, so an unconfirmed account is confirmed by it.
   */
  async resetPassword(token: unknown, rawPassword: unknown, ctx: MailContext): Promise<User> {
    this.requireMail();
    const password = this.deps.accounts.checkPassword(rawPassword);
    const user = await this.resetAccount(token);
    if (!user) throw new ServiceError('not_found', RESET_LINK_INVALID);
    const passwordHash = await this.deps.hashing.hash(password);
    // Hashing took a while: a second use of the same link meanwhile must not also succeed.
    const current = await this.resetAccount(token);
    if (!current) throw new ServiceError('not_found', RESET_LINK_INVALID);
    const next: StoredUser = { ...current, passwordHash, ...(current.emailConfirmedAt === null ? { emailConfirmedAt: this.now().toISOString() } : {}) };
    const notice = this.mailFor('password-changed', next, next.email, `${ctx.origin}/users/password/forgot`, ctx);
    await this.deps.store.updateUser(next, [notice]);
    await this.deps.store.deleteSessionsOfUser(user.id);
    return { id: next.id, email: next.email, createdAt: next.createdAt };
  }

  /** Confirms the address a confirmation link was sent to; undefined for a bad or expired link. */
  async confirmEmail(token: unknown): Promise<User | undefined> {
    const read = readLinkToken(token);
    if (!read) return undefined;
    const user = await this.deps.store.getUser(read.userId);
    if (!user || !verifyLinkToken(this.linkKey, 'confirm', token as string, user.email, this.now().getTime())) return undefined;
    if (user.emailConfirmedAt === null) await this.deps.store.updateUser({ ...user, emailConfirmedAt: this.now().toISOString() });
    return { id: user.id, email: user.email, createdAt: user.createdAt };
  }
}
