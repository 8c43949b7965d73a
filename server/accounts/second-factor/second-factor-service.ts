import { Secret, TOTP } from 'otpauth';
import type { KeyRing } from '../../crypto/key-ring.js';
import type { Logger } from '../../logger.js';
import type { GuessLimit } from '../../security/guess-limit.js';
import { ServiceError } from '../../service-error.js';
import type { StoredSecondFactor, StoredUser } from '../../storage/records.js';
import type { Store } from '../../storage/store.js';
import { storableKey } from '../../storage/storable-text.js';
import type { User } from '../user.js';
import { newRecoveryCode, normaliseRecoveryCode, RECOVERY_CODE_COUNT, recoveryCodeDigest } from './recovery-codes.js';

/** RFC 6238 as every authenticator app does it by default: SHA-1, 6 digits, 30 seconds. */
const PERIOD_SECONDS = 30;
const DIGITS = 6;
/** A code of the step before or after the current one is accepted too (a clock a little off, a slow typist). */
const WINDOW = 1;

export const WRONG_CODE_MESSAGE = 'That code is not right. Check your authenticator app and try again.';

export interface SecondFactorStatus {
  totp: boolean;
  recoveryCodesLeft: number;
  passkeys: number;
}

export interface TotpEnrolment {
  /** The secret in base32, for typing into an app that cannot scan. */
  secret: string;
  /** The otpauth:// URI the QR code carries. */
  uri: string;
}

export interface SecondFactorDeps {
  store: Store;
  keys: KeyRing;
  /**
   * The sign-in guess limit with a per-account limit besides (AccountService.secondStepGuesses):
   * wrong codes count with wrong passwords, per address and account.
   */
  signInGuesses: GuessLimit;
  /** REQUIRE_MFA: password accounts must have a second factor before they get a session. */
  requireMfa: boolean;
  /** The name authenticator apps show beside the account (the server's host). */
  issuer: string;
  clock?: () => Date;
  /** Changes to an account's second factor are logged (the account id, never a code or key). */
  logger?: Pick<Logger, 'info'>;
}

const emptySecondFactor = (): StoredSecondFactor => ({ totpSecret: null, pendingTotpSecret: null, lastUsedStep: 0, recoveryCodes: [], enrolledAt: null });

/**
 * Two-factor sign-in with TOTP (RFC 6238) and single-use recovery codes. The secret is sealed
 * in the account record; each accepted code moves the account's last used time step forward in
 * the same atomic change (Store.changeUser), so a code is accepted once, on any instance, and a
 * recovery code is removed as it is used. Wrong codes are failed sign-ins (signInGuesses).
 */
export class SecondFactorService {
  private readonly now: () => Date;

  constructor(private readonly deps: SecondFactorDeps) {
    this.now = deps.clock ?? (() => new Date());
  }

  get requireMfa(): boolean {
    return this.deps.requireMfa;
  }

  /** Whether the account has a second factor to ask for (TOTP or a passkey). */
  hasSecondFactor(user: StoredUser): boolean {
    return Boolean(user.secondFactor?.totpSecret) || (user.passkeys?.length ?? 0) > 0;
  }

  async status(user: User): Promise<SecondFactorStatus> {
    const stored = await this.load(user.id);
    return {
      totp: Boolean(stored.secondFactor?.totpSecret),
      recoveryCodesLeft: stored.secondFactor?.totpSecret ? stored.secondFactor.recoveryCodes.length : 0,
      passkeys: stored.passkeys?.length ?? 0,
    };
  }

  /**
   * What a right password leads to: `verify` (the account has a second factor: ask for it),
   * `enrol` (REQUIRE_MFA and it has none: set one up first) or `done` (a session now).
   */
  async afterPassword(user: User): Promise<'verify' | 'enrol' | 'done'> {
    const stored = await this.load(user.id);
    if (this.hasSecondFactor(stored)) return 'verify';
    return this.deps.requireMfa ? 'enrol' : 'done';
  }

