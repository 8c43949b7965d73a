/**
 * Failed attempts per key (a push, an account, or a client address) in a sliding one-minute
 * window. Only failures count, so legitimate users (viewers of a popular push, a person who
 * signs in every few seconds) are never locked out, while guessing stops at the limit (the
 * reference allows 5 passphrase attempts a minute per push). Used for passphrases (per push and
 * per IP) and for sign-in (per account and per IP).
 */
export class FailedAttempts {
  private readonly failures = new Map<string, number[]>();
  private lastPrune: number;

  constructor(
    private readonly perMinute: number,
    private readonly now: () => number = Date.now,
  ) {
    this.lastPrune = now();
  }

  private recent(key: string): number[] {
    const t = this.now();
    const list = (this.failures.get(key) ?? []).filter((at) => t - at < 60_000);
    if (list.length) this.failures.set(key, list);
    else this.failures.delete(key);
    return list;
  }

  /** Whether another attempt may be tried now. */
  allowed(key: string): boolean {
    return this.recent(key).length < this.perMinute;
  }

  /** Whole seconds until `key` may try again (0 when it may now). */
  retryAfterSeconds(key: string): number {
    const list = this.recent(key);
    if (list.length < this.perMinute) return 0;
    // The window frees a slot when the oldest failure that keeps it full turns a minute old.
    const oldest = list[list.length - this.perMinute]!;
    return Math.max(1, Math.ceil((oldest + 60_000 - this.now()) / 1000));
  }

  /** Counts a failure; returns its time, for `forgive` when it was only provisional. */
  recordFailure(key: string): number {
    const at = this.now();
    const list = this.recent(key);
    list.push(at);
    this.failures.set(key, list);
    // Keys come from clients (addresses, typed emails): forget passed windows at least once a
    // minute even when no sweeper calls prune(), so the map cannot grow without bound.
    if (at - this.lastPrune >= 60_000) this.prune();
    return at;
  }

  /**
   * Takes back a failure recorded at `at`. Checks that take time (a password hash) record the
   * failure before they start and forgive it when they succeed: otherwise a burst of concurrent
   * guesses would all pass `allowed` before the first of them had failed.
   */
  forgive(key: string, at: number): void {
    const list = this.failures.get(key);
    const i = list?.lastIndexOf(at) ?? -1;
    if (i < 0) return;
    list!.splice(i, 1);
    if (!list!.length) this.failures.delete(key);
  }

  /** Forgets windows that have passed (called by the sweeper, and at most once a minute by recordFailure). */
  prune() {
    this.lastPrune = this.now();
    for (const key of [...this.failures.keys()]) this.recent(key);
  }
}
