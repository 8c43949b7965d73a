/**
 * Failed passphrase attempts per key (a push, or a client address) in a sliding one-minute
 * window. Only failures count, so legitimate viewers of a popular push are never locked out,
 * while guessing stops at the limit (the reference allows 5 a minute per push).
 */
export class FailedAttempts {
  private readonly failures = new Map<string, number[]>();

  constructor(
    private readonly perMinute: number,
    private readonly now: () => number = Date.now,
  ) {}

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

  recordFailure(key: string): void {
    const list = this.recent(key);
    list.push(this.now());
    this.failures.set(key, list);
  }

  /** Forgets windows that have passed (called by the sweeper). */
  prune() {
    for (const key of [...this.failures.keys()]) this.recent(key);
  }
}