  /**
   * Starts (or shows again) a TOTP enrolment: a new secret kept as pending until a code from it
   * is confirmed, so that reloading the page shows the same QR code.
   */
  async beginTotp(user: User): Promise<TotpEnrolment> {
    const secret = await this.deps.store.changeUser(user.id, (u) => {
      const current = u.secondFactor ?? emptySecondFactor();
      if (current.totpSecret) return { result: null };
      if (current.pendingTotpSecret) return { result: current.pendingTotpSecret };
      const sealed = this.deps.keys.seal(new Secret({ size: 20 }).base32);
      return { next: { ...u, secondFactor: { ...current, pendingTotpSecret: sealed } }, result: sealed };
    });
    if (secret === undefined) throw new ServiceError('not_found', 'This account no longer exists.');
    if (secret === null) throw new ServiceError('conflict', 'Two-factor sign-in is already on for this account.');
    const base32 = this.deps.keys.openText(secret);
    return { secret: base32, uri: this.totp(base32, user.email).toString() };
  }

  /**
   * Confirms an enrolment with a code from the app: TOTP is on from then, and the ten recovery
   * codes returned here are the only plaintext copy there will be.
   */
  async confirmTotp(user: User, rawCode: unknown, clientIp: string): Promise<string[]> {
    const code = this.codeOf(rawCode);
    const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
    let outcome: 'ok' | 'wrong' | 'none' = 'none';
    await this.deps.signInGuesses.attempt(storableKey(user.email), clientIp, async () => {
      outcome =
        (await this.deps.store.changeUser(user.id, (u) => {
          const current = u.secondFactor ?? emptySecondFactor();
          if (!current.pendingTotpSecret || current.totpSecret) return { result: 'none' as const };
          const step = code ? this.acceptedStep(this.deps.keys.openText(current.pendingTotpSecret), user.email, code, 0) : null;
          if (step === null) return { result: 'wrong' as const };
          const next: StoredSecondFactor = {
            totpSecret: current.pendingTotpSecret,
            pendingTotpSecret: null,
            lastUsedStep: step,
            recoveryCodes: codes.map((c) => recoveryCodeDigest(u.id, normaliseRecoveryCode(c)!)),
            enrolledAt: this.now().toISOString(),
          };
          return { next: { ...u, secondFactor: next }, result: 'ok' as const };
        })) ?? 'none';
      // Only a wrong code is a failed guess; a missing enrolment is not the caller guessing.
      return outcome !== 'wrong';
    });
    if (outcome === 'none') throw new ServiceError('conflict', 'There is no two-factor set-up waiting to be confirmed. Start again.');
    if (outcome === 'wrong') throw new ServiceError('unauthorized', WRONG_CODE_MESSAGE);
    this.deps.logger?.info('account security: authenticator app turned on', { account: user.id });
    return codes;
  }

  /**
   * The second step of a sign-in, or a check before a change: a TOTP code (accepted once: a
   * code of a step at or before the last accepted one is refused) or an unused recovery code
   * (used up). Wrong codes are failed sign-ins. Resolves with what was used.
   */
  async verify(user: User, rawCode: unknown, clientIp: string): Promise<{ method: 'totp' | 'recovery'; recoveryCodesLeft: number }> {
    const typed = typeof rawCode === 'string' ? rawCode.trim() : '';
    const totpCode = this.codeOf(typed);
    const recovery = totpCode ? null : normaliseRecoveryCode(typed.slice(0, 64));
    type Used = { method: 'totp' | 'recovery'; recoveryCodesLeft: number };
    let used: Used | null = null;
    await this.deps.signInGuesses.attempt(storableKey(user.email), clientIp, async () => {
      used =
        (await this.deps.store.changeUser(user.id, (u): { next?: StoredUser; result: Used | null } => {
          const current = u.secondFactor;
          if (!current?.totpSecret) return { result: null };
          if (totpCode) {
            const step = this.acceptedStep(this.deps.keys.openText(current.totpSecret), user.email, totpCode, current.lastUsedStep);
            if (step === null) return { result: null };
            // Sealed under a retired MASTER_KEY: sealed again under the current one, so the old key can go.
            const totpSecret = this.deps.keys.isStale(current.totpSecret) ? this.deps.keys.seal(this.deps.keys.openText(current.totpSecret)) : current.totpSecret;
            return { next: { ...u, secondFactor: { ...current, totpSecret, lastUsedStep: step } }, result: { method: 'totp', recoveryCodesLeft: current.recoveryCodes.length } };
          }
          if (!recovery) return { result: null };
          const hash = recoveryCodeDigest(u.id, recovery);
          if (!current.recoveryCodes.includes(hash)) return { result: null };
          const left = current.recoveryCodes.filter((h) => h !== hash);
          return { next: { ...u, secondFactor: { ...current, recoveryCodes: left } }, result: { method: 'recovery', recoveryCodesLeft: left.length } };
        })) ?? null;
      return used !== null;
    });
    if (!used) throw new ServiceError('unauthorized', WRONG_CODE_MESSAGE);
    const { method, recoveryCodesLeft } = used as { method: 'totp' | 'recovery'; recoveryCodesLeft: number };
    if (method === 'recovery') this.deps.logger?.info('account security: recovery code used', { account: user.id, recovery_codes_left: recoveryCodesLeft });
    return used;
  }

