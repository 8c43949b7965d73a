import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { KeyRing } from '../crypto/key-ring.js';
import { HashingQueue } from '../crypto/hashing-queue.js';
import { digest, safeEqual } from '../crypto/secret-hash.js';
import type { SignInLimits } from '../config.js';
import type { SignInSettings } from './oidc/oidc-settings.js';
import type { ProviderIdentity } from './oidc/relying-party.js';
import { clientKey } from '../security/client-key.js';
import { GuessLimit } from '../security/guess-limit.js';
import { isCommonPassword } from './common-passwords.js';
import { ServiceError } from '../service-error.js';
import type { StoredApiToken, StoredMail, StoredUser } from '../storage/records.js';
import type { Store } from '../storage/store.js';
import { isStorableText, storableKey } from '../storage/storable-text.js';
import type { ReceiptDefaults, User } from './user.js';
import { isAdministrator, noAdminSources, type AdminSources } from '../admin/admin-role.js';

const SESSION_DAYS = 14;
const SESSION_SWEEP_BATCH = 500;
export const MIN_PASSWORD_CHARS = 12;
/** Accounts made per client address per hour (sign-up has its own limit: each one costs storage). */
const SIGN_UP_WINDOW_MS = 3_600_000;
const MAX_PASSWORD_CHARS = 1024;
const TOKEN_PREFIX = 'sp_';

const emailSchema = z.email({ error: 'is not a valid email address' }).max(254, { error: 'is too long' });

export interface ApiTokenInfo {
  id: string;
  label: string;
  createdAt: string;
}

export interface AccountServiceDeps {
  store: Store;
  keys: KeyRing;
  /** Sign-in guessing limits (defaults: back-off after 5 failures per address and account, 20 failures per address a minute). */
  signIn?: SignInLimits;
  clock?: () => Date;
  /** Bounds concurrent scrypt work (shared with the push service). */
  hashing?: HashingQueue;
  /**
   * REQUIRE_MFA: a session of a password account without a second factor is not honoured, so
   * its browser signs in again and sets one up first (sessions made before it was turned on).
   */
  requireMfa?: boolean;
  /** Who is an administrator besides the accounts marked so (ADMIN_EMAILS; the SSO group later). */
  admins?: AdminSources;
  /** SSO_ONLY and SIGN_UP_EMAIL_DOMAINS (the OpenID Connect part is used by the pages). */
  signInMethods?: Pick<SignInSettings, 'ssoOnly' | 'signUpEmailDomains'>;
  /** SIGN_UP: whether single sign-on may make accounts just in time (password sign-up is governed by the pages). */
  signUpMode?: 'open' | 'invite' | 'closed';
}

export const PASSWORDS_OFF_MESSAGE = 'Password sign-in is turned off on this server: use single sign-on.';
export const SSO_NO_EMAIL_MESSAGE = 'The sign-in provider did not tell your e-mail address (ask for the email scope).';
export const SSO_UNVERIFIED_MESSAGE = 'The sign-in provider has not verified your e-mail address, so it cannot be used to sign in here.';
export const SSO_OTHER_IDENTITY_MESSAGE = 'This e-mail address belongs to an account of another person at the sign-in provider. Ask an administrator.';
export const SSO_SIGN_UP_CLOSED_MESSAGE = 'There is no account for your e-mail address here, and new accounts are not being made.';
export const SSO_INVITE_NEEDED_MESSAGE = 'There is no account for your e-mail address here: new accounts need a valid invite link.';

/** Wrong second-step codes per account per minute, from all addresses together. */
export const SECOND_STEP_FAILURES_PER_ACCOUNT_PER_MINUTE = 10;

export const ACCOUNT_LOCKED_MESSAGE = 'This account is locked. Ask an administrator.';

/** The e-mails sign-up sends when it confirms addresses (built by AccountMail). */
export interface SignUpConfirmation {
  newAccount(user: StoredUser): StoredMail;
  existingAccount(user: StoredUser): StoredMail;
}

export const CONFIRM_FIRST_MESSAGE = 'Confirm your e-mail address first: follow the link in the e-mail we sent you.';

export const SIGN_IN_LIMITED_MESSAGE = 'Too many failed sign-in attempts from your address. Please wait, then try again.';

