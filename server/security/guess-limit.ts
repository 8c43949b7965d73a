import { ServiceError } from '../service-error.js';
import { FailedAttempts } from './failed-attempts.js';

/**
 * Guessing a secret (a push's passphrase, an account's password), limited per target and per
 * client address (one address guessing across many targets). Only failures count. A failure
 * is recorded before the (slow) check runs and forgiven when the check succeeds: otherwise a
 * burst of concurrent guesses would all pass the limit while the first was still hashing.
 */
export class GuessLimit {
  private readonly byTarget: FailedAttempts;
  private readonly byIp: FailedAttempts;

  constructor(
    perTargetPerMinute: number,
    perIpPerMinute: number,
    /** What a limited caller is told (429, with the time until a slot frees up). */
    private readonly limitedMessage: string,
    now: () => number = Date.now,
  ) {
    this.byTarget = new FailedAttempts(perTargetPerMinute, now);
    this.byIp = new FailedAttempts(perIpPerMinute, now);
  }

  /**
   * Runs `check` unless the target or the address is over its limit (then 429 before the check
   * runs, even for a right guess); resolves to the check's answer.
   */
  async attempt(target: string, ip: string, check: () => Promise<boolean>): Promise<boolean> {
    if (!this.byTarget.allowed(target) || !this.byIp.allowed(ip)) {
      const wait = Math.max(this.byTarget.retryAfterSeconds(target), this.byIp.retryAfterSeconds(ip));
      throw new ServiceError('too_many_requests', this.limitedMessage, undefined, wait);
    }
    const byTarget = this.byTarget.recordFailure(target);
    const byIp = this.byIp.recordFailure(ip);
    const ok = await check();
    if (ok) {
      this.byTarget.forgive(target, byTarget);
      this.byIp.forgive(ip, byIp);
    }
    return ok;
  }

  /** Forgets windows that have passed. */
  prune() {
    this.byTarget.prune();
    this.byIp.prune();
  }
}