  /** New recovery codes (the old ones stop working), after a current code. */
  async renewRecoveryCodes(user: User, rawCode: unknown, clientIp: string): Promise<string[]> {
    await this.verify(user, rawCode, clientIp);
    const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
    await this.deps.store.changeUser(user.id, (u) =>
      u.secondFactor?.totpSecret ? { next: { ...u, secondFactor: { ...u.secondFactor, recoveryCodes: codes.map((c) => recoveryCodeDigest(u.id, normaliseRecoveryCode(c)!)) } }, result: true } : { result: false },
    );
    this.deps.logger?.info('account security: recovery codes renewed', { account: user.id });
    return codes;
  }

  /**
   * Turns TOTP off after a current code. Under REQUIRE_MFA only while a passkey remains, so the
   * account still has a second factor.
   */
  async turnOffTotp(user: User, rawCode: unknown, clientIp: string): Promise<void> {
    const stored = await this.load(user.id);
    if (this.deps.requireMfa && !(stored.passkeys?.length ?? 0)) {
      throw new ServiceError('forbidden', 'This server requires a second factor: add a passkey before turning the authenticator app off.');
    }
    await this.verify(user, rawCode, clientIp);
    await this.deps.store.changeUser(user.id, (u) => ({ next: { ...u, secondFactor: emptySecondFactor() }, result: true }));
    this.deps.logger?.info('account security: authenticator app turned off', { account: user.id });
  }

  /**
   * For the admin CLI (a lost phone): removes the account's TOTP, recovery codes and passkeys
   * and ends its browser sessions. Its next sign-in is with the password alone (or, with
   * REQUIRE_MFA, enrols again). Resolves with what was removed.
   */
  async reset(userId: string): Promise<{ totp: boolean; passkeys: number; sessions: number }> {
    const removed = await this.deps.store.changeUser(userId, (u) => {
      const { secondFactor, passkeys, ...rest } = u;
      return { next: rest, result: { totp: Boolean(secondFactor?.totpSecret), passkeys: passkeys?.length ?? 0 } };
    });
    if (!removed) throw new ServiceError('not_found', 'There is no such account.');
    const sessions = await this.deps.store.deleteSessionsOfUser(userId);
    this.deps.logger?.info('account security: second factor reset by an administrator', { account: userId, passkeys_removed: removed.passkeys, authenticator_app_removed: removed.totp });
    return { ...removed, sessions };
  }

  private async load(userId: string): Promise<StoredUser> {
    const stored = await this.deps.store.getUser(userId);
    if (!stored) throw new ServiceError('not_found', 'This account no longer exists.');
    return stored;
  }

  private totp(base32: string, email: string): TOTP {
    return new TOTP({ issuer: this.deps.issuer, label: email, algorithm: 'SHA1', digits: DIGITS, period: PERIOD_SECONDS, secret: Secret.fromBase32(base32) });
  }

  /** Six digits (spaces allowed, as apps show "123 456"), or null. */
  private codeOf(raw: unknown): string | null {
    const code = typeof raw === 'string' ? raw.replace(/\s/g, '') : '';
    return /^\d{6}$/.test(code) ? code : null;
  }

  /** The time step `code` is right for, within the window and after `after`; else null. */
  private acceptedStep(base32: string, email: string, code: string, after: number): number | null {
    const totp = this.totp(base32, email);
    const timestamp = this.now().getTime();
    const delta = totp.validate({ token: code, timestamp, window: WINDOW });
    if (delta === null) return null;
    const step = totp.counter({ timestamp }) + delta;
    return step > after ? step : null;
  }
}