/**
 * Accounts, API tokens and browser sessions. Passwords are scrypt hashes; API tokens and session
 * ids are random and stored only as SHA-256 digests, so a stolen data file holds no usable
 * credential. A token is shown once, when made.
 */
export class AccountService {
  private readonly now: () => Date;
  private readonly csrfKey: Buffer;
  /** Sign-in guessing, per account and per client address. */
  readonly signInGuesses: GuessLimit;
  /**
   * Second-step codes: the same budgets as passwords (shared keys), and besides a limit per
   * account from every address. Whoever is at the second step knows the password; without it
   * many addresses together could try the million codes. It can hold the owner's code step up
   * for a minute only by someone who has the password (a passkey still signs in).
   */
  readonly secondStepGuesses: GuessLimit;

  private readonly hashing: HashingQueue;

  constructor(private readonly deps: AccountServiceDeps) {
    this.hashing = deps.hashing ?? new HashingQueue();
    this.now = deps.clock ?? (() => new Date());
    this.csrfKey = deps.keys.deriveKey('csrf');
    const clock = () => this.now().getTime();
    // Wrong passwords and wrong second-step codes share one budget ('sign-in'); codes also have a per-account cap.
    const signInLimits = {
      freePerIpAndTarget: deps.signIn?.failuresBeforeBackoff ?? 5,
      backoffBaseSeconds: 60,
      backoffMaxSeconds: deps.signIn?.backoffMaxSeconds ?? 3600,
      perIpPerMinute: deps.signIn?.perIpPerMinute ?? 20,
    };
    this.signInGuesses = new GuessLimit(deps.store.counters, 'sign-in', signInLimits, SIGN_IN_LIMITED_MESSAGE, clock);
    this.secondStepGuesses = new GuessLimit(
      deps.store.counters,
      'sign-in',
      { ...signInLimits, perTargetPerMinute: SECOND_STEP_FAILURES_PER_ACCOUNT_PER_MINUTE },
      SIGN_IN_LIMITED_MESSAGE,
      clock,
    );
  }

  normaliseEmail(raw: unknown): string {
    const email = typeof raw === 'string' ? raw.trim().toLowerCase() : '';
    const parsed = emailSchema.safeParse(email);
    if (!parsed.success) throw ServiceError.validation({ email: [parsed.error.issues[0]!.message] });
    return parsed.data;
  }

  /**
   * SIGN_UP_EMAIL_DOMAINS, the one rule for every way an account is made (sign-up, SSO, the
   * CLI, an e-mail change): the email's domain must be one of the list (exactly; a subdomain is another domain).
   */
  checkNewAccountDomain(email: string): void {
    const domains = this.deps.signInMethods?.signUpEmailDomains ?? [];
    if (domains.length === 0) return;
    const domain = email.slice(email.lastIndexOf('@') + 1);
    if (!domains.includes(domain)) {
      throw new ServiceError('forbidden', `Accounts on this server are only for addresses at ${domains.join(', ')}.`);
    }
  }

  private checkPasswordsOn(): void {
    if (this.deps.signInMethods?.ssoOnly) throw new ServiceError('forbidden', PASSWORDS_OFF_MESSAGE);
  }

