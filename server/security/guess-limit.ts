import { ServiceError } from '../service-error.js';
import type { LimitCounters } from '../storage/store.js';

const WINDOW_MS = 60_000;

/**
 * Guessing a secret (a push's passphrase, an account's password), limited per target and per
 * client address (one address guessing across many targets), in a sliding one-minute window.
 * Only failures count, so legitimate users (viewers of a popular push, a person who signs in
 * every few seconds) are never locked out. A failure is claimed before the (slow) check runs and
 * forgiven when the check succeeds: otherwise a burst of concurrent guesses would all pass the
 * limit while the first was still hashing. The counts live in the store, so every instance of a
 * scaled-out server sees the same ones.
 */
export class GuessLimit {
  constructor(
    private readonly counters: LimitCounters,
    /** Names this limit's keys apart from other limits' (e.g. "passphrase", "sign-in"). */
    private readonly scope: string,
    private readonly perTargetPerMinute: number,
    private readonly perIpPerMinute: number,
    /** What a limited caller is told (429, with the time until a slot frees up). */
    private readonly limitedMessage: string,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Runs `check` unless the target or the address is over its limit (then 429 before the check
   * runs, even for a right guess); resolves to the check's answer.
   */
  async attempt(target: string, ip: string, check: () => Promise<boolean>): Promise<boolean> {
    const claim = await this.counters.claimFailure(
      [
        { key: `${this.scope}:target:${target}`, limit: this.perTargetPerMinute },
        { key: `${this.scope}:ip:${ip}`, limit: this.perIpPerMinute },
      ],
      WINDOW_MS,
      this.now(),
    );
    if (!claim.allowed) throw new ServiceError('too_many_requests', this.limitedMessage, undefined, claim.retryAfterSeconds);
    const ok = await check();
    if (ok) await this.counters.forgive(claim.ids);
    return ok;
  }

  /** Forgets windows that have passed (called by the expiry sweeper). */
  prune() {
    return this.counters.prune(this.now() - WINDOW_MS);
  }
}
