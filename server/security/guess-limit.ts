import { ServiceError } from '../service-error.js';
import type { LimitCounters, LimitedKey } from '../storage/store.js';
import { clientKey } from './client-key.js';

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

export interface GuessLimits {
  /**
   * Failures per client address and target before back-off: then each further guess from that
   * address at that target waits `backoffBaseSeconds` × 2^n after the previous one (at most
   * `backoffMaxSeconds`), counted over a day.
   */
  freePerIpAndTarget: number;
  backoffBaseSeconds: number;
  backoffMaxSeconds: number;
  /** Failures per client address per minute, across all targets. */
  perIpPerMinute: number;
  /**
   * Failures per target per minute from everyone (a push's passphrase, which many addresses
   * could guess together). Unset for sign-in: a stranger must not be able to lock an account.
   */
  perTargetPerMinute?: number;
}

/**
 * Guessing a secret (a push's passphrase, an account's password). Each client address gets a
 * few free failures per target, then an exponential back-off for that target only, so the
 * owner of an account, signing in from their own address, is never locked out by a stranger's
 * failures; one address guessing across many targets is limited per minute; a target may also
 * have a limit of its own (passphrases). Only failures count: a failure is claimed before the
 * (slow) check runs and forgiven when the check succeeds, so a burst of concurrent guesses
 * cannot pass the limit while the first is still hashing. The counts live in the store, so
 * every instance of a scaled-out server sees the same ones. Client addresses are grouped as the
 * rate limit groups them (client-key.ts).
 */
export class GuessLimit {
  constructor(
    private readonly counters: LimitCounters,
    /** Names this limit's keys apart from other limits' (e.g. "passphrase", "sign-in"). */
    private readonly scope: string,
    private readonly limits: GuessLimits,
    /** What a limited caller is told (429, with the time until a guess is allowed again). */
    private readonly limitedMessage: string,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Runs `check` unless a limit refuses the guess (then 429 before the check runs, even for a
   * right guess); resolves to the check's answer.
   */
  async attempt(target: string, ip: string, check: () => Promise<boolean>): Promise<boolean> {
    const client = clientKey(ip);
    const { freePerIpAndTarget, backoffBaseSeconds, backoffMaxSeconds, perIpPerMinute, perTargetPerMinute } = this.limits;
    const keys: LimitedKey[] = [
      {
        key: `${this.scope}:ip+target:${client}:${target}`,
        limit: freePerIpAndTarget,
        windowMs: DAY_MS,
        backoff: { baseMs: backoffBaseSeconds * 1000, maxMs: backoffMaxSeconds * 1000 },
      },
      { key: `${this.scope}:ip:${client}`, limit: perIpPerMinute, windowMs: MINUTE_MS },
    ];
    if (perTargetPerMinute !== undefined) keys.push({ key: `${this.scope}:target:${target}`, limit: perTargetPerMinute, windowMs: MINUTE_MS });
    const claim = await this.counters.claim(keys, this.now());
    if (!claim.allowed) throw new ServiceError('too_many_requests', this.limitedMessage, undefined, claim.retryAfterSeconds);
    const ok = await check();
    if (ok) await this.counters.forgive(claim.ids);
    return ok;
  }

  /** Forgets claims whose windows have passed (called by the expiry sweeper). */
  prune() {
    return this.counters.prune(this.now());
  }
}