  /**
   * The account for someone the OpenID Connect provider signed in. An existing account is used
   * only when the provider says it verified the e-mail (a password account is linked and keeps its
   * pushes, tokens and webhooks); otherwise a new account is made just in time, under the same
   * rules as sign-up (SIGN_UP: closed refuses, invite needs the invite the sign-in started from,
   * SIGN_UP_EMAIL_DOMAINS), without a password. An unverified e-mail is never linked and never made
   * into an account: whoever can edit their profile at the provider could otherwise claim anyone's
   * address here. A locked account is refused. The groups of this sign-in are stored, so that
   * OIDC_ADMIN_GROUP grants or takes away the administrator role now; a change is in the admin log.
   */
  async signInWithProvider(
    identity: Pick<ProviderIdentity, 'issuer' | 'subject' | 'email' | 'emailVerified' | 'groups'>,
    options: { clientIp?: string; userAgent?: string; beforeCreate?: (email: string) => Promise<void> } = {},
  ): Promise<{ user: User; created: boolean }> {
    if (!identity.email) throw new ServiceError('forbidden', SSO_NO_EMAIL_MESSAGE);
    const email = this.normaliseEmail(identity.email);
    if (!identity.emailVerified) throw new ServiceError('forbidden', SSO_UNVERIFIED_MESSAGE);
    const at = this.now().toISOString();
    const sso = { issuer: identity.issuer, subject: identity.subject, groups: identity.groups, signedInAt: at };
    const existing = await this.deps.store.getUserByEmail(email);
    if (existing) {
      if (existing.lockedAt) throw new ServiceError('forbidden', ACCOUNT_LOCKED_MESSAGE);
      // The account already belongs to another person at this provider (an address handed on to
      // someone new, or a second identity claiming it): the newcomer does not get their pushes.
      if (existing.sso && existing.sso.issuer === identity.issuer && existing.sso.subject !== identity.subject) {
        throw new ServiceError('forbidden', SSO_OTHER_IDENTITY_MESSAGE);
      }
      const before = this.toUser(existing);
      // The provider verified the address, so a confirmation still pending is settled too.
      const changed = await this.deps.store.changeUser(existing.id, (u) => ({
        next: { ...u, sso, ...(u.emailConfirmedAt === null ? { emailConfirmedAt: at } : {}) },
        result: u,
      }));
      if (!changed) throw new ServiceError('forbidden', 'This account was deleted. Please try again.');
      if (changed.lockedAt) throw new ServiceError('forbidden', ACCOUNT_LOCKED_MESSAGE);
      const user = this.toUser({ ...changed, sso });
      await this.logSsoAdminChange(before.admin, user, options);
      return { user, created: false };
    }
    const signUp = this.deps.signUpMode ?? 'open';
    if (signUp === 'closed') throw new ServiceError('forbidden', SSO_SIGN_UP_CLOSED_MESSAGE);
    if (signUp === 'invite' && !options.beforeCreate) throw new ServiceError('forbidden', SSO_INVITE_NEEDED_MESSAGE);
    this.checkNewAccountDomain(email);
    const user: StoredUser = { id: randomUUID(), email, passwordHash: '', createdAt: at, sso };
    try {
      if (signUp === 'invite') await options.beforeCreate?.(email);
      await this.deps.store.insertUser(user);
    } catch (e) {
      const made = await this.deps.store.getUserByEmail(email);
      if (made) return this.signInWithProvider(identity, { ...options, beforeCreate: undefined });
      if (e instanceof ServiceError && e.kind === 'validation') throw new ServiceError('forbidden', SSO_INVITE_NEEDED_MESSAGE);
      throw e;
    }
    const made = this.toUser(user);
    await this.logSsoAdminChange(false, made, options);
    return { user: made, created: true };
  }

  /** OIDC_ADMIN_GROUP granted or took away the role at this sign-in: one admin-log entry, by the provider. */
  private async logSsoAdminChange(wasAdmin: boolean | undefined, user: User, client: { clientIp?: string; userAgent?: string }): Promise<void> {
    if (Boolean(wasAdmin) === Boolean(user.admin)) return;
    await this.deps.store.appendAdminLog({
      id: randomUUID(),
      at: this.now().toISOString(),
      actorId: null,
      actorEmail: 'identity provider (OIDC_ADMIN_GROUP)',
      action: user.admin ? 'user.grant-admin' : 'user.revoke-admin',
      target: user.email,
      ip: (client.clientIp ?? '').slice(0, 200),
      userAgent: (client.userAgent ?? '').slice(0, 200),
    });
  }

  private toUser(u: { id: string; email: string; createdAt: string; admin?: boolean; sso?: { groups: string[] }; locale?: string; receiptDefaults?: ReceiptDefaults }): User {
    const role = isAdministrator({ email: u.email, admin: u.admin, ssoGroups: u.sso?.groups }, this.deps.admins ?? noAdminSources);
    return { id: u.id, email: u.email, createdAt: u.createdAt, admin: role, ...(u.locale ? { locale: u.locale } : {}), ...(u.receiptDefaults ? { receiptDefaults: u.receiptDefaults } : {}) };
  }

  /**
   * Remembers the page language the account signed in with or chose in the language menu: the
   * e-mails it causes through the API (receipts) are written in it. Written only when it changed.
   */
  async rememberLocale(user: Pick<User, 'id' | 'locale'>, locale: string): Promise<void> {
    if (user.locale === locale) return;
    await this.deps.store.changeUser(user.id, (u) => (u.locale === locale ? { result: undefined } : { next: { ...u, locale }, result: undefined }));
  }

  /** The receipts by e-mail the account's pushes and requests get when they do not say. */
  async setReceiptDefaults(user: Pick<User, 'id'>, defaults: ReceiptDefaults): Promise<void> {
    await this.deps.store.changeUser(user.id, (u) => ({ next: { ...u, receiptDefaults: defaults }, result: undefined }));
  }

  /** The password rules, for sign-up and for setting a password alike. */
  checkPassword(rawPassword: unknown): string {
    const password = typeof rawPassword === 'string' ? rawPassword : '';
    if ([...password].length < MIN_PASSWORD_CHARS) throw ServiceError.validation({ password: [`is too short (minimum is ${MIN_PASSWORD_CHARS} characters)`] });
    if ([...password].length > MAX_PASSWORD_CHARS) throw ServiceError.validation({ password: [`is too long (maximum is ${MAX_PASSWORD_CHARS} characters)`] });
    if (isCommonPassword(password)) throw ServiceError.validation({ password: ['is too common: guessing tools try it first. Choose another (a few unrelated words work well)'] });
    return password;
  }

  /**
   * Makes an account, or, for an email that already has one, signs in with the password given:
   * sign-up then tells no more about which emails exist than sign-in does (a wrong password is
   * "Invalid email or password." and counts as a failed sign-in, under the same guess limits).
   * Accounts made per client address are limited per hour (SIGN_UPS_PER_IP_PER_HOUR).
   */
  async signUp(
    rawEmail: unknown,
    rawPassword: unknown,
    clientIp: string,
    options: {
      /** Runs just before a new account is stored (an invite is used up there); throwing refuses it. */
      beforeCreate?: (email: string) => Promise<void>;
      /** With e-mail confirmation: the mails sign-up sends, stored with the account in one step. */
      confirm?: SignUpConfirmation;
    } = {},
  ): Promise<{ user: User; created: boolean; confirmationSent?: boolean }> {
    this.checkPasswordsOn();
    const { beforeCreate, confirm } = options;
    const email = this.normaliseEmail(rawEmail);
    const password = this.checkPassword(rawPassword);
    const existing = await this.deps.store.getUserByEmail(email);
    if (existing && confirm) return { user: this.toUser(existing), created: false, confirmationSent: await this.tellExisting(existing, confirm) };
    if (existing) return { user: await this.verifyPassword(email, password, clientIp), created: false };
    this.checkNewAccountDomain(email);
    const perHour = this.deps.signIn?.signUpsPerIpPerHour ?? 10;
    const claim = await this.deps.store.counters.claim([{ key: `sign-up:ip:${clientKey(clientIp)}`, limit: perHour, windowMs: SIGN_UP_WINDOW_MS }], this.now().getTime());
    if (!claim.allowed) {
      throw new ServiceError('too_many_requests', `Too many accounts were made from your address (the limit is ${perHour} an hour). Please try again later.`, undefined, claim.retryAfterSeconds);
    }
    const user: StoredUser = { id: randomUUID(), email, passwordHash: await this.hashing.hash(password), createdAt: this.now().toISOString(), ...(confirm ? { emailConfirmedAt: null } : {}) };
    try {
      await beforeCreate?.(email);
      await this.deps.store.insertUser(user, confirm ? [confirm.newAccount(user)] : []);
    } catch (e) {
      await this.deps.store.counters.forgive(claim.ids);
      // Made at the same moment by another request: the same answer as for an existing account.
      const made = await this.deps.store.getUserByEmail(email);
      if (made && confirm) return { user: this.toUser(made), created: false, confirmationSent: await this.tellExisting(made, confirm) };
      if (made) return { user: await this.verifyPassword(email, password, clientIp), created: false };
      throw e;
    }
    return { user: this.toUser(user), created: true, ...(confirm ? { confirmationSent: true } : {}) };
  }

  /**
   * Sign-up with an address that has an account, when sign-up confirms by e-mail: the answer is
   * the same as for a new one, and the address is told (at most once per window, so sign-up
   * cannot be used to flood it).
   */
  private async tellExisting(existing: StoredUser, confirm: SignUpConfirmation): Promise<true> {
    const claim = await this.deps.store.counters.claim([{ key: `sign-up-existing:${digest(existing.email)}`, limit: 1, windowMs: 15 * 60_000 }], this.now().getTime());
    if (claim.allowed) await this.deps.store.insertMails([confirm.existingAccount(existing)]);
    return true;
  }

  /**
   * A signed-in user changes their password: the current one must be right (a wrong one counts
   * as a failed sign-in). Every other session of the account ends; the one in use (`keepSession`,
   * its cookie value) stays, and API tokens stay (they are revoked on their own page).
   */
  async changePassword(user: User, rawCurrent: unknown, rawNext: unknown, clientIp: string, keepSession: string | null, notice?: (user: StoredUser) => StoredMail): Promise<number> {
    this.checkPasswordsOn();
    const next = this.checkPassword(rawNext);
    await this.verifyPassword(user.email, rawCurrent, clientIp);
    const stored = await this.deps.store.getUser(user.id);
    if (!stored) throw new ServiceError('not_found', 'This account no longer exists.');
    const changed = { ...stored, passwordHash: await this.hashing.hash(next) };
    await this.deps.store.updateUser(changed, notice ? [notice(changed)] : []);
    return this.deps.store.deleteSessionsOfUser(user.id, keepSession ? digest(keepSession) : undefined);
  }

  /**
   * For the admin CLI: sets (or replaces) an account's password, so an account made on the
   * command line can also sign in to the web pages.
   */
  async setPassword(rawEmail: unknown, rawPassword: unknown): Promise<User> {
    const email = this.normaliseEmail(rawEmail);
    const password = this.checkPassword(rawPassword);
    const existing = await this.deps.store.getUserByEmail(email);
    if (!existing) throw new ServiceError('not_found', `There is no account ${email}.`);
    await this.deps.store.updateUser({ ...existing, passwordHash: await this.hashing.hash(password) });
    // A password set by the administrator (a lost or leaked one) ends every browser session.
    await this.deps.store.deleteSessionsOfUser(existing.id);
    return this.toUser(existing);
  }

  /** For the admin CLI: the account, made without a password (token-only) when missing. */
  async ensureUser(rawEmail: unknown): Promise<{ user: User; created: boolean }> {
    const email = this.normaliseEmail(rawEmail);
    const existing = await this.deps.store.getUserByEmail(email);
    if (existing) return { user: this.toUser(existing), created: false };
    this.checkNewAccountDomain(email);
    const user = { id: randomUUID(), email, passwordHash: '', createdAt: this.now().toISOString() };
    try {
      await this.deps.store.insertUser(user);
    } catch (e) {
      // Made at the same moment by another call: that account.
      const made = await this.deps.store.getUserByEmail(email);
      if (made) return { user: this.toUser(made), created: false };
      throw e;
    }
    return { user: this.toUser(user), created: true };
  }

  /**
   * Checks email and password; the same answer for an unknown email and a wrong password.
   * Guessing is limited per account and per client address (`clientIp`, from the request):
   * past either limit the answer is 429 (`too_many_requests` with a retry time), before any
   * lookup, even with the right password. The account key is the typed email whether or not
   * such an account exists, so the limit tells nothing about which emails are registered.
   */
  async verifyPassword(rawEmail: unknown, rawPassword: unknown, clientIp: string): Promise<User> {
    this.checkPasswordsOn();
    const email = typeof rawEmail === 'string' ? rawEmail.trim().toLowerCase() : '';
    const password = typeof rawPassword === 'string' ? rawPassword : '';
    // Emails are at most 254 characters; a longer key is junk and need not be remembered whole.
    // A NUL or a lone surrogate is in no account's email (storable-text.ts): still a counted guess.
    const accountKey = storableKey(email.slice(0, 320));
    let user: StoredUser | undefined;
    const ok = await this.signInGuesses.attempt(accountKey, clientIp, async () => {
      user = isStorableText(email) ? await this.deps.store.getUserByEmail(email) : undefined;
      // Hash even for an unknown account so the response time does not tell which emails exist.
      return user?.passwordHash ? this.hashing.verify(password, user.passwordHash) : (await this.hashing.hash(password), false);
    });
    if (!ok || !user) throw new ServiceError('unauthorized', 'Invalid email or password.');
    // Only told to whoever knew the password: a locked account's existence is no secret to them.
    if (user.lockedAt) throw new ServiceError('forbidden', ACCOUNT_LOCKED_MESSAGE);
    // Only after the right password: an unconfirmed address tells no one else anything.
    if ((user as StoredUser).emailConfirmedAt === null) throw new ServiceError('forbidden', CONFIRM_FIRST_MESSAGE);
    return this.toUser(user);
  }

  /** Starts a browser session; returns the cookie value (only its digest is stored). */
  async startSession(user: User): Promise<string> {
    const secret = randomBytes(32).toString('base64url');
    const now = this.now();
    await this.deps.store.insertSession({
      id: digest(secret),
      userId: user.id,
      createdAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + SESSION_DAYS * 86_400_000).toISOString(),
    });
    return secret;
  }

  /** The account by id (a half-signed-in browser's, from its signed ticket), or null when gone. */
  async userById(id: string): Promise<User | null> {
    const user = await this.deps.store.getUser(id);
    return user ? this.toUser(user) : null;
  }

  async sessionUser(cookieValue: string | undefined): Promise<User | null> {
    if (!cookieValue) return null;
    const session = await this.deps.store.getSession(digest(cookieValue));
    if (!session || session.expiresAt <= this.now().toISOString()) return null;
    // Read from the store on every request: a lock made on any instance applies at once.
    const user = await this.deps.store.getUser(session.userId);
    if (!user || user.lockedAt) return null;
    // REQUIRE_MFA is for password accounts: an account that signs in by SSO relies on the provider's MFA.
    if (this.deps.requireMfa && user.passwordHash && !user.sso && !user.secondFactor?.totpSecret && !user.passkeys?.length) return null;
    return this.toUser(user);
  }

  /** Deletes sessions past their expiry (run by the sweeper), a batch at a time; returns how many. */
  async sweepSessions(): Promise<number> {
    let total = 0;
    let n: number;
    do {
      n = await this.deps.store.deleteExpiredSessions(this.now(), SESSION_SWEEP_BATCH);
      total += n;
    } while (n === SESSION_SWEEP_BATCH);
    return total;
  }

  async endSession(cookieValue: string | undefined): Promise<void> {
    if (cookieValue) await this.deps.store.deleteSession(digest(cookieValue));
  }

  /** A CSRF token bound to the session (or to a pre-session nonce for sign-in forms). */
  csrfToken(binding: string): string {
    return createHmac('sha256', this.csrfKey).update(binding).digest('base64url');
  }

  verifyCsrf(binding: string | undefined, token: unknown): boolean {
    return Boolean(binding) && typeof token === 'string' && safeEqual(token, this.csrfToken(binding!));
  }

  /** Makes an API token; the returned plaintext is the only copy there will ever be. */
  async createApiToken(user: User, label = 'API token', id: string = randomUUID()): Promise<{ token: string; info: ApiTokenInfo }> {
    const token = TOKEN_PREFIX + randomBytes(32).toString('base64url');
    const record: StoredApiToken = {
      id,
      userId: user.id,
      hash: digest(token),
      label: label.trim().slice(0, 100) || 'API token',
      createdAt: this.now().toISOString(),
    };
    await this.deps.store.insertApiToken(record);
    return { token, info: { id: record.id, label: record.label, createdAt: record.createdAt } };
  }

  async listApiTokens(user: User): Promise<ApiTokenInfo[]> {
    return (await this.deps.store.listApiTokens(user.id)).map((t) => ({ id: t.id, label: t.label, createdAt: t.createdAt }));
  }

  async revokeApiToken(user: User, tokenId: string): Promise<void> {
    const tokens = await this.deps.store.listApiTokens(user.id);
    if (!tokens.some((t) => t.id === tokenId)) throw new ServiceError('not_found', 'No such token.');
    await this.deps.store.deleteApiToken(tokenId);
  }

  /**
   * The account an API token belongs to, or null. With the legacy `X-User-Email` header the
   * token must also belong to that email.
   */
  async authenticateToken(token: string, email?: string): Promise<User | null> {
    if (!token || token.length > 512) return null;
    const record = await this.deps.store.getApiTokenByHash(digest(token));
    if (!record) return null;
    const user = await this.deps.store.getUser(record.userId);
    if (!user || user.lockedAt) return null;
    if (email !== undefined && !safeEqual(user.email, email.trim().toLowerCase())) return null;
    return this.toUser(user);
  }
}
